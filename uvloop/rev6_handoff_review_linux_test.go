package uvloop_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// A server hands a connection to a child (StdioInheritStream) from its first read, after
// ReadStop, and closes its handle; the child reads to the end and exits. The peer's close
// of the connection is the child's: a FIN, read as the end of the stream, on epoll. On
// io_uring the rest of the batch held bytes the kernel read for the stream, and closing the
// handle set SO_LINGER 0 on the socket the child still had: the child's close reset the
// connection (ECONNRESET at the peer), though the loop's close closed nothing. (The bytes
// the kernel had read for the stream are not the child's on io_uring: ring.go.)
func TestReviewHandOffWithBytesLaterInBatch(t *testing.T) {
	procDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var log []string
		wrote := make(chan error, 1)
		go func() {
			_, err := p.Write(make([]byte, 100<<10)) // more than one read on readiness takes
			if err == nil {
				err = p.CloseWrite()
			}
			wrote <- err
		}()
		select {
		case err := <-wrote:
			mustOK(t, err)
		case <-time.After(10 * time.Second):
			t.Fatal("the peer's write did not end")
		}
		first := true
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			if !first {
				return
			}
			first = false
			log = append(log, fmt.Sprintf("read %s", errName(err)))
			c.ReadStop()
			spawnShell(t, l, "cat >/dev/null", []uvloop.StdioContainer{{Flags: uvloop.StdioInheritStream, Stream: c}},
				func(pr *uvloop.Process, st int64, sig syscall.Signal) {
					log = append(log, fmt.Sprintf("exit %d %d", st, sig))
					pr.Close(nil)
				})
			c.Close(nil)
		}))
		runWithin(t, l, 10*time.Second)
		p.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := p.Read(make([]byte, 1))
		return append(log, "peer "+errName(err))
	})
}

// A stream reads; the peer sends while the loop is between runs, and the stream is closed
// from the caller before the loop runs again (or from a timer of the next step, before its
// poll phase): its read callback never saw those bytes. On epoll they are unread in the
// socket, and the close resets the connection; on io_uring the receive may have read them
// into the ring before the close (their completion not reaped: neither held nor in a batch),
// RecvForget drops them, and the close sends a FIN: the peer reads the end of the stream.
// The timer's case passes (the step's poll phase reaps them first).
func TestReviewCloseBetweenRunsWithBytesArrived(t *testing.T) {
	for _, from := range []string{"caller", "timer"} {
		t.Run(from, func(t *testing.T) {
			ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
				c, p := ringWritePair(t, l)
				defer p.Close()
				var log []string
				mustOK(t, c.ReadStart(func(b []byte, err error) { log = append(log, "read "+errName(err)) }))
				for i := 0; i < 3; i++ {
					mustRunMode(t, l, uvloop.RunNoWait)
				}
				_, err := p.Write([]byte("hello"))
				mustOK(t, err)
				time.Sleep(5 * time.Millisecond) // pacing only: the bytes cross loopback
				closed := false
				closeIt := func() { c.Close(func() { closed = true }) }
				if from == "caller" {
					closeIt()
				} else {
					l.SetTimeout(closeIt, 0)
				}
				runUntil(t, l, "close", func() bool { return closed })
				p.SetReadDeadline(time.Now().Add(5 * time.Second))
				_, err = p.Read(make([]byte, 1))
				return append(log, "peer "+errName(err))
			})
		})
	}
}
