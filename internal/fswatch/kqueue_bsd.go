//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package fswatch

import (
	"slices"
	"syscall"

	"golang.org/x/sys/unix"
)

// Set is one kqueue; each watch is an EVFILT_VNODE filter on a descriptor of the watched
// path, and that descriptor is its wd. The kqueue's descriptor is what the loop polls (a
// kqueue is readable while it holds events).
type Set struct {
	kq     int            // -1 once closed
	bases  map[int]string // wd -> the base name of the watched path
	events [8]unix.Kevent_t
	// fresh are the wds Add made while Read dispatches a batch of events: an fd number
	// reused that soon, so the batch's events for it are an older watch's.
	fresh       []int
	dispatching bool
}

const vnodeFflags = unix.NOTE_ATTRIB | unix.NOTE_WRITE | unix.NOTE_RENAME | unix.NOTE_DELETE |
	unix.NOTE_EXTEND | unix.NOTE_REVOKE

// NewSet makes a kqueue, close-on-exec.
func NewSet() (*Set, error) {
	kq, err := unix.Kqueue()
	if err != nil {
		return nil, errno(err)
	}
	unix.CloseOnExec(kq)
	return &Set{kq: kq, bases: make(map[int]string)}, nil
}

// Fd is the descriptor to poll for readability, -1 once the Set is closed.
func (s *Set) Fd() int { return s.kq }

// Add starts watching path; every call is a watch of its own.
func (s *Set) Add(path string) (int, error) {
	fd, err := openEvtonly(path)
	if err != nil {
		return -1, errno(err)
	}
	var ch [1]unix.Kevent_t
	unix.SetKevent(&ch[0], fd, unix.EVFILT_VNODE, unix.EV_ADD|unix.EV_CLEAR)
	ch[0].Fflags = vnodeFflags
	for {
		_, err = unix.Kevent(s.kq, ch[:], nil, nil)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(fd)
		return -1, errno(err)
	}
	s.bases[fd] = basename(path)
	if s.dispatching {
		s.fresh = append(s.fresh, fd)
	}
	return fd, nil
}

// Remove stops the watch wd: closing its descriptor removes its filter.
func (s *Set) Remove(wd int) error {
	if _, ok := s.bases[wd]; !ok {
		return nil
	}
	delete(s.bases, wd)
	return errno(unix.Close(wd))
}

// Read calls fn for each event the kqueue holds, until none is left. fn may Close the Set:
// Read then returns at once, polling its descriptor no more (its number may be another
// file's already). Events of a watch removed by fn are not reported, also when a watch fn
// adds takes its number.
func (s *Set) Read(fn func(wd int, name string, events int)) error {
	var zero unix.Timespec
	defer func() { s.dispatching, s.fresh = false, s.fresh[:0] }()
	for s.kq >= 0 {
		n, err := unix.Kevent(s.kq, nil, s.events[:], &zero)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return errno(err)
		}
		s.dispatching, s.fresh = true, s.fresh[:0]
		for i := 0; i < n; i++ {
			wd := int(s.events[i].Ident)
			base, ok := s.bases[wd]
			if !ok || slices.Contains(s.fresh, wd) {
				continue
			}
			ff := s.events[i].Fflags
			events := 0
			if ff&(unix.NOTE_ATTRIB|unix.NOTE_EXTEND) != 0 {
				events |= Change
			}
			if ff&^uint32(unix.NOTE_ATTRIB|unix.NOTE_EXTEND) != 0 {
				events |= Rename
			}
			if events != 0 {
				fn(wd, base, events)
				if s.kq < 0 {
					return nil // fn closed the Set
				}
			}
		}
		if n < len(s.events) {
			return nil
		}
	}
	return nil
}

// Close releases the kqueue and the descriptors of all its watches. Closing a closed Set
// does nothing.
func (s *Set) Close() error {
	if s.kq < 0 {
		return nil
	}
	err := unix.Close(s.kq)
	s.kq = -1
	for wd := range s.bases {
		unix.Close(wd)
	}
	s.bases = nil
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
