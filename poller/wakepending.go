package poller

// WakePending reports whether a Wake is waiting to be reported by Wait. The loop uses it to
// skip a zero-timeout Wait that could report nothing. Safe from any goroutine.
func (p *Poller) WakePending() bool { return p.wake.Load()&wakePending != 0 }
