package nodeevents

import (
	"errors"
	"io"
	"reflect"
	"testing"
	"time"

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

func runLoop(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
}

func closeLoop(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	runLoop(t, l)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOnceResolvesAndCleansUp(t *testing.T) {
	l := newLoop(t)
	var e EventEmitter
	p := Once(l, &e, "x", nil)
	if e.ListenerCount("x") != 1 || e.ListenerCount("error") != 1 {
		t.Fatalf("listeners %d %d", e.ListenerCount("x"), e.ListenerCount("error"))
	}
	e.Emit("x", 1, "two")
	runLoop(t, l)
	if v, err := p.Result(); err != nil || !reflect.DeepEqual(v, []any{1, "two"}) {
		t.Fatalf("Result %v %v", v, err)
	}
	if len(e.EventNames()) != 0 {
		t.Fatalf("left %v", e.EventNames())
	}
	closeLoop(t, l)
}

func TestOnceRejects(t *testing.T) {
	tests := []struct {
		name  string
		start func(l *uvloop.Loop, e *EventEmitter) *promise.Promise[[]any]
		want  func(error) bool
	}{
		{"error event", func(l *uvloop.Loop, e *EventEmitter) *promise.Promise[[]any] {
			p := Once(l, e, "x", nil)
			e.Emit("error", io.EOF)
			return p
		}, func(err error) bool { return err == io.EOF }},
		{"abort later", func(l *uvloop.Loop, e *EventEmitter) *promise.Promise[[]any] {
			ac := NewAbortController()
			p := Once(l, e, "x", &Options{Signal: ac.Signal()})
			ac.Abort(io.ErrClosedPipe)
			return p
		}, func(err error) bool {
			var ae *AbortError
			return errors.As(err, &ae) && errors.Is(err, io.ErrClosedPipe) && ae.Code() == "ABORT_ERR"
		}},
		{"aborted already", func(l *uvloop.Loop, e *EventEmitter) *promise.Promise[[]any] {
			return Once(l, e, "x", &Options{Signal: AbortSignalAbort()})
		}, func(err error) bool {
			var de *DOMException
			return errors.As(err, &de) && de.Name == "AbortError" && de.Code == 20
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLoop(t)
			var e EventEmitter
			p := tt.start(l, &e)
			p.Catch(func(error) ([]any, error) { return nil, nil })
			runLoop(t, l)
			if err := p.Err(); !tt.want(err) {
				t.Fatalf("rejected with %v", err)
			}
			if len(e.EventNames()) != 0 {
				t.Fatalf("left %v", e.EventNames())
			}
			closeLoop(t, l)
		})
	}
}

func TestOnIterator(t *testing.T) {
	l := newLoop(t)
	var e EventEmitter
	it := On(l, &e, "x", nil)
	e.Emit("x", 1)
	e.Emit("x", 2)
	var got []any
	next := func() {
		promise.Then(it.Next(), func(r IterResult[[]any]) (int, error) {
			if r.Done {
				got = append(got, "done")
			} else {
				got = append(got, r.Value...)
			}
			return 0, nil
		}, nil)
	}
	next()
	next()
	next() // waits for the third event
	runLoop(t, l)
	e.Emit("x", 3)
	next() // waits, then is Done by Return
	runLoop(t, l)
	it.Return()
	next()
	runLoop(t, l)
	if want := []any{1, 2, 3, "done", "done"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if len(e.EventNames()) != 0 {
		t.Fatalf("left %v", e.EventNames())
	}
	closeLoop(t, l)
}

func TestOnErrorThenDone(t *testing.T) {
	l := newLoop(t)
	var e EventEmitter
	it := On(l, &e, "x", nil)
	e.Emit("error", io.EOF)
	p1, p2 := it.Next(), it.Next()
	p1.Catch(func(error) (IterResult[[]any], error) { return IterResult[[]any]{}, nil })
	runLoop(t, l)
	if p1.Err() != io.EOF {
		t.Fatalf("first Next: %v", p1.Err())
	}
	if r, err := p2.Result(); err != nil || !r.Done {
		t.Fatalf("second Next: %v %v", r, err)
	}
	closeLoop(t, l)
}

func TestAbortSignal(t *testing.T) {
	ac := NewAbortController()
	s := ac.Signal()
	if s.Aborted() || s.Reason() != nil || s.Err() != nil {
		t.Fatal("a new signal is aborted")
	}
	calls := 0
	stop := s.Watch(func(error) { calls++ })
	stopped := s.Watch(func(error) { t.Error("a stopped watcher ran") })
	if !stopped() {
		t.Fatal("stop did not detach")
	}
	ac.Abort()
	ac.Abort(io.EOF) // ignored
	if calls != 1 || !s.Aborted() || stop() {
		t.Fatalf("calls %d aborted %v", calls, s.Aborted())
	}
	if de, ok := s.Reason().(*DOMException); !ok || de.Message != "This operation was aborted" {
		t.Fatalf("reason %#v", s.Reason())
	}
	if s.Watch(func(error) { t.Error("watch on an aborted signal ran") })() {
		t.Fatal("stop of a watch on an aborted signal reported true")
	}
	var nilSignal *AbortSignal
	if nilSignal.Err() != nil || nilSignal.Watch(func(error) {})() {
		t.Fatal("a nil signal acts aborted")
	}
	func() {
		defer func() {
			if r := recover(); r != s.Reason() {
				t.Fatalf("ThrowIfAborted panicked with %v", r)
			}
		}()
		s.ThrowIfAborted()
	}()
}

func TestAbortSignalAnyAndTimeout(t *testing.T) {
	l := newLoop(t)
	a, b := NewAbortController(), NewAbortController()
	anyS := AbortSignalAny(a.Signal(), nil, b.Signal())
	b.Abort(io.EOF)
	a.Abort(io.ErrUnexpectedEOF)
	if anyS.Reason() != io.EOF || a.Signal().ListenerCount("abort") != 0 {
		t.Fatalf("any reason %v, listeners left %d", anyS.Reason(), a.Signal().ListenerCount("abort"))
	}
	if pre := AbortSignalAny(NewAbortController().Signal(), AbortSignalAbort(io.EOF)); pre.Reason() != io.EOF {
		t.Fatalf("any of an aborted signal: %v", pre.Reason())
	}
	ts := AbortSignalTimeout(l, time.Millisecond)
	runLoop(t, l) // unref'd: the loop does not wait for it
	if ts.Aborted() {
		t.Fatal("the timeout fired without anything keeping the loop alive")
	}
	l.SetTimeout(func() {}, 5*time.Millisecond)
	runLoop(t, l)
	if de, ok := ts.Reason().(*DOMException); !ok || de.Name != "TimeoutError" || de.Code != 23 {
		t.Fatalf("reason %#v", ts.Reason())
	}
	closeLoop(t, l)
}
