package uvloop_test

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// The panic policy for the callbacks of I/O requests and listeners: a panic in one callback
// of a batch leaves the rest of the batch to the next Run, every request completes (or is
// canceled) exactly once and stops counting, Close succeeds once the handles are closed, and
// nothing is left armed to make the loop spin.

// runNoWaitN runs l with RunNoWait n times (so that a request that never completes fails the
// test instead of blocking it) and returns how many iterations the loop made and how many
// I/O events the poller reported meanwhile.
func runNoWaitN(t *testing.T, l *uvloop.Loop, n int) (iterations, events uint64) {
	t.Helper()
	before := l.Metrics()
	for range n {
		if _, err := l.Run(uvloop.RunNoWait); err != nil {
			t.Fatalf("Run(RunNoWait): %v", err)
		}
	}
	after := l.Metrics()
	return after.LoopCount - before.LoopCount, after.Events - before.Events
}

// wantDone checks that the loop has nothing left in flight: no request, no pending callback.
func wantDone(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	if l.Alive() {
		t.Fatal("the loop is still alive: a request still counts")
	}
}

// openPipe adopts one end of a socket pair as a Pipe; the other end is closed when the test
// ends.
func openPipe(t *testing.T, l *uvloop.Loop) (*uvloop.Pipe, int) {
	t.Helper()
	a, b := rawSocketpair(t)
	t.Cleanup(func() { unix.Close(b) })
	p, err := l.NewPipe()
	mustOK(t, err)
	mustOK(t, p.Open(a))
	return p, b
}

// TestPanicIOCallback: for each kind of request, callbacks that complete together run in
// one batch; when one panics, Run returns the panic having run the callbacks up to it
// (before), the next Runs run the rest (after; nil: not checked), and then nothing is left
// in flight.
func TestPanicIOCallback(t *testing.T) {
	for _, tc := range []struct {
		name string
		// start queues the requests, whose callbacks append to log; the check it returns,
		// if any, runs once nothing is in flight.
		start         func(t *testing.T, l *uvloop.Loop, log *[]string) (check func())
		before, after []string
	}{{
		// Writes that complete together run their callbacks in one batch.
		name: "PanicWriteCallbackBatch",
		start: func(t *testing.T, l *uvloop.Loop, log *[]string) func() {
			p, _ := openPipe(t, l)
			for i := range 5 {
				mustOK(t, p.Write([]byte("x"), func(err error) {
					mustOK(t, err)
					*log = append(*log, fmt.Sprint("w", i))
					if i == 1 {
						panic(boom)
					}
				}))
			}
			return func() {
				if n := p.WriteQueueSize(); n != 0 {
					t.Errorf("WriteQueueSize = %d after every write completed", n)
				}
			}
		},
		before: []string{"w0", "w1"},
		after:  []string{"w0", "w1", "w2", "w3", "w4"},
	}, {
		// Close cancels the queued writes in the close phase; the close callback runs after
		// the rest of them.
		name: "PanicCanceledWriteCallback",
		start: func(t *testing.T, l *uvloop.Loop, log *[]string) func() {
			p, _ := openPipe(t, l)
			write := func(name string, data []byte, panics bool) {
				mustOK(t, p.Write(data, func(err error) {
					if !errors.Is(err, syscall.ECANCELED) {
						t.Errorf("%s: %v, want ECANCELED", name, err)
					}
					*log = append(*log, name)
					if panics {
						panic(boom)
					}
				}))
			}
			write("big", make([]byte, 16<<20), false) // more than the socket takes: it stays queued
			write("w1", []byte("x"), true)
			write("w2", []byte("x"), false)
			mustOK(t, p.Close(func() {
				*log = append(*log, "close")
				if p.HasRef() {
					t.Error("HasRef is true in the close callback")
				}
			}))
			return nil
		},
		before: []string{"big", "w1"},
		after:  []string{"big", "w1", "w2", "close"},
	}, {
		// The writes queued behind a connect that fails are canceled after its callback, and
		// all the same when that callback panics.
		name: "PanicFailedConnectCallback",
		start: func(t *testing.T, l *uvloop.Loop, log *[]string) func() {
			// A port nobody listens on: bind one, note it, close it.
			probe, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, probe.Bind(loopback, 0))
			addr, err := probe.LocalAddr()
			mustOK(t, err)
			mustOK(t, probe.Close(nil))

			c, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, c.Connect(addr, func(err error) {
				if !errors.Is(err, syscall.ECONNREFUSED) {
					t.Errorf("connect: %v, want ECONNREFUSED", err)
				}
				*log = append(*log, "connect")
				panic(boom)
			}))
			for _, name := range []string{"w1", "w2"} {
				mustOK(t, c.Write([]byte(name), func(err error) {
					if !errors.Is(err, syscall.ECANCELED) {
						t.Errorf("%s: %v, want ECANCELED", name, err)
					}
					*log = append(*log, name)
				}))
			}
			return nil
		},
		before: []string{"connect"},
		after:  []string{"connect", "w1", "w2"},
	}, {
		// UDP sends that complete together run their callbacks in one batch.
		name: "PanicUDPSendCallbackBatch",
		start: func(t *testing.T, l *uvloop.Loop, log *[]string) func() {
			u, addr := newBoundUDP(t, l)
			for i := range 5 {
				mustOK(t, u.Send([]byte("x"), addr, func(err error) {
					mustOK(t, err)
					*log = append(*log, fmt.Sprint("s", i))
					if i == 1 {
						panic(boom)
					}
				}))
			}
			return func() {
				if n := u.SendQueueCount(); n != 0 {
					t.Errorf("SendQueueCount = %d after every send completed", n)
				}
			}
		},
		before: []string{"s0", "s1"},
		after:  []string{"s0", "s1", "s2", "s3", "s4"},
	}, {
		// Close runs the callbacks of the sends in flight in the close phase; the close
		// callback runs after the rest of them.
		name: "PanicUDPSendCallbackInClose",
		start: func(t *testing.T, l *uvloop.Loop, log *[]string) func() {
			u, addr := newBoundUDP(t, l)
			for i := range 3 {
				mustOK(t, u.Send([]byte("x"), addr, func(err error) {
					*log = append(*log, fmt.Sprint("s", i))
					if i == 1 {
						panic(boom)
					}
				}))
			}
			mustOK(t, u.Close(func() { *log = append(*log, "close") }))
			return nil
		},
		before: []string{"s0", "s1"},
		after:  []string{"s0", "s1", "s2", "close"},
	}, {
		// A shutdown callback that panics leaves nothing in flight.
		name: "PanicShutdownCallback",
		start: func(t *testing.T, l *uvloop.Loop, log *[]string) func() {
			p, _ := openPipe(t, l)
			mustOK(t, p.Write([]byte("x"), func(err error) { *log = append(*log, "write") }))
			mustOK(t, p.Shutdown(func(err error) {
				mustOK(t, err)
				*log = append(*log, "shutdown")
				panic(boom)
			}))
			return nil
		},
		before: []string{"write", "shutdown"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			checkFds(t)
			l := newLoop(t)
			var log []string
			check := tc.start(t, l, &log)
			_, err := l.Run(uvloop.RunDefault)
			wantPanic(t, err)
			if !slices.Equal(log, tc.before) {
				t.Fatalf("ran %v before the panic, want %v", log, tc.before)
			}
			runNoWaitN(t, l, 3)
			if tc.after != nil && !slices.Equal(log, tc.after) {
				t.Fatalf("ran %v, want %v", log, tc.after)
			}
			wantDone(t, l)
			if check != nil {
				check()
			}
			closeLoop(t, l)
		})
	}
}

// TestPanicListenCallback: a Listen callback that panics before Accept leaves the connection
// parked and the listener quiet, not spinning on the connections still in the backlog; Accept,
// later, takes the parked connection and re-arms the listener.
func TestPanicListenCallback(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	calls := 0
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		calls++
		if calls == 1 {
			panic(boom)
		}
		mustOK(t, acceptTCP(t, s).Close(nil))
	})
	for range 3 { // all three wait in the backlog before the loop runs
		conn, err := net.Dial("tcp", addr.String())
		mustOK(t, err)
		defer conn.Close()
	}
	_, err := l.Run(uvloop.RunDefault)
	wantPanic(t, err)
	if calls != 1 {
		t.Fatalf("Listen callback ran %d times before the panic, want 1", calls)
	}
	iterations, events := runNoWaitN(t, l, 5)
	if events != 0 || calls != 1 {
		t.Fatalf("after the panic the listener saw %d events in %d iterations and its callback ran %d more times; want it quiet",
			events, iterations, calls-1)
	}
	mustOK(t, acceptTCP(t, server).Close(nil)) // the parked connection
	for i := 0; i < 10 && calls < 3; i++ {
		runNoWaitN(t, l, 1)
	}
	if calls != 3 {
		t.Fatalf("Listen callback ran %d times, want 3 (the backlog after Accept re-armed it)", calls)
	}
	closeLoop(t, l)
}

// newBoundUDP binds a UDP handle on 127.0.0.1:0 and returns it with its address; it sends to
// itself.
func newBoundUDP(t *testing.T, l *uvloop.Loop) (*uvloop.UDP, netip.AddrPort) {
	t.Helper()
	u, err := l.NewUDP()
	mustOK(t, err)
	mustOK(t, u.Bind(loopback, 0))
	addr, err := u.LocalAddr()
	mustOK(t, err)
	return u, addr
}

// TestWalkNil: Walk(nil) is an error, not a crash.
func TestWalkNil(t *testing.T) {
	l := newLoop(t)
	if err := l.Walk(nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Fatalf("Walk(nil) = %v, want ErrNilCallback", err)
	}
	closeLoop(t, l)
}
