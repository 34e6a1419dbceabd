package nodetimers_test

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodetimers"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

func newLoop(t *testing.T) *uvloop.Loop {
	t.Helper()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func run(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
}

func closeLoop(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	run(t, l)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func isAbort(err, cause error) bool {
	var ae *nodeevents.AbortError
	return errors.As(err, &ae) && errors.Is(err, cause)
}

func TestSetTimeoutAndImmediate(t *testing.T) {
	l := newLoop(t)
	var order []string
	record := func(p *promise.Promise[string]) {
		promise.Then(p, func(v string) (int, error) { order = append(order, v); return 0, nil }, nil)
	}
	// 50 ms, not less: the immediate comes first only if the loop's first timers phase is
	// earlier than the timeout, which a loaded machine can delay by milliseconds.
	record(nodetimers.SetTimeout(l, 50*time.Millisecond, "timeout", nil))
	record(nodetimers.SetImmediate(l, "immediate", nil))
	unref := nodetimers.SetTimeout(l, time.Hour, "never", &nodetimers.Options{Unref: true})
	run(t, l)
	if len(order) != 2 || order[0] != "immediate" || order[1] != "timeout" {
		t.Fatalf("order %v", order)
	}
	if unref.State() != promise.Pending {
		t.Fatal("the unref'd timeout settled")
	}
	closeLoop(t, l)
}

func TestAbort(t *testing.T) {
	l := newLoop(t)
	ac := nodeevents.NewAbortController()
	opts := &nodetimers.Options{Signal: ac.Signal()}
	p1 := nodetimers.SetTimeout(l, time.Hour, 1, opts) // cleared by the abort: the loop ends
	p2 := nodetimers.SetImmediate(l, 2, opts)
	it := nodetimers.SetInterval(l, time.Hour, 3, opts)
	n := it.Next()
	for _, p := range []*promise.Promise[int]{p1, p2} {
		p.Catch(func(error) (int, error) { return 0, nil })
	}
	n.Catch(func(error) (nodeevents.IterResult[int], error) { return nodeevents.IterResult[int]{}, nil })
	ac.Abort(io.EOF)
	run(t, l)
	for i, err := range []error{p1.Err(), p2.Err(), n.Err()} {
		if !isAbort(err, io.EOF) {
			t.Errorf("promise %d: %v", i+1, err)
		}
	}
	if r, err := it.Next().Result(); err != nil || !r.Done {
		t.Errorf("Next after the abort: %v %v", r, err)
	}
	pre := nodetimers.SetTimeout(l, time.Millisecond, 0, opts)
	pre.Catch(func(error) (int, error) { return 0, nil })
	iv := nodetimers.SetInterval(l, time.Millisecond, 0, opts)
	ivNext := iv.Next()
	ivNext.Catch(func(error) (nodeevents.IterResult[int], error) { return nodeevents.IterResult[int]{}, nil })
	run(t, l)
	if !isAbort(pre.Err(), io.EOF) || !isAbort(ivNext.Err(), io.EOF) {
		t.Errorf("aborted already: %v, %v", pre.Err(), ivNext.Err())
	}
	closeLoop(t, l)
}

func TestIntervalCountsRuns(t *testing.T) {
	l := newLoop(t)
	it := nodetimers.SetInterval(l, time.Millisecond, "v", nil)
	var got []string
	promise.Async(l, func() (int, error) {
		for v, err := range it.All() {
			if err != nil {
				return 0, err
			}
			got = append(got, v)
			if len(got) == 3 {
				break
			}
		}
		return 0, nil
	})
	run(t, l) // the break cleared the interval, so the loop ends
	if len(got) != 3 {
		t.Fatalf("got %v", got)
	}
	if r, _ := it.Next().Result(); !r.Done {
		t.Fatal("Next after the break is not Done")
	}
	closeLoop(t, l)
}
