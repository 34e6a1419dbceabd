package poller_test

import (
	"encoding/binary"
	"errors"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

func TestWaitInterrupted(t *testing.T) {
	p := newPoller(t)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, unix.SIGUSR1)
	defer signal.Stop(sigs)

	// Lock this goroutine to its thread and signal that thread until Wait returns.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pid, tid := unix.Getpid(), unix.Gettid()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if err := unix.Tgkill(pid, tid, unix.SIGUSR1); err != nil {
				t.Errorf("tgkill: %v", err)
				return
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	evs, woke, err := p.Wait(soon)
	close(done)
	wg.Wait()
	if evs != nil || woke || err != poller.ErrInterrupted {
		t.Fatalf("Wait = %v, %v, %v; want nil, false, ErrInterrupted", evs, woke, err)
	}
	if !errors.Is(err, unix.EINTR) {
		t.Fatalf("%v does not wrap EINTR", err)
	}
}

func TestWakeWritesOnce(t *testing.T) {
	p := newPoller(t)
	for range 1000 {
		if err := p.Wake(); err != nil {
			t.Fatal(err)
		}
	}
	// Read the eventfd's counter behind the poller's back: one write, not 1000.
	fd := poller.WakeFD(p)
	var buf [8]byte
	if _, err := unix.Read(fd, buf[:]); err != nil {
		t.Fatal(err)
	}
	if n := binary.NativeEndian.Uint64(buf[:]); n != 1 {
		t.Fatalf("eventfd counter = %d, want 1", n)
	}
	// Put it back: the wake-up is still pending, and Wait must see it.
	if _, err := unix.Write(fd, buf[:]); err != nil {
		t.Fatal(err)
	}
	if _, woke := wait(t, p, 0); !woke {
		t.Fatal("woke=false")
	}
}

func TestAddOwnFd(t *testing.T) {
	p := newPoller(t)
	if err := p.Add(poller.WakeFD(p), poller.Readable, 0); !errors.Is(err, unix.EINVAL) {
		t.Fatalf("Add of the wake-up's eventfd: %v, want EINVAL", err)
	}
	if _, woke := wait(t, p, 0); woke {
		t.Fatal("woke=true without Wake")
	}
}

func TestAddRegularFileRefused(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "poller")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := newPoller(t)
	if err := p.Add(int(f.Fd()), poller.Readable, 0); !errors.Is(err, unix.EPERM) {
		t.Fatalf("Add of a regular file: %v, want EPERM (epoll cannot watch it, and the ring refuses it alike)", err)
	}
}
