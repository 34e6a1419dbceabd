package uvloop_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// A TCP stream closed with bytes the peer sent that it never took: the peer sees a reset on
// both backends, as closing a socket with unread bytes sends one. Through the ring those
// bytes had been read by the kernel already, held after ReadStop (held), or reported later
// in the batch whose callback closes the stream (later); closing sent a FIN, and the peer
// read the end of the stream.
func TestCloseWithUnreadResetsDiff(t *testing.T) {
	for _, how := range []string{"held", "later"} {
		t.Run(how, func(t *testing.T) {
			ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
				c, p := ringWritePair(t, l)
				defer p.Close()
				var log []string
				_, err := p.Write(make([]byte, 100<<10)) // more than one read on readiness takes
				mustOK(t, err)
				closed := false
				closeIt := func() { c.Close(func() { closed = true }) }
				reads := 0
				mustOK(t, c.ReadStart(func(b []byte, err error) {
					if reads++; reads > 1 {
						return
					}
					log = append(log, fmt.Sprintf("read %s", ringWriteErr(err)))
					if how == "held" {
						c.ReadStop()
						return
					}
					closeIt()
				}))
				runUntil(t, l, "a read", func() bool { return reads > 0 })
				if how == "held" {
					for i := 0; i < 3; i++ {
						mustRunMode(t, l, uvloop.RunNoWait)
					}
					closeIt()
				}
				runUntil(t, l, "close", func() bool { return closed })
				p.SetReadDeadline(time.Now().Add(5 * time.Second))
				_, err = p.Read(make([]byte, 1))
				return append(log, "peer "+ringWriteErr(err))
			})
		})
	}
}

// The peer resets while a write waits for room; the read callback closes the stream on the
// reset, as Node's socket does (destroy): the write then fails with ECANCELED on both
// backends, as the close cancels it.
func TestResetCloseInReadCancelsWriteDiff(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		var log []string
		mustOK(t, c.Write(make([]byte, 8<<20), func(err error) { log = append(log, "w "+ringWriteErr(err)) }))
		closed := false
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			if err != nil {
				log = append(log, "read "+ringWriteErr(err))
				c.Close(func() { log = append(log, "close"); closed = true })
			}
		}))
		for i := 0; i < 5; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		p.SetLinger(0)
		p.Close()
		runUntil(t, l, "close", func() bool { return closed })
		return log
	})
}
