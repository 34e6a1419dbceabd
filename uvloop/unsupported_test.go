package uvloop_test

import (
	"errors"
	"runtime"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// TestNewUnsupported pins New on a system without a backend: an error wrapping
// errors.ErrUnsupported, and no loop.
func TestNewUnsupported(t *testing.T) {
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "netbsd", "openbsd":
		t.Skip("this system has a backend")
	}
	l, err := uvloop.New()
	if l != nil || !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("New() = %v, %v; want nil and an error wrapping errors.ErrUnsupported", l, err)
	}
}
