package uvloop_test

import (
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the parts of libuv's test/test-ref.c that are about the loop core's handles
// (timer, idle, prepare, check, async), with a poll handle standing in for the stream cases.

// closeAndRun is libuv's do_close: the close callback does not run inside Close, and runs once
// in the RunDefault that follows.
func closeAndRun(t *testing.T, h uvloop.Handle) {
	t.Helper()
	closes := 0
	closeHandle(t, h, &closes)
	mustRunMode(t, h.Loop(), uvloop.RunDefault)
	if closes != 1 {
		t.Errorf("%d close callbacks, want 1", closes)
	}
}

// TestRef ports libuv's "ref": RunDefault on a loop with nothing in it returns at once.
func TestRef(t *testing.T) {
	l := newLoop(t)
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("an empty loop is alive")
	}
	closeLoop(t, l)
}

// testUnrefd checks that an active handle that is unref'd does not keep the loop alive, so
// RunDefault returns without calling it; then closes it as libuv's do_close does.
func testUnrefd(t *testing.T, start func(t *testing.T, l *uvloop.Loop) uvloop.Handle) {
	l := newLoop(t)
	h := start(t, l)
	h.Unref()
	if h.HasRef() {
		t.Error("HasRef after Unref")
	}
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive with only an unref'd handle")
	}
	closeAndRun(t, h)
	closeLoop(t, l)
}

// TestIdleRef ports libuv's "idle_ref".
func TestIdleRef(t *testing.T) {
	testUnrefd(t, func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
		h := l.NewIdle(func(*uvloop.Idle) { t.Error("an unref'd idle handle ran") })
		mustOK(t, h.Start())
		return h
	})
}

// TestAsyncRef ports libuv's "async_ref".
func TestAsyncRef(t *testing.T) {
	testUnrefd(t, func(t *testing.T, l *uvloop.Loop) uvloop.Handle { return l.NewAsync(nil) })
}

// TestPrepareRef ports libuv's "prepare_ref".
func TestPrepareRef(t *testing.T) {
	testUnrefd(t, func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
		h := l.NewPrepare(func(*uvloop.Prepare) { t.Error("an unref'd prepare handle ran") })
		mustOK(t, h.Start())
		return h
	})
}

// TestCheckRef ports libuv's "check_ref".
func TestCheckRef(t *testing.T) {
	testUnrefd(t, func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
		h := l.NewCheck(func(*uvloop.Check) { t.Error("an unref'd check handle ran") })
		mustOK(t, h.Start())
		return h
	})
}

// TestTimerRef ports libuv's "timer_ref": an unref'd timer that was never started.
func TestTimerRef(t *testing.T) {
	testUnrefd(t, func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
		return l.NewTimer(func(*uvloop.Timer) { t.Error("an unstarted timer fired") })
	})
}

// TestTimerRef2 ports libuv's "timer_ref2": an unref'd repeating timer.
func TestTimerRef2(t *testing.T) {
	testUnrefd(t, func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
		h := l.NewTimer(func(*uvloop.Timer) { t.Error("an unref'd timer fired") })
		mustOK(t, h.Start(42*time.Millisecond, 42*time.Millisecond))
		return h
	})
}

// TestPollRef has no libuv counterpart: it is the poll handle's version of "tcp_ref2" and
// "udp_ref2", an unref'd handle watching a socket that is ready to write.
func TestPollRef(t *testing.T) {
	testUnrefd(t, func(t *testing.T, l *uvloop.Loop) uvloop.Handle {
		a, _ := newSocketpair(t)
		h, err := l.NewPoll(a, func(*uvloop.Poll, uvloop.Events, error) { t.Error("an unref'd poll handle ran") })
		mustOK(t, err)
		mustOK(t, h.Start(uvloop.Readable|uvloop.Writable))
		return h
	})
}

// TestUnrefInPrepareCb ports libuv's "unref_in_prepare_cb": a prepare handle that unrefs
// itself in its callback lets RunDefault end after that iteration.
func TestUnrefInPrepareCb(t *testing.T) {
	l := newLoop(t)
	calls := 0
	h := l.NewPrepare(func(h *uvloop.Prepare) {
		calls++
		h.Unref()
	})
	mustOK(t, h.Start())
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after the only handle unref'd itself")
	}
	if calls != 1 {
		t.Errorf("prepare called %d times, want 1", calls)
	}
	closeAndRun(t, h)
	closeLoop(t, l)
}

// TestHasRef ports libuv's "has_ref": Ref and Unref, each idempotent, show in HasRef; a new
// handle is ref'd.
func TestHasRef(t *testing.T) {
	l := newLoop(t)
	h := l.NewIdle(func(*uvloop.Idle) {})
	if !h.HasRef() {
		t.Error("a new handle is not ref'd")
	}
	h.Ref()
	h.Ref()
	if !h.HasRef() {
		t.Error("HasRef after Ref is false")
	}
	h.Unref()
	h.Unref()
	if h.HasRef() {
		t.Error("HasRef after Unref is true")
	}
	// Ref and Unref of an active handle change what keeps the loop alive, once each.
	mustOK(t, h.Start())
	if l.Alive() {
		t.Error("an active, unref'd handle keeps the loop alive")
	}
	h.Ref()
	h.Ref()
	if !l.Alive() {
		t.Error("an active, ref'd handle does not keep the loop alive")
	}
	h.Unref()
	if l.Alive() {
		t.Error("a second Ref was counted twice")
	}
	closeLoop(t, l)
}
