package uvloop_test

import (
	"errors"
	"testing"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// An Async body that calls the loop's Close or Run gets ErrRunning, on every kind of loop,
// whether the body was started between runs or from a callback: the body runs on the loop's
// behalf, as a callback does. (Close between runs used to unwind the bodies, the calling one
// among them: a WithLockOSThread loop's body waited for itself, and a WithOwnThread loop's
// was abandoned.) The loop stays usable, and closes cleanly after.
func TestAsyncBodyCannotCloseOrRunItsLoop(t *testing.T) {
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
				for what, err := range map[string]error{"Close": closeErr, "Run": runErr} {
					if !errors.Is(err, uvloop.ErrRunning) {
						t.Errorf("%s from the body: %v, want ErrRunning", what, err)
					}
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
