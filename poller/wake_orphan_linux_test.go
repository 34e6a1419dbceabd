package poller

import (
	"runtime"
	"testing"
	"time"
)

// TestRingWakeOrphanedCount: on the io_uring backend a Wake whose completion has not
// been posted yet is taken by tryConsumeWake (the wake-up's poll was armed by another
// thread, where the loop's goroutine ran before). That poll's completion still comes, later,
// with POLLIN. If it is reaped while a second Wake is between its compare-and-swap (pending
// set) and its write, ringReap's consumeWake drains nothing and clears pending; the second
// Wake's write then lands in the eventfd with nothing pending. From then on every wait arms
// the wake-up's poll, which completes at once (the eventfd stays readable: ringReap does not
// drain it without a pending Wake), and Wait spins inside until the next Wake: a loop asleep
// with nothing to do burns a CPU. Counted here in submissions (each spin re-arms the poll),
// not in time. (Epoll drains the eventfd whenever it reports it, so it cannot get stuck.)
// Reaped, the stale completion must not be taken for the second Wake's: that Wake stays
// pending, and the next Wait reports it once its write lands.
func TestRingWakeOrphanedCount(t *testing.T) {
	if err := Available(BackendIOURing); err != nil {
		t.Skipf("io_uring refused here: %v", err)
	}
	p, err := OpenWith(BackendIOURing, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	rs := p.q.ring
	release := make(chan struct{})
	defer close(release)
	// armElsewhere arms the wake-up's poll from a thread of its own, which then sleeps.
	armElsewhere := func() {
		done := make(chan struct{})
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if _, _, err := p.Wait(0); err != nil {
				t.Error(err)
			}
			close(done)
			<-release
		}()
		<-done
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	took := false
	for try := 0; try < 200 && !took; try++ {
		armElsewhere()
		if !rs.wakeArmed {
			t.Fatal("the wake-up's poll is not armed after a wait")
		}
		// Wake A, and a look from this thread before the other thread posted its completion.
		if err := p.Wake(); err != nil {
			t.Fatal(err)
		}
		_, woke, err := p.Wait(0)
		if err != nil {
			t.Fatal(err)
		}
		if !woke {
			t.Fatal("Wait(0) after Wake did not report woke")
		}
		took = rs.wakeArmed // tryConsumeWake took it: the poll's completion is still to come
		if !took {
			continue
		}
		// Wake B's compare-and-swap; its write comes after the stale completion is reaped.
		if !p.wake.CompareAndSwap(wakeOpen, wakeOpen|wakePending) {
			t.Fatal("wake state not idle")
		}
		reaped := false
		for i := 0; i < 1000 && !reaped; i++ {
			if _, woke, err := p.Wait(0); err != nil {
				t.Fatal(err)
			} else if woke || !rs.wakeArmed {
				reaped = true // the stale completion (woke: taken as Wake B's)
			}
			if !reaped {
				time.Sleep(time.Millisecond)
			}
		}
		if !reaped {
			t.Fatal("the stale completion never came")
		}
		if err := p.wakeup(); err != nil { // Wake B's write
			t.Fatal(err)
		}
	}
	if !took {
		t.Skip("could not make tryConsumeWake take a Wake in 200 tries")
	}
	// Wake B is reported once: by the stale completion taken as its own, or by its write.
	// Then nothing is pending, and no Wake comes: a wait of 30 ms is one or two kernel waits.
	before := rs.r.Submits()
	_, woke, err := p.Wait(30 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if woke { // Wake B's write
		before = rs.r.Submits()
		if _, woke, err = p.Wait(30 * time.Millisecond); err != nil {
			t.Fatal(err)
		} else if woke {
			t.Error("Wake B reported twice")
		}
	}
	if n := rs.r.Submits() - before; n > 3 {
		t.Errorf("one Wait(30ms) with nothing to report made %d submissions (the wake-up's poll re-armed and completing at once: a spin)", n)
	}
}
