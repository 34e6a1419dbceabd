//go:build linux

package fswatch

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Watcher is one inotify instance watching one path.
type Watcher struct {
	fd   int
	wd   int
	base string
	buf  [eventBufferSize]byte
}

const inotifyMask = unix.IN_ATTRIB | unix.IN_CREATE | unix.IN_MODIFY | unix.IN_DELETE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_MOVED_FROM | unix.IN_MOVED_TO

// New starts watching path.
func New(path string) (*Watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, errno(err)
	}
	var wd int
	for {
		wd, err = unix.InotifyAddWatch(fd, path, inotifyMask)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		unix.Close(fd)
		return nil, errno(err)
	}
	return &Watcher{fd: fd, wd: wd, base: basename(path)}, nil
}

// Fd is the descriptor to poll for readability.
func (w *Watcher) Fd() int { return w.fd }

// Read calls fn for each event the kernel has, until none is left. Names passed to fn are
// fresh strings.
func (w *Watcher) Read(fn func(name string, events int)) error {
	for {
		n, err := unix.Read(w.fd, w.buf[:])
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
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			nameLen := int(ev.Len)
			end := off + unix.SizeofInotifyEvent + nameLen
			if end > n {
				break
			}
			if ev.Mask&unix.IN_IGNORED == 0 && ev.Mask&unix.IN_Q_OVERFLOW == 0 {
				events := 0
				if ev.Mask&(unix.IN_ATTRIB|unix.IN_MODIFY) != 0 {
					events |= Change
				}
				if ev.Mask&^(unix.IN_ATTRIB|unix.IN_MODIFY) != 0 {
					events |= Rename
				}
				name := w.base
				if nameLen > 0 {
					raw := w.buf[off+unix.SizeofInotifyEvent : end]
					l := 0
					for l < len(raw) && raw[l] != 0 {
						l++
					}
					name = string(raw[:l])
				}
				fn(name, events)
			}
			off = end
		}
	}
}

// Close stops watching and releases the descriptor.
func (w *Watcher) Close() error { return errno(unix.Close(w.fd)) }

func errno(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return err
}
