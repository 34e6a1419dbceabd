package uvloop_test

import (
	"bytes"
	"io"
	"net"
	"net/netip"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// TestLoneConnectionSkipsLook: a loop that serves one connection, one round trip at a time,
// wakes for one event each time, so its poll phase goes straight to the blocking wait rather
// than first look (a system call that would find nothing). The echo is whole either way.
func TestLoneConnectionSkipsLook(t *testing.T) {
	const trips = 200
	// A loop of the test's own thread mode, not CI's UVGO_OWN_THREAD pass: on an own-thread
	// io_uring loop under CI's load, waits woke for two events often enough that the look
	// came back on 156 of 200 round trips.
	t.Setenv(uvloop.OwnThreadEnv, "0")
	l := newLoop(t)
	srv, addr := listenEcho(t, l, func() {})
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			c, err := net.Dial("tcp", addr.String())
			if err != nil {
				return err
			}
			defer c.Close()
			msg, got := bytes.Repeat([]byte{'x'}, 64), make([]byte, 64)
			for i := range trips {
				msg[0] = byte(i)
				if _, err := c.Write(msg); err != nil {
					return err
				}
				if _, err := io.ReadFull(c, got); err != nil {
					return err
				}
				if !bytes.Equal(got, msg) {
					return io.ErrUnexpectedEOF
				}
			}
			return nil
		}()
		l.Post(func() { srv.Close(nil) })
	}()
	var looks uint64
	l.Post(func() { looks = uvloop.Looks(l) }) // the count before the first round trip
	_, err := l.Run(uvloop.RunDefault)
	mustOK(t, err)
	mustOK(t, <-done)
	looks = uvloop.Looks(l) - looks
	if looks > trips/4 {
		t.Errorf("the poll phase looked %d times in %d round trips of a lone connection, want few (it goes straight to the blocking wait)", looks, trips)
	}
	closeLoop(t, l)
}

// listenEcho starts a TCP echo server on l; note runs in each of its callbacks.
func listenEcho(t *testing.T, l *uvloop.Loop, note func()) (*uvloop.TCP, netip.AddrPort) {
	srv, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, srv.Bind(netip.MustParseAddrPort("127.0.0.1:0"), 0))
	mustOK(t, srv.Listen(8, func(err error) {
		note()
		mustOK(t, err)
		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, srv.Accept(c))
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			note()
			if err != nil {
				c.Close(nil)
				return
			}
			mustOK(t, c.Write(append([]byte(nil), b...), func(error) { note() }))
		}))
	}))
	addr, err := srv.LocalAddr()
	mustOK(t, err)
	return srv, addr
}
