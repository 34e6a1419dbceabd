//go:build linux || darwin || freebsd || netbsd || openbsd

package poller_test

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// testFds tracks the descriptors a test opens and closes those still open at cleanup.
type testFds struct {
	t    *testing.T
	open map[int]bool
}

func newFds(t *testing.T) *testFds {
	f := &testFds{t: t, open: make(map[int]bool)}
	t.Cleanup(func() {
		for fd := range f.open {
			unix.Close(fd)
		}
	})
	return f
}

func (f *testFds) pipe() (r, w int) {
	f.t.Helper()
	var p [2]int
	if err := pipe2(p[:]); err != nil {
		f.t.Fatalf("pipe2: %v", err)
	}
	f.open[p[0]], f.open[p[1]] = true, true
	return p[0], p[1]
}

func (f *testFds) socketpair() (a, b int) {
	f.t.Helper()
	p, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		f.t.Fatalf("socketpair: %v", err)
	}
	f.open[p[0]], f.open[p[1]] = true, true
	for _, fd := range p {
		unix.CloseOnExec(fd)
		if err := unix.SetNonblock(fd, true); err != nil {
			f.t.Fatalf("set non-blocking: %v", err)
		}
	}
	return p[0], p[1]
}

func (f *testFds) close(fd int) {
	f.t.Helper()
	delete(f.open, fd)
	if err := unix.Close(fd); err != nil {
		f.t.Fatalf("close(%d): %v", fd, err)
	}
}

func (f *testFds) write(fd int, s string) {
	f.t.Helper()
	if _, err := unix.Write(fd, []byte(s)); err != nil {
		f.t.Fatalf("write(%d): %v", fd, err)
	}
}

func newPoller(t *testing.T) *poller.Poller {
	t.Helper()
	if threadBound {
		runtime.LockOSThread() // for the rest of the test: its goroutine ends locked, and the thread with it
	}
	p, err := poller.OpenWith(backend, poller.Options{ThreadBound: threadBound})
	if err != nil {
		t.Fatalf("Open(%v): %v", backend, err)
	}
	if want := backend; want != poller.BackendAuto && p.Backend() != want {
		t.Fatalf("Open(%v) opened %v", want, p.Backend())
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil && err != poller.ErrClosed {
			t.Errorf("Close: %v", err)
		}
	})
	return p
}

// wait calls p.Wait, again if a signal interrupted it, and returns a copy of the events.
func wait(t *testing.T, p *poller.Poller, timeout time.Duration) (events []poller.Event, woke bool) {
	t.Helper()
	for {
		evs, woke, err := p.Wait(timeout)
		if err == poller.ErrInterrupted {
			continue // the runtime's own signals (preemption, profiling) interrupt waits too
		}
		if err != nil {
			t.Fatalf("Wait(%v): %v", timeout, err)
		}
		return append([]poller.Event(nil), evs...), woke
	}
}

// soon is the timeout of a Wait that expects something to be ready already; it only bounds
// how long a broken test hangs.
const soon = 10 * time.Second

// wantOne waits and checks that the only report is want.
func wantOne(t *testing.T, p *poller.Poller, want poller.Event) {
	t.Helper()
	evs, woke := wait(t, p, soon)
	if len(evs) != 1 || evs[0] != want || woke {
		t.Fatalf("Wait = %+v, woke=%v; want [%+v], woke=false", evs, woke, want)
	}
}

// wantNone polls and checks that nothing is reported.
func wantNone(t *testing.T, p *poller.Poller) {
	t.Helper()
	if evs, woke := wait(t, p, 0); len(evs) != 0 || woke {
		t.Fatalf("Wait(0) = %+v, woke=%v; want nothing", evs, woke)
	}
}

// pair opens a connected pair of descriptors: data written to w is read from r.
type pair struct {
	name string
	open func(f *testFds) (r, w int)
}

var pairs = []pair{
	{name: "pipe", open: (*testFds).pipe},
	{name: "socketpair", open: (*testFds).socketpair},
}

func TestReadableAfterWrite(t *testing.T) {
	for _, pp := range pairs {
		t.Run(pp.name, func(t *testing.T) {
			f, p := newFds(t), newPoller(t)
			r, w := pp.open(f)
			if err := p.Add(r, poller.Readable, 11); err != nil {
				t.Fatal(err)
			}
			wantNone(t, p)
			f.write(w, "x")
			wantOne(t, p, poller.Event{Fd: int32(r), Tag: 11, Events: poller.Readable})
			// Level-triggered: still readable until read.
			wantOne(t, p, poller.Event{Fd: int32(r), Tag: 11, Events: poller.Readable})
			var buf [8]byte
			if _, err := unix.Read(r, buf[:]); err != nil {
				t.Fatal(err)
			}
			wantNone(t, p)
		})
	}
}

func TestWritableAtOnce(t *testing.T) {
	for _, pp := range pairs {
		t.Run(pp.name, func(t *testing.T) {
			f, p := newFds(t), newPoller(t)
			_, w := pp.open(f)
			if err := p.Add(w, poller.Writable, 5); err != nil {
				t.Fatal(err)
			}
			wantOne(t, p, poller.Event{Fd: int32(w), Tag: 5, Events: poller.Writable})
		})
	}
}

func TestHangup(t *testing.T) {
	for _, pp := range pairs {
		t.Run(pp.name, func(t *testing.T) {
			f, p := newFds(t), newPoller(t)
			r, w := pp.open(f)
			if err := p.Add(r, poller.Readable, 3); err != nil {
				t.Fatal(err)
			}
			wantNone(t, p)
			f.close(w)
			// Readable comes with Hangup, so a read callback sees the EOF.
			wantOne(t, p, poller.Event{Fd: int32(r), Tag: 3, Events: poller.Readable | poller.Hangup})
		})
	}
}

func TestPipeReaderClosed(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	r, w := f.pipe()
	if err := p.Add(w, poller.Writable, 4); err != nil {
		t.Fatal(err)
	}
	f.close(r)
	want := poller.Writable | poller.Hangup // kqueue: EV_EOF on EVFILT_WRITE
	if runtime.GOOS == "linux" {
		want = poller.Writable | poller.Error // epoll: EPOLLERR
	}
	wantOne(t, p, poller.Event{Fd: int32(w), Tag: 4, Events: want})
}

func TestModify(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	a, b := f.socketpair()
	if err := p.Add(a, poller.Readable, 1); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)

	steps := []struct {
		name   string
		ev     poller.Events
		tag    uint32
		before func()
		want   poller.Events // 0: nothing reported
	}{
		{name: "to writable", ev: poller.Writable, tag: 2, want: poller.Writable},
		{name: "same again", ev: poller.Writable, tag: 2, want: poller.Writable},
		{name: "tag only", ev: poller.Writable, tag: 3, want: poller.Writable},
		{name: "both", ev: poller.Readable | poller.Writable, tag: 4, before: func() { f.write(b, "x") }, want: poller.Readable | poller.Writable},
		{name: "no interest", ev: 0, tag: 5},
		{name: "no interest, peer gone", ev: 0, tag: 6, before: func() { f.close(b) }},
		{name: "readable again", ev: poller.Readable, tag: 7, want: poller.Readable | poller.Hangup},
		{name: "hangup bits ignored", ev: poller.Hangup | poller.Error, tag: 8},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		if err := p.Modify(a, s.ev, s.tag); err != nil {
			t.Fatalf("%s: Modify: %v", s.name, err)
		}
		evs, woke := wait(t, p, 0)
		switch {
		case s.want == 0 && (len(evs) != 0 || woke):
			t.Fatalf("%s: Wait(0) = %+v, woke=%v; want nothing", s.name, evs, woke)
		case s.want != 0 && (len(evs) != 1 || evs[0] != poller.Event{Fd: int32(a), Tag: s.tag, Events: s.want}):
			t.Fatalf("%s: Wait(0) = %+v; want one event %v with tag %d", s.name, evs, s.want, s.tag)
		}
	}
}

func TestAddNoInterest(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	a, b := f.socketpair()
	if err := p.Add(a, 0, 1); err != nil {
		t.Fatal(err)
	}
	f.write(b, "x")
	f.close(b)
	wantNone(t, p)
	if err := p.Modify(a, poller.Readable, 2); err != nil {
		t.Fatal(err)
	}
	wantOne(t, p, poller.Event{Fd: int32(a), Tag: 2, Events: poller.Readable | poller.Hangup})
	if err := p.Remove(a); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveThenClose(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	a, b := f.socketpair()
	if err := p.Add(a, poller.Readable|poller.Writable, 1); err != nil {
		t.Fatal(err)
	}
	f.write(b, "x")
	if err := p.Remove(a); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)
	f.close(a)
	f.close(b)
	wantNone(t, p)

	// A new descriptor, likely with the same number, is reported with its own tag.
	r, w := f.pipe()
	if err := p.Add(r, poller.Readable, 2); err != nil {
		t.Fatal(err)
	}
	f.write(w, "y")
	wantOne(t, p, poller.Event{Fd: int32(r), Tag: 2, Events: poller.Readable})
}

func TestOneEventPerFd(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	a, b := f.socketpair()
	if err := p.Add(a, poller.Readable|poller.Writable, 9); err != nil {
		t.Fatal(err)
	}
	f.write(b, "x")
	wantOne(t, p, poller.Event{Fd: int32(a), Tag: 9, Events: poller.Readable | poller.Writable})
}

func TestManyFds(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	want := make(map[int32]uint32)
	for i := range 50 {
		r, w := f.pipe()
		if err := p.Add(r, poller.Readable, uint32(1000+i)); err != nil {
			t.Fatal(err)
		}
		if err := p.Add(w, poller.Writable, uint32(2000+i)); err != nil {
			t.Fatal(err)
		}
		f.write(w, "x")
		want[int32(r)], want[int32(w)] = uint32(1000+i), uint32(2000+i)
	}
	evs, _ := wait(t, p, soon)
	if len(evs) != len(want) {
		t.Fatalf("Wait reported %d events, want %d", len(evs), len(want))
	}
	for _, ev := range evs {
		tag, ok := want[ev.Fd]
		if !ok || ev.Tag != tag {
			t.Fatalf("unexpected %+v (want tag %d)", ev, tag)
		}
		delete(want, ev.Fd)
	}
}

func TestHighFd(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	r, w := f.pipe()
	hi, err := unix.FcntlInt(uintptr(r), unix.F_DUPFD_CLOEXEC, 3000)
	if err != nil {
		t.Skipf("cannot get a descriptor above 3000: %v", err)
	}
	f.open[hi] = true
	if err := p.Add(hi, poller.Readable, 77); err != nil {
		t.Fatal(err)
	}
	f.write(w, "x")
	wantOne(t, p, poller.Event{Fd: int32(hi), Tag: 77, Events: poller.Readable})
	if err := p.Remove(hi); err != nil {
		t.Fatal(err)
	}
}

func TestRegistrationErrors(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	r, w := f.pipe()
	closed, _ := f.pipe()
	f.close(closed)
	if err := p.Add(r, poller.Readable, 1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{name: "add closed fd", call: func() error { return p.Add(closed, poller.Readable, 0) }, want: unix.EBADF},
		{name: "add closed fd, no interest", call: func() error { return p.Add(closed, 0, 0) }, want: unix.EBADF},
		{name: "add negative fd", call: func() error { return p.Add(-1, poller.Readable, 0) }, want: unix.EBADF},
		{name: "add twice", call: func() error { return p.Add(r, poller.Writable, 2) }, want: unix.EEXIST},
		{name: "modify unknown", call: func() error { return p.Modify(w, poller.Writable, 0) }, want: unix.ENOENT},
		{name: "modify negative", call: func() error { return p.Modify(-5, poller.Writable, 0) }, want: unix.ENOENT},
		{name: "remove unknown", call: func() error { return p.Remove(w) }, want: unix.ENOENT},
		{name: "remove beyond table", call: func() error { return p.Remove(1 << 20) }, want: unix.ENOENT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want one wrapping %v", err, tt.want)
			}
		})
	}
	// The failed calls changed nothing.
	f.write(w, "x")
	wantOne(t, p, poller.Event{Fd: int32(r), Tag: 1, Events: poller.Readable})
	if err := p.Remove(r); err != nil {
		t.Fatal(err)
	}
	if err := p.Remove(r); !errors.Is(err, unix.ENOENT) {
		t.Fatalf("second Remove: %v, want ENOENT", err)
	}
}

func TestWaitZero(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	wantNone(t, p)
	r, _ := f.pipe()
	if err := p.Add(r, poller.Readable, 1); err != nil {
		t.Fatal(err)
	}
	wantNone(t, p)
}

func TestWaitTimeout(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		atLeast time.Duration
	}{
		{name: "30ms", timeout: 30 * time.Millisecond, atLeast: 30 * time.Millisecond},
		{name: "1500us rounds up", timeout: 1500 * time.Microsecond, atLeast: 2 * time.Millisecond},
		{name: "1ns rounds up", timeout: time.Nanosecond, atLeast: time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, p := newFds(t), newPoller(t)
			r, _ := f.pipe()
			if err := p.Add(r, poller.Readable, 1); err != nil {
				t.Fatal(err)
			}
			for attempt := 0; ; attempt++ {
				start := time.Now()
				evs, woke, err := p.Wait(tt.timeout)
				took := time.Since(start)
				if err == poller.ErrInterrupted && attempt < 10 {
					continue // a signal cut this one short: measure again
				}
				if err != nil {
					t.Fatalf("Wait(%v): %v", tt.timeout, err)
				}
				if took < tt.atLeast {
					t.Errorf("Wait(%v) returned after %v, want at least %v", tt.timeout, took, tt.atLeast)
				}
				if len(evs) != 0 || woke {
					t.Errorf("Wait(%v) = %+v, woke=%v; want nothing", tt.timeout, evs, woke)
				}
				break
			}
		})
	}
}

func TestWakeEndsBlockingWait(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	r, _ := f.pipe()
	if err := p.Add(r, poller.Readable, 1); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond)
		if err := p.Wake(); err != nil {
			t.Errorf("Wake: %v", err)
		}
	}()
	evs, woke := wait(t, p, -1)
	wg.Wait()
	if len(evs) != 0 || !woke {
		t.Fatalf("Wait(-1) = %+v, woke=%v; want no events, woke=true", evs, woke)
	}
	wantNone(t, p)
}

func TestWakeEndsTimedWait(t *testing.T) {
	p := newPoller(t)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond)
		p.Wake()
	}()
	_, woke := wait(t, p, time.Hour)
	wg.Wait()
	if !woke {
		t.Fatal("Wait(1h) returned without woke")
	}
}

func TestWakeCoalescesAndRearms(t *testing.T) {
	p := newPoller(t)
	for range 1000 {
		if err := p.Wake(); err != nil {
			t.Fatal(err)
		}
	}
	if _, woke := wait(t, p, 0); !woke {
		t.Fatal("Wait after 1000 Wakes: woke=false")
	}
	wantNone(t, p) // the 1000 Wakes were one wake-up
	for i := range 3 {
		if err := p.Wake(); err != nil {
			t.Fatal(err)
		}
		if _, woke := wait(t, p, soon); !woke {
			t.Fatalf("round %d: Wake after a woken Wait did not wake the next one", i)
		}
	}
	wantNone(t, p)
}

func TestWakeFromManyGoroutines(t *testing.T) {
	// What a loop relies on: a goroutine posts, then wakes; when a Wait reports woke, the loop
	// sees every post made before the Wake calls that this wake-up stands for. No post may be
	// left behind without a wake-up to come.
	const goroutines, posts = 8, 1000
	p := newPoller(t)
	var posted atomic.Int64
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range posts {
				posted.Add(1)
				if err := p.Wake(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	var seen int64
	for range 200 {
		if _, woke := wait(t, p, 0); woke {
			seen = posted.Load()
		}
	}
	wg.Wait()
	if _, woke := wait(t, p, 0); woke {
		seen = posted.Load()
	}
	if seen != goroutines*posts {
		t.Fatalf("the last woke Wait saw %d posts of %d: a wake-up was lost", seen, goroutines*posts)
	}
	wantNone(t, p)
}

func TestClose(t *testing.T) {
	f := newFds(t)
	r, _ := f.pipe()
	p, err := poller.Open(backend)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Add(r, poller.Readable, 1); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	calls := []struct {
		name string
		call func() error
	}{
		{name: "Close", call: p.Close},
		{name: "Wake", call: p.Wake},
		{name: "Add", call: func() error { return p.Add(r, poller.Readable, 1) }},
		{name: "Modify", call: func() error { return p.Modify(r, poller.Writable, 1) }},
		{name: "Remove", call: func() error { return p.Remove(r) }},
		{name: "Wait", call: func() error { _, _, err := p.Wait(0); return err }},
	}
	for _, c := range calls {
		if err := c.call(); err != poller.ErrClosed {
			t.Errorf("%s after Close: %v, want ErrClosed", c.name, err)
		}
	}
}

func TestWakeConcurrentWithClose(t *testing.T) {
	for range 50 {
		p, err := poller.Open(backend)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					switch err := p.Wake(); err {
					case nil:
					case poller.ErrClosed:
						return
					default:
						t.Errorf("Wake: %v", err)
						return
					}
				}
			}()
		}
		for range 20 {
			wait(t, p, 0)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		// Descriptors opened now likely reuse the poller's numbers: Wake must not touch them.
		f := newFds(t)
		r, w := f.pipe()
		wg.Wait()
		var buf [8]byte
		if n, err := unix.Read(r, buf[:]); err != unix.EAGAIN {
			t.Fatalf("a descriptor opened after Close was written to: read = %d, %v", n, err)
		}
		f.close(r)
		f.close(w)
	}
}

func TestAllocs(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	r, w := f.pipe()
	if err := p.Add(r, poller.Readable, 1); err != nil {
		t.Fatal(err)
	}
	f.write(w, "x")
	tests := []struct {
		name string
		fn   func()
	}{
		{name: "Wait(0)", fn: func() {
			if evs, _, err := p.Wait(0); err != nil || len(evs) != 1 {
				panic("Wait(0) did not report the ready pipe")
			}
		}},
		{name: "Wait(1ms)", fn: func() {
			if evs, _, err := p.Wait(time.Millisecond); err != nil || len(evs) != 1 {
				panic("Wait(1ms) did not report the ready pipe")
			}
		}},
		{name: "Wake+Wait(0)", fn: func() {
			if err := p.Wake(); err != nil {
				panic(err)
			}
			if _, woke, err := p.Wait(0); err != nil || !woke {
				panic("Wait(0) after Wake did not report woke")
			}
		}},
		{name: "coalesced Wake", fn: func() {
			if err := p.Wake(); err != nil {
				panic(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(200, tt.fn); n != 0 {
				t.Errorf("%s allocates %v times per call, want 0", tt.name, n)
			}
		})
	}
}

func TestWakePending(t *testing.T) {
	p := newPoller(t)
	if p.WakePending() {
		t.Fatal("WakePending before any Wake")
	}
	p.Wake()
	if !p.WakePending() {
		t.Fatal("no WakePending after Wake")
	}
	if _, woke := wait(t, p, 0); !woke {
		t.Fatal("woke=false after Wake")
	}
	if p.WakePending() {
		t.Fatal("WakePending after the Wait that reported woke")
	}
}
