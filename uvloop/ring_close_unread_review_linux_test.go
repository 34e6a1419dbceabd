package uvloop_test

import (
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/poller"
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

// Through the ring only: a stream's held bytes are handed over again first in a poll phase
// (runHeld), before the batch the phase took from the kernel. A callback of that hand-over
// closes a second stream whose bytes are in the batch, not yet delivered: the peer must see
// a reset, as it does when a socket is closed with bytes the program never saw. (On epoll
// the same close would find the bytes in the socket, but the order of the two callbacks
// there is readiness order, so the scenario is not a difference test.)
func TestCloseFromHeldWithBytesLaterInBatchResets(t *testing.T) {
	if err := poller.Available(uvloop.BackendIOURing); err != nil {
		t.Skipf("io_uring: %v", err)
	}
	l := newLoopWith(t, uvloop.WithBackend(uvloop.BackendIOURing))
	a, pa := ringWritePair(t, l)
	defer pa.Close()
	b, pb := ringWritePair(t, l)
	defer pb.Close()
	var bGot []string
	mustOK(t, b.ReadStart(func(data []byte, err error) {
		bGot = append(bGot, fmt.Sprintf("%d bytes, %s", len(data), ringWriteErr(err)))
	}))
	reads := 0
	var onHeld func()
	mustOK(t, a.ReadStart(func([]byte, error) {
		if reads++; reads == 1 {
			a.ReadStop() // the rest of what the ring read is held
		} else if onHeld != nil {
			onHeld()
			onHeld = nil
		}
	}))
	_, err := pa.Write(make([]byte, 100<<10))
	mustOK(t, err)
	runUntil(t, l, "a's first read", func() bool { return reads > 0 })
	for range 3 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	if reads != 1 {
		t.Fatalf("%d reads after ReadStop", reads)
	}

	_, err = pb.Write([]byte("never seen"))
	mustOK(t, err)
	time.Sleep(20 * time.Millisecond) // on loopback the bytes are in b's socket by now
	closed := false
	onHeld = func() { b.Close(func() { closed = true }) }
	mustOK(t, a.ReadStart(func([]byte, error) {
		if onHeld != nil {
			onHeld()
			onHeld = nil
		}
	}))
	runUntil(t, l, "b's close", func() bool { return closed })
	if len(bGot) > 0 {
		t.Fatalf("b read %q before the close: the batch did not hold its bytes", bGot)
	}
	mustOK(t, pb.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err = pb.Read(make([]byte, 1))
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("b's peer read %v, want ECONNRESET", err)
	}
	a.Close(nil)
	closeLoop(t, l)
}
