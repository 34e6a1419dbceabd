// Package fswatch is the file-watching floor under uvloop's FSEvent handle: a Set is one
// pollable kernel instance (an inotify instance on Linux, a kqueue with EVFILT_VNODE filters
// on darwin and the BSDs) holding any number of watches; it becomes readable when a watched
// file or directory changes, and Read then drains what happened without blocking. A loop
// keeps one Set for all its FSEvent handles, as libuv keeps one inotify descriptor per loop.
//
// Add returns a watch descriptor (wd) that Read's events carry. On Linux, watching the same
// file twice (by any path) gives the same wd, as inotify_add_watch does; the caller fans
// the events out to everyone watching it. Elsewhere every Add is a watch of its own.
//
// Events are libuv's two kinds: Rename (an entry appeared, disappeared or was renamed, or
// the watched path itself was deleted or moved) and Change (contents or attributes
// changed). On Linux a watched directory reports its entries by name; elsewhere, and for a
// watched file, the name is the base name of the path the watch was added with (the first
// one, for a shared wd).
//
// Failures are bare syscall.Errno values (errors.ErrUnsupported on systems without an
// implementation). EINTR is retried inside. A Set belongs to one goroutine. Imports nothing
// of this module.
package fswatch

// The kinds of event, libuv's UV_RENAME and UV_CHANGE.
const (
	Rename = 1
	Change = 2
)

// eventBufferSize is how many bytes of events one Read takes from the kernel at most.
const eventBufferSize = 4096

// basename is the last element of p, as libuv's uv__basename_r.
func basename(p string) string {
	for len(p) > 1 && p[len(p)-1] == '/' {
		p = p[:len(p)-1]
	}
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
