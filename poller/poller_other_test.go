//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd

package poller_test

import (
	"testing"

	"github.com/uvgo/uvgo/poller"
)

func TestNewUnsupported(t *testing.T) {
	if p, err := poller.New(); p != nil || err != poller.ErrUnsupported {
		t.Fatalf("New() = %v, %v; want nil, ErrUnsupported", p, err)
	}
}
