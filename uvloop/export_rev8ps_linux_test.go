package uvloop

import "syscall"

// SignalPending returns the deliveries of sig counted for l and not run yet.
func (l *Loop) SignalPending(sig syscall.Signal) uint32 {
	if l.sig == nil {
		return 0
	}
	return l.sig.pending[sig].Load()
}
