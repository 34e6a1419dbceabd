package poller

// WakeFD returns the eventfd of p's wake-up.
func WakeFD(p *Poller) int { return p.w.fd }
