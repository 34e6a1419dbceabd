//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fswatch

import "errors"

// Set is not implemented on this system.
type Set struct{}

// NewSet fails with errors.ErrUnsupported.
func NewSet() (*Set, error) { return nil, errors.ErrUnsupported }

// Fd is -1.
func (s *Set) Fd() int { return -1 }

// Add fails with errors.ErrUnsupported.
func (s *Set) Add(path string) (int, error) { return -1, errors.ErrUnsupported }

// Remove does nothing.
func (s *Set) Remove(wd int) error { return nil }

// Read fails with errors.ErrUnsupported.
func (s *Set) Read(fn func(wd int, name string, events int)) error { return errors.ErrUnsupported }

// Close does nothing.
func (s *Set) Close() error { return nil }
