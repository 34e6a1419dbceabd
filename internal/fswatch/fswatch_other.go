//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fswatch

import "errors"

// Watcher is not implemented on this system.
type Watcher struct{}

// New fails with errors.ErrUnsupported.
func New(path string) (*Watcher, error) { return nil, errors.ErrUnsupported }

// Fd is -1.
func (w *Watcher) Fd() int { return -1 }

// Read fails with errors.ErrUnsupported.
func (w *Watcher) Read(fn func(name string, events int)) error { return errors.ErrUnsupported }

// Close does nothing.
func (w *Watcher) Close() error { return nil }
