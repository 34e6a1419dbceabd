package uvloop

import "syscall"

// SignalPending returns the deliveries of sig counted for l and not run yet.
func (l *Loop) SignalPending(sig syscall.Signal) uint32 {
	if l.sig == nil {
		return 0
	}
	return l.sig.pending[sig].Load()
}

// WakeupsQueued reports whether work from other goroutines waits for the loop (a post, an
// Async send: the signal hub's wake-up after it counted a delivery). Any goroutine.
func (l *Loop) WakeupsQueued() bool { return l.wakeupsQueued() }
