//go:build darwin || freebsd || netbsd || openbsd

package poller

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/queue"
)

var _ backend = (*Poller)(nil)

// The kqueue backend keeps its kevent arrays in pointer-free memory (queueState.buf) and
// reaches them through []unix.Kevent_t views. The kernel writes a registration's udata back
// verbatim, and udata carries a tag, an integer; in x/sys, Udata is a *byte on most systems,
// so an array allocated as []unix.Kevent_t would show the garbage collector integers in
// pointer slots. Udata is therefore only ever written and read as a uintptr (setUdata,
// udata), never as a pointer, and a view element is never copied or assigned as a whole.

// keventWords is the size of one unix.Kevent_t in uint64 words, rounded up.
const keventWords = (unsafe.Sizeof(unix.Kevent_t{}) + 7) / 8

// Compile-time checks: Udata is exactly pointer-sized, and uint64 storage is aligned enough
// for a unix.Kevent_t.
var (
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(unix.Kevent_t{}.Udata)]struct{}
	_ [unsafe.Sizeof(unix.Kevent_t{}.Udata) - unsafe.Sizeof(uintptr(0))]struct{}
	_ [unsafe.Alignof(uint64(0)) - unsafe.Alignof(unix.Kevent_t{})]struct{}
)

// maxChanges is the most changes one Add, Modify or Remove makes: one per filter.
const maxChanges = 2

// queueState is the kqueue backend's state; loop goroutine only, except that Wake reads kq
// under wakeMu.
type queueState struct {
	kq      int
	buf     [(maxEvents + maxChanges) * keventWords]uint64 // backing store of events and changes
	events  []unix.Kevent_t                                // kevent's output: view of buf's first maxEvents
	changes []unix.Kevent_t                                // the change list: view of buf's last maxChanges
	ts      unix.Timespec                                  // wait's timeout, here so that it does not escape
	waits   uint32                                         // counts waits, to merge one fd's filters (kqSeen.wait)
	seen    queue.Table[kqSeen]                            // indexed by fd: where the last wait that reported it put it
}

// kqSeen is where a wait reported an fd, so that its read and write filters make one Event.
// It is kqueue's alone, not in fdState, which the other backends keep as small as they can.
type kqSeen struct {
	wait uint32 // the value of queueState.waits when a Wait last reported fd
	slot int32  // where in out that Wait reported fd
}

// Registration errors, boxed once.
var (
	errBadFd    = os.NewSyscallError("kevent", unix.EBADF)
	errOwnFd    = os.NewSyscallError("kevent", unix.EINVAL)
	errAdded    = os.NewSyscallError("kevent", unix.EEXIST)
	errNotAdded = os.NewSyscallError("kevent", unix.ENOENT)
)

// setUdata stores v in kev's udata as an integer.
func setUdata(kev *unix.Kevent_t, v uint32) {
	*(*uintptr)(unsafe.Pointer(&kev.Udata)) = uintptr(v)
}

// udata returns the integer in kev's udata.
func udata(kev *unix.Kevent_t) uint32 {
	return uint32(*(*uintptr)(unsafe.Pointer(&kev.Udata)))
}

func (p *Poller) open(b Backend) error {
	if b != BackendAuto && b != BackendKqueue {
		return errBackend(b, nil)
	}
	p.kind = BackendKqueue
	all := unsafe.Slice((*unix.Kevent_t)(unsafe.Pointer(&p.q.buf[0])), maxEvents+maxChanges)
	p.q.events = all[:maxEvents:maxEvents]
	p.q.changes = all[maxEvents:]
	kq, err := unix.Kqueue()
	if err != nil {
		return os.NewSyscallError("kqueue", err)
	}
	unix.CloseOnExec(kq)
	p.q.kq = kq
	if err := p.openWake(); err != nil {
		unix.Close(kq)
		return err
	}
	return nil
}

// change fills change slot k and returns k+1.
func (p *Poller) change(k, ident, filter, flags int, tag uint32) int {
	clear(p.q.buf[(maxEvents+k)*int(keventWords) : (maxEvents+k+1)*int(keventWords)])
	kev := &p.q.changes[k]
	unix.SetKevent(kev, ident, filter, flags)
	setUdata(kev, tag)
	return k + 1
}

// apply submits the first k changes. With no room for output, kevent reports the first
// failing change as its error and does not apply the ones after it.
func (p *Poller) apply(k int) error {
	if k == 0 {
		return nil
	}
	if _, err := unix.Kevent(p.q.kq, p.q.changes[:k], nil, nil); err != nil {
		return os.NewSyscallError("kevent", err)
	}
	return nil
}

// filters pairs the interest bits with their filters.
var filters = [...]struct {
	bit    Events
	filter int
}{{Readable, unix.EVFILT_READ}, {Writable, unix.EVFILT_WRITE}}

func (p *Poller) register(fd int, ev Events, tag uint32) error {
	if ev == 0 {
		// Nothing to tell the kernel, but refuse an fd that is not open, as epoll does.
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
			return os.NewSyscallError("fcntl", err)
		}
		return nil
	}
	k := 0
	for _, f := range filters {
		if ev&f.bit != 0 {
			k = p.change(k, fd, f.filter, unix.EV_ADD, tag)
		}
	}
	err := p.apply(k)
	if err != nil && k > 1 {
		// The first filter may have been added: take it back so the kernel holds nothing.
		p.apply(p.change(0, fd, filters[0].filter, unix.EV_DELETE, 0))
	}
	return err
}

// update turns the change of interest into EV_ADD and EV_DELETE of the filters that change.
// A filter that stays is added again when the tag changes, which replaces its udata.
func (p *Poller) update(fd int, ev Events, tag uint32) error {
	st := p.fds.Load(fd)
	k := 0
	for _, f := range filters {
		had, want := st.interest&f.bit != 0, ev&f.bit != 0
		switch {
		case want && (!had || tag != st.tag):
			k = p.change(k, fd, f.filter, unix.EV_ADD, tag)
		case had && !want:
			k = p.change(k, fd, f.filter, unix.EV_DELETE, 0)
		}
	}
	return p.apply(k)
}

func (p *Poller) unregister(fd int) error {
	k := 0
	for _, f := range filters {
		if p.fds.Load(fd).interest&f.bit != 0 {
			k = p.change(k, fd, f.filter, unix.EV_DELETE, 0)
		}
	}
	return p.apply(k)
}

func (p *Poller) wait(msec int) (int, bool, error) {
	var ts *unix.Timespec
	if msec >= 0 {
		p.q.ts = unix.NsecToTimespec(int64(msec) * 1e6)
		ts = &p.q.ts
	}
	n, err := unix.Kevent(p.q.kq, nil, p.q.events, ts)
	if err != nil {
		if err == unix.EINTR {
			return 0, false, ErrInterrupted
		}
		return 0, false, os.NewSyscallError("kevent", err)
	}
	p.q.waits++
	k, woke := 0, false
	for i := range n {
		kev := &p.q.events[i]
		if p.isWakeEvent(kev) {
			p.consumeWake()
			woke = true
			continue
		}
		var ev Events
		switch kev.Filter {
		case unix.EVFILT_READ:
			ev = Readable
		case unix.EVFILT_WRITE:
			ev = Writable
		}
		if kev.Flags&unix.EV_EOF != 0 {
			ev |= Hangup
			if kev.Fflags != 0 {
				ev |= Error // the socket's pending error
			}
		}
		if kev.Flags&unix.EV_ERROR != 0 {
			ev |= Error
		}
		fd := int(kev.Ident)
		if p.fds.Get(fd) != nil {
			// Merge the read and the write filter of one fd into one Event.
			st := p.q.seen.At(fd)
			if st.wait == p.q.waits && int(st.slot) < k && p.out[st.slot].Fd == int32(fd) {
				p.out[st.slot].Events |= ev
				continue
			}
			st.wait, st.slot = p.q.waits, int32(k)
		}
		p.out[k] = Event{Fd: int32(fd), Tag: udata(kev), Events: ev}
		k++
	}
	return k, woke, nil
}

func (p *Poller) owns(fd int) bool { return fd == p.q.kq || p.wakeOwns(fd) }

func (p *Poller) release() error {
	err := p.closeWake()
	if e := unix.Close(p.q.kq); e != nil && err == nil {
		err = os.NewSyscallError("close", e)
	}
	p.q.kq = -1
	return err
}
