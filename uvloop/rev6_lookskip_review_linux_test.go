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
