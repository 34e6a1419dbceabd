package nodenet

import "github.com/uvgo/uvgo/nodeevents"

// EventEmitter is Node's EventEmitter; it lives in package nodeevents (see
// nodeevents.EventEmitter), and the name stays here so that ported code and the types
// that embed it keep compiling.
type EventEmitter = nodeevents.EventEmitter

// The names of this package's emitters in leak warnings, as Node's.
var (
	socketClass = nodeevents.NewClass("Socket")
	serverClass = nodeevents.NewClass("Server")
)

// Listener is the token of one registration (nodeevents.Listener).
type Listener = nodeevents.Listener

// UnhandledError is what Emit("error", v) panics with when there is no "error" listener
// and v is not an error (nodeevents.UnhandledError).
type UnhandledError = nodeevents.UnhandledError
