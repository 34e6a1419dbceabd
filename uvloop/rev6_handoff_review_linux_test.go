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
