package poller

import "unsafe"

// WakeFD returns the eventfd of p's wake-up.
func WakeFD(p *Poller) int { return p.w.fd }

// MissMultishot makes the Pollers opened until restore is called act as on a kernel without
// multishot receives (recv) or accepts (accept): Open's probe treats them as missing.
func MissMultishot(recv, accept bool) (restore func()) {
	old := probeMissing
	probeMissing = 0
	if recv {
		probeMissing |= 1
	}
	if accept {
		probeMissing |= 2
	}
	return func() { probeMissing = old }
}

// RingStateSizes returns the sizes of the io_uring backend's per-fd states: what every
// registered fd costs it beyond fdState.
func RingStateSizes() (poll, recv, send uintptr) {
	return unsafe.Sizeof(pollState{}), unsafe.Sizeof(recvState{}), unsafe.Sizeof(sendState{})
}

// MissRecvLimit makes the Pollers opened until restore is called act as on a kernel whose
// multishot receives take no byte limit.
func MissRecvLimit() (restore func()) {
	old := probeMissing
	probeMissing |= 4
	return func() { probeMissing = old }
}

// ForgetUncancelled forgets fd's multishot accept (accept) or receive (!accept) as
// AcceptForget or RecvForget would, but leaves the request in the kernel: what a
// cancellation the kernel refused leaves behind.
func ForgetUncancelled(p *Poller, fd int, accept bool) {
	if accept {
		p.q.ring.acc.st[fd] = acceptState{}
		return
	}
	*p.q.ring.recvs.At(fd) = recvState{}
}

// SendIovecLens returns the lengths of the iovecs a Send of bufs asks the kernel to write.
func SendIovecLens(bufs [][]byte) []uint64 {
	var lens []uint64
	for _, v := range appendIovecs(nil, bufs) {
		lens = append(lens, uint64(v.Len))
	}
	return lens
}

// RingFlags returns the setup flags of p's ring (0 on another backend).
func RingFlags(p *Poller) uint32 {
	if p.q.ring == nil {
		return 0
	}
	return p.q.ring.r.Flags()
}

// RawSubmit makes an io_uring_enter of p's ring from the caller's thread, without the hand-off
// to a pinned ring's thread.
func RawSubmit(p *Poller) error {
	_, err := p.q.ring.r.Enter(0, nil)
	return err
}
