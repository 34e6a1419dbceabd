package uvloop_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// TestRingThreadBoundEcho runs an echo server on a loop WithLockOSThread, which on io_uring
// asks the kernel to keep completion work for the loop's thread (COOP_TASKRUN): accepts,
// receives and sends must all still arrive, across two Runs on two different threads (the
// second Rebind moves every request), and Close must reap what is in flight. It runs on
// every backend; on io_uring it is the thread-bound path.
func TestRingThreadBoundEcho(t *testing.T) {
	checkFds(t)
	l := newLoopWith(t, uvloop.WithLockOSThread())
	_, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		c := acceptTCP(t, s)
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			if err != nil {
				c.Close(nil)
				return
			}
			mustOK(t, c.Write(bytes.Clone(b), nil))
		}))
	})
	const conns, rounds = 4, 50
	clients := make([]net.Conn, conns)
	for i := range clients {
		c, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		defer c.Close()
		clients[i] = c
	}
	// echo sends rounds messages on every client and reads each one back, then stops l.
	echo := func(phase int) <-chan error {
		done := make(chan error, 1)
		go func() {
			defer l.Post(l.Stop)
			for r := range rounds {
				for i, c := range clients {
					msg := []byte(fmt.Sprintf("p%d r%03d c%d;", phase, r, i))
					if _, err := c.Write(msg); err != nil {
						done <- err
						return
					}
					got := make([]byte, len(msg))
					if _, err := io.ReadFull(c, got); err != nil {
						done <- err
						return
					}
					if !bytes.Equal(got, msg) {
						done <- fmt.Errorf("echoed %q, want %q", got, msg)
						return
					}
				}
			}
			done <- nil
		}()
		return done
	}
	// The first Run keeps its thread after it returns (the goroutine stays locked), so the
	// second one, in another goroutine, runs on another thread.
	first := make(chan error)
	release := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		done := echo(1)
		_, err := l.Run(uvloop.RunDefault)
		first <- errors.Join(err, <-done)
		<-release
	}()
	mustOK(t, <-first)
	second := make(chan error)
	go func() {
		done := echo(2)
		_, err := l.Run(uvloop.RunDefault)
		second <- errors.Join(err, <-done)
	}()
	err := <-second
	close(release)
	mustOK(t, err)
	for _, c := range clients {
		c.Close()
	}
	closeLoop(t, l)
}
