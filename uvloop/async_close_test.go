package uvloop_test

import (
	"errors"
	"testing"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// An Async body that calls the loop's Close gets ErrRunning, on every kind of loop, whether
// the body was started between runs or from a callback. (Close between runs unwound the
// bodies, the calling one among them: a WithLockOSThread loop's body waited for itself, a
// WithOwnThread loop's was abandoned, and a plain loop closed under the body.) A body started
// between runs may Run the loop (TestOwnRunInBodyBetweenRuns); one started from a callback
// gets ErrRunning, as the callback would. The loop stays usable, and closes cleanly after.
func TestAsyncBodyCannotCloseItsLoop(t *testing.T) {
	kinds := map[string][]uvloop.Option{
		"plain":      nil,
		"lockThread": {uvloop.WithLockOSThread()},
		"ownThread":  {uvloop.WithOwnThread()},
	}
	for name, opts := range kinds {
		for _, from := range []string{"between runs", "a callback"} {
			t.Run(name+"/"+from, func(t *testing.T) {
				l := newLoopWith(t, opts...)
				var closeErr, runErr, awaited error
				l.SetTimeout(func() {}, 1) // something for a Run in the body to do
				var resumed bool
				body := func() (int, error) {
					closeErr = l.Close()
					_, runErr = l.Run(uvloop.RunNoWait)
					_, awaited = promise.Await(promise.Resolve(l, 1))
					resumed = true
					return 1, nil
				}
				var p *promise.Promise[int]
				if from == "between runs" {
					p = promise.Async(l, body)
				} else {
					l.SetImmediate(func() { p = promise.Async(l, body) })
				}
				done := make(chan struct{})
				go func() {
					defer close(done)
					mustRunMode(t, l, uvloop.RunDefault)
				}()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("Run did not return: the body hung the loop")
				}
				if !errors.Is(closeErr, uvloop.ErrRunning) {
					t.Errorf("Close from the body: %v, want ErrRunning", closeErr)
				}
				switch {
				case from == "a callback" && !errors.Is(runErr, uvloop.ErrRunning):
					t.Errorf("Run from a body started by a callback: %v, want ErrRunning", runErr)
				case from == "between runs" && runErr != nil:
					t.Errorf("Run from a body started between runs: %v", runErr)
				}
				if awaited != nil || !resumed {
					t.Errorf("the body did not go on after them: resumed %v, Await err %v", resumed, awaited)
				}
				if p == nil || p.State() != promise.Fulfilled {
					t.Errorf("the body's promise is not fulfilled")
				}
				closeLoop(t, l)
			})
		}
	}
}
