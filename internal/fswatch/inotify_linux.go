//go:build linux

package fswatch

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Set is one inotify instance; its watches are inotify watches.
type Set struct {
	fd    int            // -1 once closed
	bases map[int]string // wd -> the base name of the path it was first added with
	buf   [eventBufferSize]byte
}

const inotifyMask = unix.IN_ATTRIB | unix.IN_CREATE | unix.IN_MODIFY | unix.IN_DELETE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_MOVED_FROM | unix.IN_MOVED_TO

// NewSet makes an inotify instance, non-blocking and close-on-exec.
func NewSet() (*Set, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, errno(err)
	}
	return &Set{fd: fd, bases: make(map[int]string)}, nil
}

// Fd is the descriptor to poll for readability, -1 once the Set is closed.
func (s *Set) Fd() int { return s.fd }

// Add starts watching path and returns its watch descriptor: the same one for a file
// already watched.
func (s *Set) Add(path string) (int, error) {
	var wd int
	var err error
	for {
		wd, err = unix.InotifyAddWatch(s.fd, path, inotifyMask)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return -1, errno(err)
	}
	if _, ok := s.bases[wd]; !ok {
		s.bases[wd] = basename(path)
	}
	return wd, nil
}

// Remove stops the watch wd. A watch the kernel dropped already (its file was deleted) is
// not an error, nor is a Set closed already.
func (s *Set) Remove(wd int) error {
	delete(s.bases, wd)
	if s.fd < 0 {
		return nil
	}
	_, err := unix.InotifyRmWatch(s.fd, uint32(wd))
	if err == syscall.EINVAL {
		err = nil
	}
	return errno(err)
}

// Read calls fn for each event the kernel has, until none is left. Names passed to fn are
// fresh strings. Events of a watch removed since are not reported. fn may Close the Set:
// Read then returns at once, reading its descriptor no more (its number may be another
// file's already).
func (s *Set) Read(fn func(wd int, name string, events int)) error {
	for s.fd >= 0 {
		n, err := unix.Read(s.fd, s.buf[:])
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			return nil
		}
		if err != nil {
			return errno(err)
		}
		if n <= 0 {
			return nil
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&s.buf[off]))
			nameLen := int(ev.Len)
			end := off + unix.SizeofInotifyEvent + nameLen
			if end > n {
				break
			}
			off = end
			if ev.Mask&(unix.IN_IGNORED|unix.IN_Q_OVERFLOW) != 0 {
				continue
			}
			base, ok := s.bases[int(ev.Wd)]
			if !ok {
				continue
			}
			events := 0
			if ev.Mask&(unix.IN_ATTRIB|unix.IN_MODIFY) != 0 {
				events |= Change
			}
			if ev.Mask&^(unix.IN_ATTRIB|unix.IN_MODIFY) != 0 {
				events |= Rename
			}
			name := base
			if nameLen > 0 {
				raw := s.buf[end-nameLen : end]
				l := 0
				for l < len(raw) && raw[l] != 0 {
					l++
				}
				name = string(raw[:l])
			}
			fn(int(ev.Wd), name, events)
			if s.fd < 0 {
				return nil // fn closed the Set
			}
		}
	}
	return nil
}

// Close releases the instance and all its watches. Closing a closed Set does nothing.
func (s *Set) Close() error {
	fd := s.fd
	if fd < 0 {
		return nil
	}
	s.fd = -1
	return errno(unix.Close(fd))
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
