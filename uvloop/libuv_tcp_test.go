package uvloop_test

import (
	"bytes"
	"errors"
	"io"
	"net/netip"
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's TCP stream tests, in our own words. Each names the libuv test it ports.
// libuv's tests talk to a separate echo server on a fixed port; ours run their server on the
// same loop, on 127.0.0.1:0.

// tcp_writealot: the client queues writes of many chunks each (Writev), shuts down, and
// reads the echo until EOF; every byte comes back, every callback runs once.
func TestTCPWriteALot(t *testing.T) {
	checkFds(t)
	const writes, chunks, chunkSize = 3, 1024, 4096
	total := writes * chunks * chunkSize
	l := newLoop(t)
	var server *uvloop.TCP
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		echo(t, acceptTCP(t, s), 1<<20, nil)
		s.Close(nil)
	})
	_ = server
	chunk := make([]byte, chunkSize)
	for i := range chunk {
		chunk[i] = byte(i * 7)
	}
	bufs := make([][]byte, chunks)
	for i := range bufs {
		bufs[i] = chunk
	}
	client, err := l.NewTCP()
	mustOK(t, err)
	writeCbs, shutdownCbs, closeCbs, read := 0, 0, 0, 0
	gotEOF := false
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		for range writes {
			mustOK(t, client.Writev(bufs, func(err error) {
				mustOK(t, err)
				writeCbs++
			}))
		}
		mustOK(t, client.Shutdown(func(err error) {
			mustOK(t, err)
			if writeCbs != writes {
				t.Errorf("shutdown callback before the write callbacks (%d)", writeCbs)
			}
			shutdownCbs++
		}))
		mustOK(t, client.ReadStart(func(data []byte, err error) {
			if errors.Is(err, io.EOF) {
				gotEOF = true
				client.Close(func() { closeCbs++ })
				return
			}
			mustOK(t, err)
			for i, b := range data {
				if b != chunk[(read+i)%chunkSize] {
					t.Fatalf("byte %d: got %d, want %d", read+i, b, chunk[(read+i)%chunkSize])
				}
			}
			read += len(data)
		}))
	}))
	runLoop(t, l)
	if writeCbs != writes || shutdownCbs != 1 || closeCbs != 1 || !gotEOF || read != total {
		t.Fatalf("write callbacks %d, shutdown %d, close %d, EOF %v, read %d of %d", writeCbs, shutdownCbs, closeCbs, gotEOF, read, total)
	}
	closeLoop(t, l)
}

// tcp_write_queue_order: 10,000 writes of 1 KiB into a peer that never reads; a timer
// closes everything. Some writes complete, the rest are cancelled, in queue order: no
// success after a cancellation.
func TestTCPWriteQueueOrder(t *testing.T) {
	checkFds(t)
	const reqs = 10000
	l := newLoop(t)
	var incoming, client *uvloop.TCP
	closed := 0
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		incoming = acceptTCP(t, s)
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			client.Close(func() { closed++ })
			s.Close(func() { closed++ })
			incoming.Close(func() { closed++ })
			tm.Close(nil)
		})
		mustOK(t, tm.Start(100*time.Millisecond, 0))
	})
	_ = server
	var err error
	client, err = l.NewTCP()
	mustOK(t, err)
	ok, canceled, other, next := 0, 0, 0, 0
	buf := make([]byte, 1024)
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		mustOK(t, unix.SetsockoptInt(client.Fd(), unix.SOL_SOCKET, unix.SO_SNDBUF, 16<<10))
		for i := range reqs {
			mustOK(t, client.Write(buf, func(err error) {
				if i != next {
					t.Fatalf("write callback %d ran as number %d", i, next)
				}
				next++
				switch {
				case err == nil:
					if canceled > 0 {
						t.Fatalf("write %d succeeded after a cancelled one", i)
					}
					ok++
				case errors.Is(err, syscall.ECANCELED):
					canceled++
				default:
					other++
				}
			}))
		}
		if client.WriteQueueSize() == 0 {
			t.Fatal("the peer took 10 MiB without reading")
		}
	}))
	runLoop(t, l)
	if ok == 0 || canceled == 0 || ok+canceled+other != reqs || closed != 3 {
		t.Fatalf("ok %d, cancelled %d, other %d (want %d in all), close callbacks %d", ok, canceled, other, reqs, closed)
	}
	closeLoop(t, l)
}

// tcp_try_write: TryWrite writes at once (or says EAGAIN); the reader gets every byte.
func TestTCPTryWrite(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	written, read, closed := 0, 0, 0
	var server *uvloop.TCP
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		in := acceptTCP(t, s)
		mustOK(t, in.ReadStart(func(data []byte, err error) {
			if err != nil {
				in.Close(func() { closed++ })
				server.Close(func() { closed++ })
				return
			}
			read += len(data)
		}))
	})
	client, err := l.NewTCP()
	mustOK(t, err)
	if _, err := client.TryWrite([]byte("x")); err == nil {
		t.Fatal("TryWrite before connecting succeeded")
	}
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		for {
			n, err := client.TryWrite([]byte("PING"))
			if err == nil && n > 0 {
				written += n
				break
			}
			if !errors.Is(err, syscall.EAGAIN) {
				t.Fatalf("TryWrite: %d, %v", n, err)
			}
		}
		if n, err := client.TryWrite(nil); n != 0 || err != nil {
			t.Fatalf("TryWrite(nil) = %d, %v", n, err)
		}
		client.Close(func() { closed++ })
	}))
	runLoop(t, l)
	if written != 4 || read != written || closed != 3 {
		t.Fatalf("written %d, read %d, close callbacks %d", written, read, closed)
	}
	closeLoop(t, l)
}

// tcp_close_while_connecting: closing a handle whose connect is in flight completes the
// connect with ECANCELED, and nothing else runs. libuv connects to 1.2.3.4, hoping that no
// route exists; a sandbox may well proxy that, so the connect here goes to a listener whose
// accept queue is full: Linux drops the SYN and the connect stays in flight.
func TestTCPCloseWhileConnecting(t *testing.T) {
	checkFds(t)
	addr := fullListener(t)
	l := newLoop(t)
	c, err := l.NewTCP()
	mustOK(t, err)
	connectCbs, closed := 0, 0
	var t2 *uvloop.Timer
	var status error
	mustOK(t, c.Connect(addr, func(err error) {
		status = err
		connectCbs++
		t2.Stop()
	}))
	t1 := l.NewTimer(func(tm *uvloop.Timer) {
		tm.Close(func() { closed++ })
		c.Close(func() { closed++ })
	})
	mustOK(t, t1.Start(time.Millisecond, 0))
	t2 = l.NewTimer(func(*uvloop.Timer) { t.Fatal("the day-long timer ran") })
	mustOK(t, t2.Start(24*time.Hour, 0))
	runLoop(t, l)
	if connectCbs != 1 || closed != 2 {
		t.Fatalf("connect callbacks %d, close callbacks %d", connectCbs, closed)
	}
	if !errors.Is(status, syscall.ECANCELED) {
		t.Fatalf("connect status %v, want ECANCELED", status)
	}
	closeLoop(t, l)
}

// fullListener returns the address of a listener (closed when the test ends) whose accept
// queue is full, so that a new connect to it stays in flight.
func fullListener(t *testing.T) netip.AddrPort {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("relies on Linux dropping SYNs to a full accept queue")
	}
	ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	mustOK(t, err)
	unix.CloseOnExec(ln)
	fds := []int{ln}
	t.Cleanup(func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	})
	mustOK(t, unix.Bind(ln, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}))
	mustOK(t, unix.Listen(ln, 0))
	sa, err := unix.Getsockname(ln)
	mustOK(t, err)
	for range 3 { // backlog 0 queues one connection; the rest wait in SYN_SENT
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		mustOK(t, err)
		fds = append(fds, fd)
		unix.CloseOnExec(fd)
		mustOK(t, unix.SetNonblock(fd, true))
		if err := unix.Connect(fd, sa); err != nil && err != unix.EINPROGRESS {
			t.Fatal(err)
		}
	}
	time.Sleep(20 * time.Millisecond)
	a := sa.(*unix.SockaddrInet4)
	return netip.AddrPortFrom(netip.AddrFrom4(a.Addr), uint16(a.Port))
}

// tcp_close_reset_*: one side writes four pings and closes with a reset (CloseReset),
// optionally after a Shutdown (then CloseReset is refused and the handle is closed
// later by the peer's EOF/reset) or after shutting the socket down by hand. The four write
// callbacks run before the close callback; the shutdown callback runs when asked for.
func TestTCPCloseReset(t *testing.T) {
	for _, tc := range []struct {
		name            string
		clientCloses    bool
		shutdownFirst   int // 0: none, 1: Shutdown (CloseReset then fails), 2: shutdown(2) on the fd
		wantClose       int
		wantShutdownCbs int
	}{
		{"client", true, 0, 1, 0},
		{"client_after_shutdown", true, 1, 0, 1},
		{"accepted", false, 0, 1, 0},
		{"accepted_after_shutdown", false, 1, 0, 1},
		{"accepted_after_socket_shutdown", false, 2, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkFds(t)
			l := newLoop(t)
			var client, accepted *uvloop.TCP
			writeCbs, closeCbs, shutdownCbs, readSize := 0, 0, 0, 0
			var server *uvloop.TCP
			doClose := func(h *uvloop.TCP) {
				switch tc.shutdownFirst {
				case 1:
					mustOK(t, h.Shutdown(func(error) { shutdownCbs++ }))
					if err := h.CloseReset(func() { closeCbs++ }); !errors.Is(err, syscall.EINVAL) {
						t.Fatalf("CloseReset after Shutdown: %v, want EINVAL", err)
					}
				case 2:
					mustOK(t, unix.Shutdown(h.Fd(), unix.SHUT_RDWR))
					mustOK(t, h.CloseReset(func() { closeCbs++ }))
				default:
					mustOK(t, h.CloseReset(func() { closeCbs++ }))
					if err := h.Shutdown(func(error) { shutdownCbs++ }); !errors.Is(err, syscall.ENOTCONN) {
						t.Fatalf("Shutdown after CloseReset: %v, want ENOTCONN", err)
					}
				}
				server.Close(nil)
			}
			server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
				mustOK(t, err)
				accepted = acceptTCP(t, s)
				mustOK(t, accepted.ReadStart(func(data []byte, err error) {
					if err != nil {
						accepted.Close(nil)
						return
					}
					readSize += len(data)
					if readSize == 16 && !tc.clientCloses {
						doClose(accepted)
					}
				}))
			})
			var err error
			client, err = l.NewTCP()
			mustOK(t, err)
			mustOK(t, client.Connect(addr, func(err error) {
				mustOK(t, err)
				mustOK(t, client.ReadStart(func(data []byte, err error) {
					if err != nil {
						client.Close(nil)
					}
				}))
				for range 4 {
					mustOK(t, client.Write([]byte("PING"), func(error) {
						if closeCbs != 0 {
							t.Error("a write callback ran after the close callback")
						}
						writeCbs++
					}))
				}
				if tc.clientCloses {
					doClose(client)
				}
			}))
			runLoop(t, l)
			if writeCbs != 4 || closeCbs != tc.wantClose || shutdownCbs != tc.wantShutdownCbs {
				t.Fatalf("write callbacks %d, close %d (want %d), shutdown %d (want %d)", writeCbs, closeCbs, tc.wantClose, shutdownCbs, tc.wantShutdownCbs)
			}
			closeLoop(t, l)
		})
	}
}

// tcp_shutdown_after_write: a write and a shutdown queued together from a timer; the write
// callback, then the shutdown callback, both succeed; the handle is closed from the latter.
func TestTCPShutdownAfterWrite(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		echo(t, acceptTCP(t, s), 1<<20, nil)
		s.Close(nil)
	})
	_ = server
	conn, err := l.NewTCP()
	mustOK(t, err)
	connectCbs, writeCbs, shutdownCbs, connClosed, timerClosed := 0, 0, 0, 0, 0
	tm := l.NewTimer(func(tm *uvloop.Timer) {
		tm.Close(func() { timerClosed++ })
		mustOK(t, conn.Write([]byte("TEST"), func(err error) {
			mustOK(t, err)
			writeCbs++
		}))
		mustOK(t, conn.Shutdown(func(err error) {
			mustOK(t, err)
			if writeCbs != 1 {
				t.Error("shutdown callback before the write callback")
			}
			shutdownCbs++
			conn.Close(func() { connClosed++ })
		}))
	})
	mustOK(t, tm.Start(25*time.Millisecond, 0))
	mustOK(t, conn.Connect(addr, func(err error) {
		mustOK(t, err)
		connectCbs++
		mustOK(t, conn.ReadStart(func([]byte, error) {}))
	}))
	runLoop(t, l)
	if connectCbs != 1 || writeCbs != 1 || shutdownCbs != 1 || connClosed != 1 || timerClosed != 1 {
		t.Fatalf("connect %d, write %d, shutdown %d, conn close %d, timer close %d", connectCbs, writeCbs, shutdownCbs, connClosed, timerClosed)
	}
	closeLoop(t, l)
}

// tcp_read_stop_start: ReadStop then ReadStart from inside a read callback (after a write
// on a half-open connection) goes on reading: the next callback sees the peer's close.
func TestTCPReadStopStart(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	reads := 0
	var server *uvloop.TCP
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		conn := acceptTCP(t, s)
		var read2 func([]byte, error)
		read2 = func(data []byte, err error) {
			if err == nil {
				return // the rest of the first message
			}
			conn.Close(nil)
			server.Close(nil)
			reads++
		}
		mustOK(t, conn.ReadStart(func(data []byte, err error) {
			mustOK(t, err)
			mustOK(t, conn.Write([]byte("12345678"), func(error) {}))
			mustOK(t, conn.ReadStop())
			mustOK(t, conn.ReadStart(read2))
			reads++
		}))
	})
	client, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		mustOK(t, client.Write([]byte("12345678"), func(err error) {
			mustOK(t, err)
			client.Close(nil)
		}))
	}))
	runLoop(t, l)
	if reads < 2 {
		t.Fatalf("%d read callbacks, want at least 2", reads)
	}
	closeLoop(t, l)
}

// shutdown_eof: the client writes "Q" and shuts down at once; the echo server answers with
// its own shutdown. The client sees "Q", then EOF, and the handle stays open — the loop
// does not close it — until a timer closes it.
func TestTCPShutdownEOF(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		echo(t, acceptTCP(t, s), 1<<20, nil)
		s.Close(nil)
	})
	_ = server
	tcp, err := l.NewTCP()
	mustOK(t, err)
	gotQ, gotEOF, connectCbs, shutdownCbs, tcpClosed, timerCbs := false, false, 0, 0, 0, 0
	tm := l.NewTimer(func(tm *uvloop.Timer) {
		timerCbs++
		tm.Close(nil)
		if tcpClosed != 0 {
			t.Error("the handle was closed without Close")
		}
		tcp.Close(func() {
			if !gotQ || !gotEOF {
				t.Error("closed before Q and EOF")
			}
			tcpClosed++
		})
	})
	mustOK(t, tm.Start(100*time.Millisecond, 0))
	mustOK(t, tcp.Connect(addr, func(err error) {
		mustOK(t, err)
		read := func(data []byte, err error) {
			if !gotQ {
				mustOK(t, err)
				if string(data) != "Q" {
					t.Fatalf("got %q, want Q", data)
				}
				gotQ = true
				return
			}
			if !errors.Is(err, io.EOF) {
				t.Fatalf("got %q, %v; want EOF", data, err)
			}
			gotEOF = true
		}
		mustOK(t, tcp.ReadStart(read))
		if err := tcp.ReadStart(read); !errors.Is(err, syscall.EALREADY) {
			t.Fatalf("second ReadStart: %v, want EALREADY", err)
		}
		if err := tcp.ReadStart(nil); !errors.Is(err, uvloop.ErrNilCallback) {
			t.Fatalf("ReadStart(nil): %v", err)
		}
		mustOK(t, tcp.Write([]byte("Q"), nil))
		mustOK(t, tcp.Shutdown(func(err error) {
			mustOK(t, err)
			if gotEOF {
				t.Error("EOF before the shutdown callback")
			}
			shutdownCbs++
		}))
		connectCbs++
		if shutdownCbs != 0 {
			t.Error("shutdown callback ran inside Shutdown")
		}
	}))
	runLoop(t, l)
	if !gotQ || !gotEOF || connectCbs != 1 || shutdownCbs != 1 || tcpClosed != 1 || timerCbs != 1 {
		t.Fatalf("Q %v, EOF %v, connect %d, shutdown %d, close %d, timer %d", gotQ, gotEOF, connectCbs, shutdownCbs, tcpClosed, timerCbs)
	}
	closeLoop(t, l)
}

// delayed_accept: the connection callback defers Accept to a timer; the listener waits
// meanwhile, both clients get through, and the server closes after the second.
func TestTCPDelayedAccept(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	connections, accepts, connects, closed := 0, 0, 0, 0
	onClose := func() { closed++ }
	_, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		connections++
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			c := acceptTCP(t, s)
			accepts++
			c.Close(onClose)
			if accepts == 2 {
				s.Close(onClose)
			}
			tm.Close(onClose)
		})
		mustOK(t, tm.Start(50*time.Millisecond, 0))
	})
	for range 2 {
		c, err := l.NewTCP()
		mustOK(t, err)
		mustOK(t, c.Connect(addr, func(err error) {
			mustOK(t, err)
			connects++
			mustOK(t, c.ReadStart(func(data []byte, err error) {
				if err == nil {
					t.Fatalf("the server sent %q", data)
				}
				if !errors.Is(err, io.EOF) {
					t.Fatalf("read: %v, want EOF", err)
				}
				c.Close(onClose)
			}))
		}))
	}
	runLoop(t, l)
	if connections != 2 || accepts != 2 || connects != 2 || closed != 7 {
		t.Fatalf("connections %d, accepts %d, connects %d, close callbacks %d (want 7)", connections, accepts, connects, closed)
	}
	closeLoop(t, l)
}

// connection_fail and connection_fail_doesnt_auto_close: a connect (from a bound handle) to
// a port where nobody listens fails with ECONNREFUSED in its callback, from the pending or
// the poll phase, never inside Connect; the loop does not close the handle.
func TestTCPConnectionFail(t *testing.T) {
	for _, closeInCb := range []bool{true, false} {
		name := "close_in_callback"
		if !closeInCb {
			name = "doesnt_auto_close"
		}
		t.Run(name, func(t *testing.T) {
			checkFds(t)
			l := newLoop(t)
			// A port nobody listens on: bind one, note it, close it.
			probe, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, probe.Bind(loopback, 0))
			addr, err := probe.LocalAddr()
			mustOK(t, err)
			probe.Close(nil)

			tcp, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, tcp.Bind(netip.MustParseAddrPort("0.0.0.0:0"), 0))
			connectCbs, closed, timerCbs := 0, 0, 0
			tm := l.NewTimer(func(tm *uvloop.Timer) {
				timerCbs++
				if closed != 0 || connectCbs != 1 {
					t.Errorf("close callbacks %d, connect callbacks %d", closed, connectCbs)
				}
				tcp.Close(func() { closed++ })
				tm.Close(nil)
			})
			mustOK(t, tcp.Connect(addr, func(err error) {
				if !errors.Is(err, syscall.ECONNREFUSED) {
					t.Fatalf("connect: %v, want ECONNREFUSED", err)
				}
				connectCbs++
				if closeInCb {
					tcp.Close(func() { closed++ })
					tm.Close(nil)
				} else {
					mustOK(t, tm.Start(20*time.Millisecond, 0))
				}
			}))
			if connectCbs != 0 {
				t.Fatal("connect callback ran inside Connect")
			}
			runLoop(t, l)
			if connectCbs != 1 || closed != 1 {
				t.Fatalf("connect callbacks %d, close callbacks %d", connectCbs, closed)
			}
			if !closeInCb && timerCbs != 1 {
				t.Fatalf("timer callbacks %d", timerCbs)
			}
			closeLoop(t, l)
		})
	}
}

var _ = bytes.Equal
