//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package fswatch

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Watcher is a kqueue of its own with one EVFILT_VNODE filter on the watched path's
// descriptor; the kqueue's descriptor is what the loop polls (a kqueue is readable while it
// holds events).
type Watcher struct {
	kq, fd int
	base   string
	events [8]unix.Kevent_t
}

const vnodeFflags = unix.NOTE_ATTRIB | unix.NOTE_WRITE | unix.NOTE_RENAME | unix.NOTE_DELETE |
	unix.NOTE_EXTEND | unix.NOTE_REVOKE

// New starts watching path.
func New(path string) (*Watcher, error) {
	fd, err := openEvtonly(path)
	if err != nil {
		return nil, errno(err)
	}
	kq, err := unix.Kqueue()
	if err != nil {
		unix.Close(fd)
		return nil, errno(err)
	}
	unix.CloseOnExec(kq)
	var ch [1]unix.Kevent_t
	unix.SetKevent(&ch[0], fd, unix.EVFILT_VNODE, unix.EV_ADD|unix.EV_CLEAR)
	ch[0].Fflags = vnodeFflags
	for {
		_, err = unix.Kevent(kq, ch[:], nil, nil)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(kq)
		unix.Close(fd)
		return nil, errno(err)
	}
	return &Watcher{kq: kq, fd: fd, base: basename(path)}, nil
}

// Fd is the descriptor to poll for readability.
func (w *Watcher) Fd() int { return w.kq }

// Read calls fn for each event the kqueue holds, until none is left.
func (w *Watcher) Read(fn func(name string, events int)) error {
	var zero unix.Timespec
	for {
		n, err := unix.Kevent(w.kq, nil, w.events[:], &zero)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return errno(err)
		}
		for i := 0; i < n; i++ {
			ff := w.events[i].Fflags
			events := 0
			if ff&(unix.NOTE_ATTRIB|unix.NOTE_EXTEND) != 0 {
				events |= Change
			}
			if ff&^uint32(unix.NOTE_ATTRIB|unix.NOTE_EXTEND) != 0 {
				events |= Rename
			}
			if events != 0 {
				fn(w.base, events)
			}
		}
		if n < len(w.events) {
			return nil
		}
	}
}

// Close stops watching and releases both descriptors.
func (w *Watcher) Close() error {
	err := unix.Close(w.kq)
	if cerr := unix.Close(w.fd); err == nil {
		err = cerr
	}
	return errno(err)
}

func errno(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return err
}
