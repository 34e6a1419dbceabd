package uring_test

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/uring"
)

// setup creates a ring or skips the test when the kernel refuses io_uring here.
func setup(t testing.TB, entries, flags uint32) *uring.Ring {
	t.Helper()
	r, err := uring.Setup(entries, flags)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) {
			t.Skipf("io_uring refused here (ENOSYS/EPERM/EACCES: no kernel support, io_uring_disabled or seccomp): %v", err)
		}
		t.Fatalf("Setup: %v", err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return r
}

func nop(t testing.TB, r *uring.Ring, ud uint64) {
	t.Helper()
	sqe := r.GetSQE()
	if sqe == nil {
		if _, err := r.Submit(); err != nil {
			t.Fatalf("Submit: %v", err)
		}
		if sqe = r.GetSQE(); sqe == nil {
			t.Fatal("no SQE after a Submit")
		}
	}
	sqe.Opcode, sqe.UserData = uring.OpNop, ud
}

// reap returns the user data of every CQE ready now.
func reap(r *uring.Ring) []uint64 {
	var got []uint64
	for cqe := r.PeekCQE(); cqe != nil; cqe = r.PeekCQE() {
		got = append(got, cqe.UserData)
		r.AdvanceCQ()
	}
	return got
}

func TestNopRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		flags  uint32
		locked bool // the flags bind the ring to its thread
	}{
		{name: "plain"},
		{name: "coop taskrun", flags: uring.SetupCoopTaskrun | uring.SetupTaskrunFlag},
		{name: "single issuer, defer taskrun", flags: uring.SetupSingleIssuer | uring.SetupDeferTaskrun, locked: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.locked {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			r := setup(t, 8, tt.flags)
			t.Logf("accepted flags %#x, features %#x, %d SQEs, %d CQEs", r.Flags(), r.Features(), r.SQEntries(), r.CQEntries())
			for i := range 3 {
				nop(t, r, uint64(100+i))
			}
			if n, err := r.Enter(3, nil); err != nil || n != 3 {
				t.Fatalf("Enter = %d, %v; want 3, nil", n, err)
			}
			if got := reap(r); len(got) != 3 || got[0] != 100 || got[1] != 101 || got[2] != 102 {
				t.Fatalf("completions %v, want [100 101 102]", got)
			}
		})
	}
}

// TestCQEAt: CQEAt looks at the unread CQEs in order without reading them, across the
// ring's wrap, and gives nil past the last.
func TestCQEAt(t *testing.T) {
	r := setup(t, 4, 0)
	for round := range 3 { // 3 rounds of 3 in a ring of 8 CQEs: the third wraps
		for i := range 3 {
			nop(t, r, uint64(10*round+i))
		}
		if _, err := r.Enter(3, nil); err != nil {
			t.Fatalf("Enter: %v", err)
		}
		for i := range uint32(3) {
			if c := r.CQEAt(i); c == nil || c.UserData != uint64(10*round)+uint64(i) {
				t.Fatalf("round %d: CQEAt(%d) = %v, want user data %d", round, i, c, 10*round+int(i))
			}
		}
		if c := r.CQEAt(3); c != nil {
			t.Fatalf("round %d: CQEAt(3) = %+v, want nil", round, *c)
		}
		if r.Ready() != 3 {
			t.Fatalf("round %d: CQEAt read CQEs: %d ready", round, r.Ready())
		}
		if got := reap(r); len(got) != 3 || got[0] != uint64(10*round) {
			t.Fatalf("round %d: completions %v", round, got)
		}
	}
}

func TestProbe(t *testing.T) {
	r := setup(t, 4, 0)
	p, err := r.Probe()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []uint8{uring.OpNop, uring.OpPollAdd, uring.OpPollRemove} {
		if !p.Supports(op) {
			t.Errorf("opcode %d not supported", op)
		}
	}
	if p.Supports(255) {
		t.Error("opcode 255 supported")
	}
}

func TestPollAdd(t *testing.T) {
	r := setup(t, 4, 0)
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC|unix.O_NONBLOCK); err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	sqe := r.GetSQE()
	sqe.Opcode, sqe.Fd, sqe.OpFlags, sqe.UserData = uring.OpPollAdd, int32(fds[0]), unix.POLLIN, 7
	if _, err := r.Submit(); err != nil {
		t.Fatal(err)
	}
	if got := reap(r); len(got) != 0 {
		t.Fatalf("an empty pipe completed its poll: %v", got)
	}
	if _, err := unix.Write(fds[1], []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Enter(1, &uring.Timespec{Sec: 10}); err != nil {
		t.Fatal(err)
	}
	cqe := r.PeekCQE()
	if cqe == nil || cqe.UserData != 7 || cqe.Res&unix.POLLIN == 0 {
		t.Fatalf("CQE %+v, want user data 7 with POLLIN", cqe)
	}
	r.AdvanceCQ()
}

// TestTimeoutNotEarly checks the lower bound only: a timed wait with nothing to complete
// returns no sooner than its timeout.
func TestTimeoutNotEarly(t *testing.T) {
	r := setup(t, 4, 0)
	const d = 20 * time.Millisecond
	start := time.Now()
	n, err := r.Enter(1, &uring.Timespec{Nsec: int64(d)})
	if err != nil || n != 0 {
		t.Fatalf("Enter = %d, %v; want 0, nil", n, err)
	}
	if el := time.Since(start); el < d {
		t.Fatalf("the wait returned after %v, before its %v timeout", el, d)
	}
}

func TestSQFull(t *testing.T) {
	r := setup(t, 2, 0)
	for range r.SQEntries() {
		if r.GetSQE() == nil {
			t.Fatal("GetSQE = nil before the ring is full")
		}
	}
	if r.GetSQE() != nil {
		t.Fatal("GetSQE handed out more SQEs than the ring holds")
	}
	if r.Pending() != r.SQEntries() {
		t.Fatalf("Pending = %d, want %d", r.Pending(), r.SQEntries())
	}
	if _, err := r.Submit(); err != nil {
		t.Fatal(err)
	}
	if r.GetSQE() == nil {
		t.Fatal("GetSQE = nil after Submit")
	}
}

// FuzzRing drives a small ring (4 SQEs, 8 CQEs) with a random sequence of NOP queues,
// submissions, waits and reaps, more NOPs in flight than the completion ring holds included
// (the kernel keeps the overflow and hands it over in order), against a FIFO model: every
// NOP completes once, in submission order.
func FuzzRing(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 1, 2})
	f.Add([]byte{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 2})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		r := setup(t, 4, 0)
		var next, want uint64 // the next NOP's user data; the next completion expected
		check := func() {
			for _, ud := range reap(r) {
				if ud != want {
					t.Fatalf("completion %d, want %d", ud, want)
				}
				want++
			}
		}
		for _, op := range ops {
			switch op % 4 {
			case 0:
				nop(t, r, next)
				next++
			case 1:
				if _, err := r.Submit(); err != nil {
					t.Fatal(err)
				}
			case 2:
				check()
			case 3:
				if next > want {
					if _, err := r.Enter(1, nil); err != nil {
						t.Fatal(err)
					}
				}
				check()
			}
		}
		for want < next {
			if _, err := r.Enter(1, nil); err != nil {
				t.Fatal(err)
			}
			check()
		}
		if r.Pending() != 0 || r.Ready() != 0 {
			t.Fatalf("Pending %d, Ready %d after all completions", r.Pending(), r.Ready())
		}
	})
}

func TestRecvMultishotBufRing(t *testing.T) {
	r := setup(t, 8, 0)
	b, err := r.RegisterBufRing(1, 4, 8)
	if err != nil {
		t.Skipf("no provided buffer rings here: %v", err)
	}
	defer b.Close()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	sqe := r.GetSQE()
	sqe.Opcode, sqe.Fd, sqe.Flags, sqe.Ioprio, sqe.BufIndex, sqe.UserData =
		uring.OpRecv, int32(fds[0]), uring.SqeBufferSelect, uring.RecvMultishot, b.Group(), 9
	if _, err := r.Submit(); err != nil {
		t.Fatal(err)
	}
	var got []byte
	for i, msg := range []string{"hello", "world, longer than 8"} {
		if _, err := unix.Write(fds[1], []byte(msg)); err != nil {
			t.Fatal(err)
		}
		for want := len(got) + len(msg); len(got) < want; {
			if _, err := r.Enter(1, &uring.Timespec{Sec: 10}); err != nil {
				t.Fatal(err)
			}
			for cqe := r.PeekCQE(); cqe != nil; cqe = r.PeekCQE() {
				if cqe.UserData != 9 || cqe.Res <= 0 || cqe.Flags&uring.CQEFBuffer == 0 || cqe.Flags&uring.CQEFMore == 0 {
					t.Fatalf("message %d: CQE %+v", i, *cqe)
				}
				got = append(got, b.Buf(cqe.BufID(), int(cqe.Res))...)
				b.Recycle(cqe.BufID())
				r.AdvanceCQ()
			}
			b.Publish()
		}
	}
	if string(got) != "helloworld, longer than 8" {
		t.Fatalf("received %q", got)
	}
	sqe = r.GetSQE()
	sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpAsyncCancel, 9, 10
	if _, err := r.Submit(); err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]int32{}
	for len(seen) < 2 {
		if _, err := r.Enter(1, &uring.Timespec{Sec: 10}); err != nil {
			t.Fatal(err)
		}
		for cqe := r.PeekCQE(); cqe != nil; cqe = r.PeekCQE() {
			seen[cqe.UserData] = cqe.Res
			r.AdvanceCQ()
		}
	}
	if seen[9] != -int32(unix.ECANCELED) || seen[10] != 0 {
		t.Fatalf("after the cancel: %v", seen)
	}
}
