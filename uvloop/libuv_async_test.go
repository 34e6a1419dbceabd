package uvloop_test

import (
	"errors"
	"runtime"
	"sync"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Port of libuv's test/test-async.c.

// TestAsync ports libuv's "async": a goroutine started from the first prepare callback sends
// an Async handle over and over until its callback has run three times; the third call closes
// the Async and the prepare handle, which ends the run. libuv's thread may send to a handle the
// loop has just closed; uvgo's Send then returns ErrClosed, which the goroutine accepts.
func TestAsync(t *testing.T) {
	l := newLoop(t)
	var (
		mu         sync.Mutex
		asyncCalls int // guarded by mu
		wg         sync.WaitGroup
		prepare    *uvloop.Prepare
		async      *uvloop.Async
	)
	prepareCalls, closes := 0, 0

	sender := func() {
		defer wg.Done()
		for {
			mu.Lock()
			n := asyncCalls
			mu.Unlock()
			if n == 3 {
				return
			}
			if err := async.Send(); err != nil && !errors.Is(err, uvloop.ErrClosed) {
				t.Errorf("Send: %v", err)
				return
			}
			runtime.Gosched()
		}
	}
	async = l.NewAsync(func(h *uvloop.Async) {
		if h != async {
			t.Error("async callback got another handle")
		}
		mu.Lock()
		asyncCalls++
		n := asyncCalls
		mu.Unlock()
		if n == 3 {
			closeHandle(t, async, &closes)
			closeHandle(t, prepare, &closes)
		}
	})
	prepare = l.NewPrepare(func(h *uvloop.Prepare) {
		if h != prepare {
			t.Error("prepare callback got another handle")
		}
		if prepareCalls++; prepareCalls == 1 {
			wg.Add(1)
			go sender()
		}
	})
	mustOK(t, prepare.Start())
	if !async.IsActive() {
		t.Error("a new Async is not active")
	}

	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after both handles were closed")
	}
	wg.Wait()
	if prepareCalls == 0 || asyncCalls != 3 || closes != 2 {
		t.Errorf("prepare %d calls, async %d calls, %d close callbacks; want > 0, 3, 2",
			prepareCalls, asyncCalls, closes)
	}
	if err := async.Send(); !errors.Is(err, uvloop.ErrClosed) {
		t.Errorf("Send on a closed Async: %v, want ErrClosed", err)
	}
	closeLoop(t, l)
}

// TestAsyncNullCb ports libuv's "async_null_cb": an Async without a callback may be sent from
// another goroutine; the send only wakes the loop, whose check callback then closes both
// handles.
func TestAsyncNullCb(t *testing.T) {
	l := newLoop(t)
	async := l.NewAsync(nil)
	checkCalls := 0
	check := l.NewCheck(func(h *uvloop.Check) {
		if checkCalls != 0 {
			t.Error("check ran again after closing")
		}
		mustOK(t, async.Close(nil))
		mustOK(t, h.Close(nil))
		checkCalls++
	})
	mustOK(t, check.Start())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := async.Send(); err != nil {
			t.Errorf("Send: %v", err)
		}
	}()
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after both handles were closed")
	}
	wg.Wait()
	if checkCalls != 1 {
		t.Errorf("check called %d times, want 1", checkCalls)
	}
	closeLoop(t, l)
}

// TestAsyncCloseDuringScan has no libuv counterpart; it is queue_foreach_delete for Async
// handles. Four handles are sent; the callbacks close handles behind and ahead of the scan
// position, and themselves. Closed handles are not called, the others are called once each.
func TestAsyncCloseDuringScan(t *testing.T) {
	l := newLoop(t)
	var hs [4]*uvloop.Async
	calls := [4]int{}
	hs[0] = l.NewAsync(func(*uvloop.Async) {
		calls[0]++
		mustOK(t, hs[2].Close(nil)) // ahead of the scan
	})
	hs[1] = l.NewAsync(func(h *uvloop.Async) {
		calls[1]++
		mustOK(t, hs[0].Close(nil)) // behind the scan
		mustOK(t, h.Close(nil))     // itself
	})
	hs[2] = l.NewAsync(func(*uvloop.Async) { calls[2]++ })
	hs[3] = l.NewAsync(func(h *uvloop.Async) {
		calls[3]++
		mustOK(t, h.Close(nil))
	})
	for _, h := range hs {
		mustOK(t, h.Send())
	}
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after every Async was closed")
	}
	if calls != [4]int{1, 1, 0, 1} {
		t.Errorf("calls per handle %v, want [1 1 0 1]", calls)
	}
	closeLoop(t, l)
}
