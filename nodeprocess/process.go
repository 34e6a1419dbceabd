package nodeprocess

import (
	"os"
	"strconv"
	"syscall"

	"github.com/uvgo/uvgo/internal/proc"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// Error is an error as Node's process reports it.
type Error struct {
	Errno   int
	Code    string
	Syscall string
	Message string
	Err     error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Pid is process.pid.
func (p *Process) Pid() int { return os.Getpid() }

// isSignal reports whether event names a signal ("SIGINT") and its number.
func isSignal(event string) (syscall.Signal, bool) {
	if len(event) < 4 || event[:3] != "SIG" {
		return 0, false
	}
	n := proc.SignalNum(event)
	return syscall.Signal(n), n != 0
}

// On is process.on(event, fn). For a signal name, fn gets (name string, number int). A
// signal that cannot be watched (SIGKILL, SIGSTOP) panics with an *Error (EINVAL, syscall
// uv_signal_start), as Node throws, and fn is not added.
func (p *Process) On(event string, fn func(args ...any)) *nodenet.Listener {
	p.watch(event)
	return p.EventEmitter.On(event, fn)
}

// Once is process.once(event, fn); see On for signals.
func (p *Process) Once(event string, fn func(args ...any)) *nodenet.Listener {
	p.watch(event)
	return p.EventEmitter.Once(event, fn)
}

// Off is process.off(event, listener): the signal stops being watched with its last listener.
func (p *Process) Off(event string, l *nodenet.Listener) bool {
	ok := p.EventEmitter.Off(event, l)
	p.unwatch(event)
	return ok
}

// RemoveListener is process.removeListener(event, fn) by the func itself: the signal stops
// being watched with its last listener.
func (p *Process) RemoveListener(event string, fn func(args ...any)) bool {
	ok := p.EventEmitter.RemoveListener(event, fn)
	p.unwatch(event)
	return ok
}

// RemoveAllListeners is process.removeAllListeners(events...).
func (p *Process) RemoveAllListeners(events ...string) {
	p.EventEmitter.RemoveAllListeners(events...)
	if len(events) == 0 {
		for ev := range p.signals {
			events = append(events, ev)
		}
	}
	for _, ev := range events {
		p.unwatch(ev)
	}
}

// OnSignal adds a listener of the signal named, which gets the name and the number.
func (p *Process) OnSignal(name string, fn func(name string, num int)) *nodenet.Listener {
	return p.On(name, func(a ...any) { fn(a[0].(string), a[1].(int)) })
}

// watch starts the Signal handle of a signal event that has none, before its first listener
// is added (Node's 'newListener' hook): a signal that cannot be watched panics with Node's
// error, and the listener is not added.
func (p *Process) watch(event string) {
	sig, ok := isSignal(event)
	if !ok || p.signals[event] != nil {
		return
	}
	h, err := p.loop.NewSignal(func(_ *uvloop.Signal, signum syscall.Signal) {
		p.Emit(event, event, int(signum))
	})
	if err == nil {
		err = h.Start(sig)
	}
	if err != nil {
		if h != nil {
			h.Close(nil)
		}
		panic(&Error{Errno: -int(syscall.EINVAL), Code: "EINVAL", Syscall: "uv_signal_start", Message: "uv_signal_start EINVAL", Err: err})
	}
	h.Unref()
	p.signals[event] = h
}

func (p *Process) unwatch(event string) {
	if h := p.signals[event]; h != nil && p.ListenerCount(event) == 0 {
		h.Close(nil)
		delete(p.signals, event)
	}
}

// Kill is process.kill(pid, signal): it sends the signal named ("SIGTERM" if "", "0" to
// probe, or a number as text) and returns true, or an error: ERR_UNKNOWN_SIGNAL for an
// unknown name, ESRCH or EPERM (syscall "kill") from the system.
func (p *Process) Kill(pid int, signal string) (bool, error) {
	if signal == "" {
		signal = "SIGTERM"
	}
	n := proc.SignalNum(signal)
	if v, err := strconv.Atoi(signal); err == nil {
		n = v
	} else if n == 0 {
		return false, &Error{Code: "ERR_UNKNOWN_SIGNAL", Message: "Unknown signal: " + signal}
	}
	if err := uvloop.Kill(pid, syscall.Signal(n)); err != nil {
		code := "UNKNOWN"
		errno := syscall.EINVAL
		if e, ok := err.(*os.SyscallError); ok {
			if en, ok := e.Err.(syscall.Errno); ok {
				errno = en
			}
		}
		if name := proc.ErrnoName(errno); name != "" {
			code = name
		}
		return false, &Error{Errno: -int(errno), Code: code, Syscall: "kill", Message: "kill " + code, Err: err}
	}
	return true, nil
}

// Close stops watching every signal and closes the standard streams this Process opened
// (their fds stay open: 0-2 are never closed). Call it before closing the loop.
func (p *Process) Close() {
	for ev, h := range p.signals {
		h.Close(nil)
		delete(p.signals, ev)
	}
	p.closeStdio()
}
