package nodenet

import (
	"testing"

	"github.com/uvgo/uvgo/nodeevents"
)

// The emitter itself is tested in nodeevents. What nodenet adds is its names: EventEmitter,
// Listener and UnhandledError are nodeevents' own types, so that ported code and the types
// that embed the emitter (Socket, Server) keep compiling and interoperate with nodeevents.
func TestEmitterNames(t *testing.T) {
	var e EventEmitter
	var ne *nodeevents.EventEmitter = &e // the same type, not a copy of it
	var l *Listener = ne.On("x", func(...any) {})
	if !e.Off("x", l) {
		t.Fatal("a Listener from nodeevents did not remove through nodenet's name")
	}
	defer func() {
		if _, ok := recover().(*UnhandledError); !ok {
			t.Fatal("Emit(\"error\", 42) did not panic with a *UnhandledError")
		}
	}()
	e.Emit("error", 42)
}
