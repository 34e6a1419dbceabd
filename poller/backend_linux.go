package poller

var _ backend = (*Poller)(nil)

// queueState holds both Linux backends; Open picks one, and each contract method below
// forwards to it: the ring when ring is set, epoll otherwise.
type queueState struct {
	epoll epollState
	ring  *ringState // nil unless the io_uring backend runs
}

func (p *Poller) open(b Backend) error {
	switch b {
	case BackendAuto:
		if p.opts.ThreadBound && p.openRingIfWhole() {
			return nil
		}
		return p.epollOpen()
	case BackendEpoll:
		return p.epollOpen()
	case BackendIOURing:
		return p.ringOpen()
	}
	return errBackend(b, nil)
}

func (p *Poller) register(fd int, ev Events, tag uint32) error {
	if p.q.ring != nil {
		return p.ringRegister(fd, ev)
	}
	return p.epollRegister(fd, ev, tag)
}

func (p *Poller) update(fd int, ev Events, tag uint32) error {
	if p.q.ring != nil {
		return p.ringUpdate(fd, ev)
	}
	return p.epollUpdate(fd, ev, tag)
}

func (p *Poller) unregister(fd int) error {
	if p.q.ring != nil {
		return p.ringUnregister(fd)
	}
	return p.epollUnregister(fd)
}

func (p *Poller) wait(msec int) (int, bool, error) {
	if p.q.ring != nil {
		return p.ringWait(msec)
	}
	return p.epollWait(msec)
}

func (p *Poller) owns(fd int) bool {
	if p.q.ring != nil {
		return fd == p.q.ring.r.Fd() || fd == p.q.ring.probeFd || p.wakeOwns(fd)
	}
	return fd == p.q.epoll.epfd || p.wakeOwns(fd)
}

func (p *Poller) release() error {
	if p.q.ring != nil {
		return p.ringRelease()
	}
	return p.epollRelease()
}

// addWake watches the wake-up's eventfd for reading (called by openWake).
func (p *Poller) addWake(fd int) error {
	if p.q.ring != nil {
		return p.ringAddWake(fd)
	}
	return p.epollAddWake(fd)
}

func (p *Poller) canRecv() bool { return p.q.ring != nil && p.q.ring.bufs != nil }

func (p *Poller) recvLimit() int {
	if !p.canRecv() || !p.q.ring.recvLim {
		return 0
	}
	return recvLimit + recvBufSize // the kernel subtracts each read from the limit after it
}

func (p *Poller) recvStart(fd int, tag uint32) error {
	if !p.canRecv() {
		return errBackend(BackendIOURing, nil)
	}
	return p.q.ring.recvStart(fd, tag)
}

func (p *Poller) recvStop(fd int) error {
	if !p.canRecv() {
		return errBackend(BackendIOURing, nil)
	}
	return p.q.ring.recvStop(fd)
}

func (p *Poller) recvForget(fd int) (bool, error) {
	if !p.canRecv() {
		return false, errBackend(BackendIOURing, nil)
	}
	return p.q.ring.recvForget(fd)
}

func (p *Poller) recvBuf(bid uint16, n int) []byte { return p.q.ring.bufs.Buf(bid, n) }

func (p *Poller) rebind() error {
	if p.q.ring == nil {
		return nil
	}
	return p.ringRebind()
}

func (p *Poller) unbind() {
	if p.q.ring != nil {
		p.ringUnbind()
	}
}

// openRingIfWhole opens the io_uring backend for BackendAuto and keeps it when the kernel has
// everything that makes it worth it: multishot receives and accepts, and sends. Otherwise
// (or when the ring does not open at all) it leaves p as it found it and reports false.
func (p *Poller) openRingIfWhole() bool {
	if p.ringOpen() != nil {
		return false
	}
	if p.canRecv() && p.canAccept() && p.canSend() {
		return true
	}
	p.ringRelease()
	p.q, p.w, p.kind = queueState{}, wakeState{}, 0
	return false
}
