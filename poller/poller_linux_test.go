package poller_test

import (
	"bytes"
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

// recvAll waits until the received events for fd add up to want bytes (or the end of the
// stream, with want ""), and returns what they carried.
func recvAll(t *testing.T, p *poller.Poller, fd int, tag uint32, want string) (got string, end bool) {
	t.Helper()
	for len(got) < len(want) || want == "" && !end {
		evs, _, err := p.Wait(soon)
		if err == poller.ErrInterrupted {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 {
			t.Fatalf("nothing received within %v; have %q", soon, got)
		}
		for i := range evs {
			ev := &evs[i]
			if !ev.Received() || ev.Fd != int32(fd) || ev.Tag != tag || ev.Events != 0 {
				t.Fatalf("event %+v, want a received event for fd %d, tag %d", *ev, fd, tag)
			}
			data, err := p.RecvData(ev)
			if err != nil {
				t.Fatalf("received error %v", err)
			}
			if data == nil {
				end = true
			}
			got += string(data)
		}
	}
	return got, end
}

func TestRecv(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanRecv() {
		if err := p.RecvStart(0, 0); err == nil {
			t.Fatal("RecvStart succeeded where CanRecv is false")
		}
		t.Skipf("the %v backend does not read for its caller", p.Backend())
	}
	a, b := f.socketpair()
	if err := p.RecvStart(a, 5); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)
	f.write(b, "hello")
	if got, _ := recvAll(t, p, a, 5, "hello"); got != "hello" {
		t.Fatalf("received %q, want hello", got)
	}
	// Stopped, the receive may still report what it read; started again, nothing is lost.
	if err := p.RecvStop(a); err != nil {
		t.Fatal(err)
	}
	f.write(b, "more")
	got := ""
	if evs, _ := wait(t, p, 0); len(evs) > 0 {
		for i := range evs {
			data, _ := p.RecvData(&evs[i])
			got += string(data)
		}
	}
	if err := p.RecvStart(a, 6); err != nil {
		t.Fatal(err)
	}
	if got != "more" {
		rest, _ := recvAll(t, p, a, 6, "more"[len(got):])
		got += rest
	}
	if got != "more" {
		t.Fatalf("after RecvStop and RecvStart: %q, want more", got)
	}
	x := []byte("x")
	if n := testing.AllocsPerRun(100, func() {
		if _, err := unix.Write(b, x); err != nil {
			panic(err)
		}
		for {
			evs, _, err := p.Wait(soon)
			if err == poller.ErrInterrupted {
				continue
			}
			if err != nil || len(evs) != 1 {
				panic("no receive")
			}
			if data, err := p.RecvData(&evs[0]); err != nil || len(data) != 1 {
				panic("not the byte written")
			}
			return
		}
	}); n != 0 {
		t.Errorf("a write and its receive allocate %v times, want 0", n)
	}
	f.close(b)
	if got, end := recvAll(t, p, a, 6, ""); got != "" || !end {
		t.Fatalf("after the peer closed: %q, end=%v; want the end", got, end)
	}
	if err := p.RecvForget(a); err != nil {
		t.Fatal(err)
	}
	f.close(a)
	wantNone(t, p)
}

// A receive stopped and started again before its cancellation completed has a restart
// queued; RecvForget (the fd is about to be closed) drops it, so no receive is armed on the
// closed fd (it would report EBADF, or read a reused fd's bytes under the old tag).
func TestRecvForgetQueuedRestart(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanRecv() {
		t.Skipf("the %v backend does not read for its caller", p.Backend())
	}
	a, _ := f.socketpair()
	if err := p.RecvStart(a, 7); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)
	if err := p.RecvStop(a); err != nil {
		t.Fatal(err)
	}
	if err := p.RecvStart(a, 7); err != nil { // the cancelled receive is restarted after it ends
		t.Fatal(err)
	}
	wait(t, p, 50*time.Millisecond)
	if err := p.RecvForget(a); err != nil {
		t.Fatal(err)
	}
	f.close(a)
	if evs, _ := wait(t, p, 50*time.Millisecond); len(evs) > 0 {
		t.Fatalf("events after RecvForget and close: %+v", evs)
	}
}

// TestRecvLimit: where the kernel ends a multishot receive after a number of bytes,
// RecvLimit says how many, and a stream many limits long arrives whole and in order across
// the receives that Wait arms again; on a kernel without the limit (MissRecvLimit) RecvLimit
// is 0 and the same stream arrives the same.
func TestRecvLimit(t *testing.T) {
	for _, missing := range []bool{false, true} {
		name := "limit"
		if missing {
			name = "none"
		}
		t.Run(name, func(t *testing.T) {
			if missing {
				defer poller.MissRecvLimit()()
			}
			f, p := newFds(t), newPoller(t)
			if !p.CanRecv() {
				if p.RecvLimit() != 0 {
					t.Errorf("RecvLimit %d without RecvStart", p.RecvLimit())
				}
				t.Skipf("the %v backend does not read for its caller", p.Backend())
			}
			lim := p.RecvLimit()
			switch {
			case missing && lim != 0:
				t.Fatalf("RecvLimit %d on a kernel without the limit", lim)
			case !missing && lim == 0:
				t.Logf("this kernel takes no byte limit for a multishot receive (newer kernels do)")
			}
			a, b := f.socketpair()
			if err := p.RecvStart(a, 7); err != nil {
				t.Fatal(err)
			}
			msg := make([]byte, 4*256<<10+12345)
			for i := range msg {
				msg[i] = byte(i*7 + i>>12)
			}
			werr := make(chan error, 1)
			go func() {
				for off := 0; off < len(msg); {
					n, err := unix.Write(b, msg[off:])
					if err == unix.EAGAIN {
						time.Sleep(time.Millisecond)
						continue
					}
					if err != nil {
						werr <- err
						return
					}
					off += n
				}
				werr <- nil
			}()
			var got []byte
			for len(got) < len(msg) {
				evs, _, err := p.Wait(soon)
				if err == poller.ErrInterrupted {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(evs) == 0 {
					t.Fatalf("nothing received within %v; have %d bytes of %d", soon, len(got), len(msg))
				}
				for i := range evs {
					data, err := p.RecvData(&evs[i])
					if err != nil || data == nil {
						t.Fatalf("received %d bytes, then error %v (end %v)", len(got), err, data == nil)
					}
					got = append(got, data...)
				}
			}
			if err := <-werr; err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, msg) {
				t.Fatalf("received %d bytes, not the %d written (or not in order)", len(got), len(msg))
			}
		})
	}
}

// TestRecvLimitBounds: one receive gets 1 byte, then 5000, then a flood, then RecvStop;
// everything reported is that receive's (none is armed after the stop), and its total stays
// within RecvLimit, the limit and one buffer (the kernel checks the limit after each read,
// so a read that starts under it may end over it).
func TestRecvLimitBounds(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	if !p.CanRecv() || p.RecvLimit() == 0 {
		t.Skipf("the %v backend takes no receive limit here", p.Backend())
	}
	a, b := f.socketpair()
	unix.SetsockoptInt(b, unix.SOL_SOCKET, unix.SO_SNDBUF, 4<<20)
	if err := p.RecvStart(a, 7); err != nil {
		t.Fatal(err)
	}
	total := 0
	drain := func(d time.Duration) {
		for {
			evs, _, err := p.Wait(d)
			if err == poller.ErrInterrupted {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) == 0 {
				return
			}
			for i := range evs {
				data, err := p.RecvData(&evs[i])
				if err != nil || data == nil {
					t.Fatalf("err %v", err)
				}
				total += len(data)
			}
			d = 50 * time.Millisecond
		}
	}
	unix.Write(b, []byte{1})
	drain(soon)
	unix.Write(b, make([]byte, 5000))
	time.Sleep(20 * time.Millisecond)
	big := make([]byte, 600<<10)
	for off := 0; off < len(big); {
		n, err := unix.Write(b, big[off:])
		if err == unix.EAGAIN {
			time.Sleep(time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		off += n
		if off > 400<<10 {
			break
		}
	}
	time.Sleep(50 * time.Millisecond)
	p.RecvStop(a)
	drain(200 * time.Millisecond)
	t.Logf("one receive read %d bytes; RecvLimit %d", total, p.RecvLimit())
	if total > p.RecvLimit() {
		t.Errorf("one receive read %d bytes > RecvLimit %d", total, p.RecvLimit())
	}
}
