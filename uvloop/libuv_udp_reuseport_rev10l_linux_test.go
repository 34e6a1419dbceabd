package uvloop_test

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// udp_reuseport: two loops, each on its own goroutine, bind a UDP handle to one address with
// UDPReuseAddr|UDPReusePort (Linux spreads datagrams among such sockets by their source); a
// third loop sends 40 datagrams, each from a handle of its own; every datagram arrives, each
// receiver gets some, and the receivers close once all are in. (libuv sends 10; 40 makes a
// one-sided spread as unlikely as 2^-39.)
func TestLibuvUDPReuseportRev10l(t *testing.T) {
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			const n = 40
			main, ok := m.New(t)
			if !ok {
				t.Skipf("%s is not available here", m.Name)
			}
			watchdog(t, main, 10*time.Second)
			probe, addr := bindUDP(t, main, loopback4)
			probe.Close(nil)
			runLoop(t, main)
			var received atomic.Int32
			var per [2]int
			var ready, done sync.WaitGroup
			for i := range per {
				ready.Add(1)
				done.Add(1)
				go func() {
					defer done.Done()
					l, err := uvloop.New(m.Opts...)
					if err != nil {
						t.Errorf("New: %v", err)
						ready.Done()
						return
					}
					u, err := l.NewUDP()
					if err == nil {
						err = u.Bind(addr, uvloop.UDPReuseAddr|uvloop.UDPReusePort)
					}
					if err == nil {
						err = u.RecvStart(func(_ *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
							if err != nil || string(data) != "Hello" {
								t.Errorf("received %q, %v", data, err)
							}
							per[i]++
							received.Add(1)
						})
					}
					if err != nil {
						t.Errorf("receiver %d: %v", i, err)
					}
					tm := l.NewTimer(func(tm *uvloop.Timer) {
						if received.Load() == n {
							tm.Close(nil)
							u.Close(nil)
						}
					})
					if err := tm.Start(time.Millisecond, time.Millisecond); err != nil {
						t.Errorf("timer: %v", err)
					}
					// Stop the receiver after 10s whatever happens (a deadlock guard).
					guard := l.NewTimer(func(*uvloop.Timer) {
						l.Walk(func(h uvloop.Handle) {
							if !h.IsClosing() {
								h.Close(nil)
							}
						})
					})
					guard.Unref()
					if err := guard.Start(10*time.Second, 0); err != nil {
						t.Errorf("guard: %v", err)
					}
					ready.Done()
					if _, err := l.Run(uvloop.RunDefault); err != nil {
						t.Errorf("run: %v", err)
					}
					guard.Close(nil)
					if _, err := l.Run(uvloop.RunDefault); err != nil {
						t.Errorf("run: %v", err)
					}
					if err := l.Close(); err != nil {
						t.Errorf("close: %v", err)
					}
				}()
			}
			ready.Wait()
			sent := 0
			for range n {
				s, err := main.NewUDP()
				mustOK(t, err)
				mustOK(t, s.Send([]byte("Hello"), addr, func(err error) {
					mustOK(t, err)
					sent++
					s.Close(nil)
				}))
			}
			runLoop(t, main)
			done.Wait()
			closeLoop(t, main)
			if sent != n || received.Load() != n || per[0] == 0 || per[1] == 0 || per[0]+per[1] != n {
				t.Fatalf("sent %d, received %d (%d and %d)", sent, received.Load(), per[0], per[1])
			}
		})
	}
}
