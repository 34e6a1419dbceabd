package uvloop_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// A loop of WithLockOSThread driven by RunOnce from the caller: a step whose wait blocked and
// woke for one read, bytes the peer sends between the steps, then one RunOnce on another OS
// thread, whose poll phase skips the look (the last wait slept) and so the wait for the move
// of the multishot receive to the new thread (Rebind, awaitMoves) on io_uring: the old
// receive's completion still ends the blocking wait, and the step reads them, as on epoll.
func TestReviewRunOnceOnAnotherThread(t *testing.T) {
	ringWriteDiffWith(t, []uvloop.Option{uvloop.WithLockOSThread()}, func(t *testing.T, l *uvloop.Loop) []string {
		runtime.LockOSThread() // this goroutine keeps its thread: the other Run is on another
		defer runtime.UnlockOSThread()
		c, p := ringWritePair(t, l)
		defer p.Close()
		var log []string
		reads := 0
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			if err == nil {
				reads++
				log = append(log, "read "+string(b))
			}
		}))
		dog := l.SetTimeout(func() {}, 5*time.Second) // a RunOnce never blocks for ever
		dog.Unref()
		go func() {
			time.Sleep(20 * time.Millisecond) // pacing only: the step below is asleep by then
			p.Write([]byte("a"))
		}()
		for reads == 0 {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		_, err := p.Write([]byte("b")) // in the loop's socket when Write returns (loopback)
		mustOK(t, err)
		looks := uvloop.Looks(l)
		done := make(chan error, 1)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			_, err := l.Run(uvloop.RunOnce)
			done <- err
		}()
		mustOK(t, <-done)
		log = append(log, fmt.Sprintf("looks in the step: %d", uvloop.Looks(l)-looks))
		log = append(log, fmt.Sprintf("reads after one RunOnce on another thread: %d", reads))
		closed := false
		c.Close(func() { closed = true })
		runUntil(t, l, "close", func() bool { return closed })
		l.ClearTimeout(dog)
		mustRunMode(t, l, uvloop.RunNoWait)
		return log
	})
}

// Writes waiting for room (one in the kernel on io_uring, and two behind it), the peer
// resets, and the stream, which does not read, is closed from the caller before the loop
// runs again, or from a timer of the next step (the send's failure may be in the completion
// ring, or reported in the poll phase after the timer): every write calls back once, with
// ECANCELED, in order, and WriteQueueSize is 0 after, on both backends.
func TestReviewResetThenCloseWrites(t *testing.T) {
	for _, from := range []string{"caller", "timer"} {
		t.Run(from, func(t *testing.T) {
			ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
				c, p := ringWritePair(t, l)
				var log []string
				for i, n := range []int{8 << 20, 10, 20} {
					mustOK(t, c.Write(make([]byte, n), func(err error) {
						log = append(log, fmt.Sprintf("w%d %s queue=%d", i, ringWriteErr(err), c.WriteQueueSize()))
					}))
				}
				for i := 0; i < 5; i++ {
					mustRunMode(t, l, uvloop.RunNoWait)
				}
				p.SetLinger(0)
				p.Close()
				closed := false
				closeIt := func() {
					c.Close(func() { log = append(log, fmt.Sprintf("close queue=%d", c.WriteQueueSize())); closed = true })
				}
				if from == "caller" {
					closeIt()
				} else {
					l.SetTimeout(closeIt, 0)
				}
				runUntil(t, l, "close", func() bool { return closed })
				return log
			})
		})
	}
}
