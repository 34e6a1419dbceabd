package ostest_test

import (
	"errors"
	"os"
	"runtime"
	"testing"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/internal/ostest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestKernelQueue(t *testing.T) {
	fd, err := ostest.KernelQueue()
	switch runtime.GOOS {
	case "linux", "darwin", "dragonfly", "freebsd", "netbsd", "openbsd":
		if err != nil {
			t.Fatalf("KernelQueue: %v", err)
		}
		if fd < 0 {
			t.Fatalf("KernelQueue returned fd %d", fd)
		}
		if err := os.NewFile(uintptr(fd), "kernel queue").Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	default:
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("KernelQueue: %v, want errors.ErrUnsupported", err)
		}
	}
}
