package nodenet

import (
	"errors"
	"strconv"
	"syscall"

	"github.com/uvgo/uvgo/internal/bufenc"
	"github.com/uvgo/uvgo/internal/sock"
	"github.com/uvgo/uvgo/internal/uverr"
)

// Error is the error value of Node's net layer: Code is Node's err.code ("ECONNREFUSED",
// "ERR_STREAM_WRITE_AFTER_END", ...), Syscall, Address and Port are set for system call
// failures, and Err, if set, is the underlying error (errors.Is(err, syscall.ECONNREFUSED)
// works). Error() is Node's err.message.
type Error struct {
	Code    string
	Message string
	Syscall string // "connect", "listen", "read", "write", ... or ""
	Address string // for connect and listen failures
	Port    int    // for connect and listen failures over TCP; 0 otherwise
	Err     error  // the cause, or nil
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Is matches another *Error by Code, so the sentinels below work with errors.Is.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Err == nil && t.Code == e.Code
}

// Sentinels, to match with errors.Is (they match by Code).
var (
	// ErrWriteAfterEnd: Write after End (ERR_STREAM_WRITE_AFTER_END).
	ErrWriteAfterEnd = &Error{Code: "ERR_STREAM_WRITE_AFTER_END", Message: "write after end"}
	// ErrDestroyed: Write or End on a destroyed socket (ERR_STREAM_DESTROYED).
	ErrDestroyed = &Error{Code: "ERR_STREAM_DESTROYED", Message: "Cannot call write after a stream was destroyed"}
	// ErrServerNotRunning: Server.Close of a server that is not listening.
	ErrServerNotRunning = &Error{Code: "ERR_SERVER_NOT_RUNNING", Message: "Server is not running."}
	// ErrServerAlreadyListen: Listen on a listening server.
	ErrServerAlreadyListen = &Error{Code: "ERR_SERVER_ALREADY_LISTEN", Message: "Listen method has been called more than once without closing."}
	// ErrEndedByPeer: Write after the peer ended a socket that is not half-open (EPIPE).
	ErrEndedByPeer = &Error{Code: "EPIPE", Message: "This socket has been ended by the other party"}
	// ErrUnknownEncoding: SetEncoding with an encoding this package does not know.
	ErrUnknownEncoding = &Error{Code: "ERR_UNKNOWN_ENCODING", Message: "Unknown encoding"}
)

// errnoOf digs the errno out of err (uvloop wraps them in *os.SyscallError).
func errnoOf(err error) (syscall.Errno, bool) {
	var errno syscall.Errno
	ok := errors.As(err, &errno)
	return errno, ok
}

// sysError is Node's errnoException / exceptionWithHostPort: "connect ECONNREFUSED
// 127.0.0.1:8080".
func sysError(err error, syscall, address string, port int) *Error {
	code := "UNKNOWN"
	if errno, ok := errnoOf(err); ok {
		if name := sock.ErrnoName(errno); name != "" {
			code = name
		}
	}
	msg := syscall + " " + code
	if address != "" {
		msg += " " + address
		if port > 0 {
			msg += ":" + strconv.Itoa(port)
		}
	}
	return &Error{Code: code, Message: msg, Syscall: syscall, Address: address, Port: port, Err: err}
}

// uvError is Node's UVExceptionWithHostPort, which listen and bind failures use: the
// message carries libuv's description, "listen EADDRINUSE: address already in use :::8080".
func uvError(err error, syscall, address string, port int) *Error {
	e := sysError(err, syscall, address, port)
	desc := "unknown error"
	if errno, ok := errnoOf(err); ok {
		desc = uverr.Desc(errno)
	}
	e.Message = syscall + " " + e.Code + ": " + desc
	if address != "" {
		e.Message += " " + address
		if port > 0 {
			e.Message += ":" + strconv.Itoa(port)
		}
	}
	return e
}

// checkPort is Node's validatePort: ERR_SOCKET_BAD_PORT for a port outside 0-65535.
func checkPort(port int) error {
	if port < 0 || port > 65535 {
		return &Error{Code: "ERR_SOCKET_BAD_PORT", Message: "options.port should be >= 0 and < 65536. Received type number (" + strconv.Itoa(port) + ")."}
	}
	return nil
}

// newDecoder is a StringDecoder for Node's setEncoding(enc): "" is utf8, an unknown name is
// ERR_UNKNOWN_ENCODING.
func newDecoder(enc string) (*bufenc.StringDecoder, error) {
	norm, ok := bufenc.Normalize(enc)
	if !ok || norm == "" && enc != "" {
		return nil, &Error{Code: ErrUnknownEncoding.Code, Message: "Unknown encoding: " + enc}
	}
	return bufenc.NewStringDecoder(norm), nil
}
