// Package fswatch is the file-watching floor under uvloop's FSEvent handle: a Watcher owns
// one pollable descriptor (an inotify instance on Linux, a kqueue with an EVFILT_VNODE filter
// on darwin and the BSDs) that becomes readable when the watched file or directory changes;
// Read then drains what happened without blocking.
//
// Events are libuv's two kinds: Rename (an entry appeared, disappeared or was renamed, or
// the watched path itself was deleted or moved) and Change (contents or attributes
// changed). On Linux a watched directory reports its entries by name; elsewhere, and for a
// watched file, the name is the watched path's base name.
//
// Failures are bare syscall.Errno values (errors.ErrUnsupported on systems without an
// implementation). EINTR is retried inside. Imports nothing of this module.
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
