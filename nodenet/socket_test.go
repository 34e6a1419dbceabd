package nodenet

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/uvgo/uvgo/uvloop"
)

// listen starts a server on 127.0.0.1:0 and calls then once it listens.
func listen(t *testing.T, l *uvloop.Loop, onConn func(*Socket), then func(s *Server, port int)) *Server {
	t.Helper()
	s := CreateServer(l, onConn)
	s.OnError(func(err error) { t.Errorf("server error: %v", err) })
	s.Listen(0, "127.0.0.1", func() { then(s, s.Address().Port) })
	return s
}

// An echo round trip; 'data' hands a copy the listener owns, and the order of events on
// both sides is Node's.
func TestEcho(t *testing.T) {
	var got []string
	var kept [][]byte
	run(t, func(l *uvloop.Loop) {
		listen(t, l, func(sock *Socket) {
			sock.OnData(func(b []byte) { sock.Write(b, nil) })
			sock.OnEnd(func() { got = append(got, "server end") })
			sock.OnClose(func(hadError bool) {
				got = append(got, "server close")
				if hadError {
					t.Error("server socket closed with an error")
				}
			})
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", func() { got = append(got, "connect") })
			c.OnError(func(err error) { t.Errorf("client error: %v", err) })
			c.WriteString("ping", nil)
			c.OnData(func(b []byte) {
				kept = append(kept, b)
				got = append(got, "data "+string(b))
				c.End(nil)
			})
			c.OnEnd(func() { got = append(got, "client end") })
			c.OnFinish(func() { got = append(got, "client finish") })
			c.OnClose(func(bool) {
				got = append(got, "client close")
				s.Close(nil)
			})
		})
	})
	// As node prints it (the same script in JS, 6 runs).
	want := []string{"connect", "data ping", "client finish", "server end", "server close", "client end", "client close"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if len(kept) != 1 || string(kept[0]) != "ping" {
		t.Errorf("kept %q: the data handed out was overwritten", kept)
	}
}

// Writes made while connecting wait for "connect" in a listener of their own, added by
// the first of them: a connect listener added before runs first, and what it writes waits
// behind them. The first write's callback runs at once, inside that listener; the others'
// from a nextTick, after the ticks the connect listener queued. Found by cmd/uvfuzz; node
// v20 prints the same order and receives the same bytes for the same script.
func TestWritesWhileConnecting(t *testing.T) {
	var got []string
	var wire []byte
	log := func(s string) { got = append(got, s) }
	run(t, func(l *uvloop.Loop) {
		listen(t, l, func(sock *Socket) {
			sock.OnData(func(b []byte) {
				wire = append(wire, b...)
				sock.Write(b, nil)
			})
		}, func(s *Server, port int) {
			var c *Socket
			c = Connect(l, port, "127.0.0.1", func() {
				log("connect")
				c.WriteString("jkl", func(error) { log("w4") })
				l.NextTick(func() { log("K-connect") })
			})
			c.WriteString("abc", func(error) {
				log("w1")
				l.NextTick(func() { log("K-w1") })
			})
			l.NextTick(func() { log("K1") })
			c.WriteString("def", func(error) { log("w2") })
			c.OnConnect(func() { log("connect 2") })
			c.WriteString("ghi", func(error) { log("w3") })
			n := 0
			c.OnData(func(b []byte) {
				if n += len(b); n == 12 {
					c.End(nil)
				}
			})
			c.OnClose(func(bool) { s.Close(nil) })
		})
	})
	want := []string{"K1", "connect", "w1", "connect 2", "K-connect", "w2", "w3", "w4", "K-w1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if string(wire) != "abcdefghijkl" {
		t.Errorf("the server read %q", wire)
	}
}

// Write copies what it cannot write at once: the caller may reuse the buffer right away.
// Write returns false past the high-water mark, 'drain' comes before the callback of the
// write that drained the queue, and every byte arrives intact.
func TestWriteCopiesAndDrains(t *testing.T) {
	const size = 8 << 20
	var got []string
	var recv bytes.Buffer
	run(t, func(l *uvloop.Loop) {
		listen(t, l, func(sock *Socket) {
			buf := bytes.Repeat([]byte("abcdefgh"), size/8)
			ok := sock.Write(buf, func(err error) {
				got = append(got, "write callback")
				if err != nil {
					t.Errorf("write: %v", err)
				}
				sock.End(nil)
			})
			got = append(got, "write returned "+map[bool]string{true: "true", false: "false"}[ok])
			clear(buf) // the socket must not see this
			sock.OnDrain(func() { got = append(got, "drain") })
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.OnData(func(b []byte) { recv.Write(b) })
			c.OnEnd(func() { got = append(got, "client end") })
			c.OnClose(func(bool) { s.Close(nil) })
		})
	})
	want := []string{"write returned false", "drain", "write callback", "client end"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if recv.Len() != size || !bytes.Equal(recv.Bytes(), bytes.Repeat([]byte("abcdefgh"), size/8)) {
		t.Errorf("received %d bytes, not the %d written", recv.Len(), size)
	}
}

func TestConnectRefused(t *testing.T) {
	var got []string
	run(t, func(l *uvloop.Loop) {
		probe := CreateServer(l, nil)
		probe.Listen(0, "127.0.0.1", func() {
			port := probe.Address().Port
			probe.Close(func(error) {
				c := Connect(l, port, "127.0.0.1", func() { t.Error("connected") })
				c.OnError(func(err error) {
					got = append(got, "error")
					var e *Error
					if !errors.As(err, &e) || e.Code != "ECONNREFUSED" || e.Syscall != "connect" || e.Port != port {
						t.Errorf("error %#v", err)
					}
					if !errors.Is(err, syscall.ECONNREFUSED) {
						t.Errorf("%v does not wrap ECONNREFUSED", err)
					}
				})
				c.OnClose(func(hadError bool) {
					got = append(got, "close")
					if !hadError {
						t.Error("close: hadError false")
					}
				})
			})
		})
	})
	if !reflect.DeepEqual(got, []string{"error", "close"}) {
		t.Errorf("got %q", got)
	}
}

// Without an 'error' listener a refused connection panics (Node throws): Run returns a
// *uvloop.PanicError that wraps the error, and the loop can still be closed cleanly.
func TestConnectRefusedUnhandled(t *testing.T) {
	before := openFds()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	probe := CreateServer(l, nil)
	probe.Listen(0, "127.0.0.1", func() {
		port := probe.Address().Port
		probe.Close(func(error) { Connect(l, port, "127.0.0.1", nil) })
	})
	_, err = l.Run(uvloop.RunDefault)
	var pe *uvloop.PanicError
	if !errors.As(err, &pe) || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("Run: %v", err)
	}
	closeLoop(t, l)
	if after := openFds(); before >= 0 && after != before {
		t.Errorf("fds: %d before, %d after", before, after)
	}
}

func TestWriteAfterEnd(t *testing.T) {
	var got []string
	run(t, func(l *uvloop.Loop) {
		var srv *Server
		srv = listen(t, l, func(sock *Socket) {
			sock.OnData(func([]byte) {})
			sock.OnClose(func(bool) { srv.Close(nil) })
		}, func(s *Server, port int) {
			var c *Socket
			c = Connect(l, port, "127.0.0.1", func() {
				c.EndString("x")
				if c.WriteString("y", func(err error) {
					got = append(got, "callback")
					if !errors.Is(err, ErrWriteAfterEnd) {
						t.Errorf("callback: %v", err)
					}
				}) {
					t.Error("Write after End returned true")
				}
			})
			c.OnError(func(err error) {
				got = append(got, "error")
				if !errors.Is(err, ErrWriteAfterEnd) {
					t.Errorf("error: %v", err)
				}
			})
			c.OnClose(func(bool) { got = append(got, "close") })
		})
	})
	if !reflect.DeepEqual(got, []string{"callback", "error", "close"}) {
		t.Errorf("got %q", got)
	}
}

// Server.Close with connections open: the close callback waits for them.
func TestServerCloseWaitsForConnections(t *testing.T) {
	var got []string
	run(t, func(l *uvloop.Loop) {
		var srv *Server
		srv = listen(t, l, func(sock *Socket) {
			srv.Close(func(err error) {
				got = append(got, "server closed")
				if err != nil {
					t.Errorf("close callback: %v", err)
				}
			})
			if srv.Listening() || srv.Connections() != 1 {
				t.Error("after Close: still listening, or connection not counted")
			}
			l.SetTimeout(func() {
				got = append(got, "destroy")
				sock.Destroy(nil)
			}, 20*time.Millisecond)
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.OnEnd(func() { got = append(got, "client end") })
		})
	})
	want := []string{"destroy", "server closed", "client end"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestServerCloseNotRunning(t *testing.T) {
	var got error
	run(t, func(l *uvloop.Loop) {
		CreateServer(l, nil).Close(func(err error) { got = err })
	})
	if !errors.Is(got, ErrServerNotRunning) {
		t.Errorf("got %v", got)
	}
}

func TestListenAddrInUse(t *testing.T) {
	var got error
	run(t, func(l *uvloop.Loop) {
		listen(t, l, nil, func(s *Server, port int) {
			s2 := CreateServer(l, nil)
			s2.OnError(func(err error) {
				got = err
				s.Close(nil)
			})
			s2.Listen(port, "127.0.0.1", func() { t.Error("second listen succeeded") })
		})
	})
	var e *Error
	if !errors.As(got, &e) || e.Code != "EADDRINUSE" || !errors.Is(got, syscall.EADDRINUSE) {
		t.Errorf("got %#v", got)
	}
}

// With AllowHalfOpen the server socket still writes after the client ended its side.
func TestAllowHalfOpen(t *testing.T) {
	var reply string
	run(t, func(l *uvloop.Loop) {
		srv := listen(t, l, func(sock *Socket) {
			var req []byte
			sock.OnData(func(b []byte) { req = append(req, b...) })
			sock.OnEnd(func() {
				l.SetTimeout(func() { sock.EndString("got " + string(req)) }, 5*time.Millisecond)
			})
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.AllowHalfOpen = true
			c.EndString("question")
			c.SetEncoding("utf8")
			c.On("data", func(a ...any) { reply += a[0].(string) })
			c.OnClose(func(bool) { s.Close(nil) })
		})
		srv.AllowHalfOpen = true
	})
	if reply != "got question" {
		t.Errorf("reply %q", reply)
	}
}

// A UTF-8 character split between two reads arrives whole.
func TestSetEncodingSplitCharacter(t *testing.T) {
	var chunks []string
	run(t, func(l *uvloop.Loop) {
		listen(t, l, func(sock *Socket) {
			sock.Write([]byte("a\xc3"), nil)
			l.SetTimeout(func() { sock.End([]byte("\xa9b")) }, 20*time.Millisecond)
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			if err := c.SetEncoding("bogus"); !errors.Is(err, ErrUnknownEncoding) {
				t.Errorf("SetEncoding(bogus): %v", err)
			}
			c.SetEncoding("utf8")
			c.On("data", func(a ...any) { chunks = append(chunks, a[0].(string)) })
			c.OnClose(func(bool) { s.Close(nil) })
		})
	})
	if !reflect.DeepEqual(chunks, []string{"a", "éb"}) {
		t.Errorf("chunks %q", chunks)
	}
	for _, c := range chunks {
		if !utf8.ValidString(c) {
			t.Errorf("invalid UTF-8 in %q", c)
		}
	}
}

// A paused socket buffers; Resume hands the buffer to 'data' from a nextTick, then 'end'.
func TestPauseResume(t *testing.T) {
	var got []string
	run(t, func(l *uvloop.Loop) {
		listen(t, l, func(sock *Socket) { sock.EndString("hello") }, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.Pause()
			c.OnData(func(b []byte) { got = append(got, "data "+string(b)) })
			c.OnEnd(func() { got = append(got, "end") })
			c.OnClose(func(bool) { s.Close(nil) })
			l.SetTimeout(func() {
				got = append(got, "resume")
				c.Resume()
				got = append(got, "resume returned")
			}, 30*time.Millisecond)
		})
	})
	want := []string{"resume", "resume returned", "data hello", "end"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// The same round trip over a Unix domain socket.
func TestPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	var reply strings.Builder
	run(t, func(l *uvloop.Loop) {
		srv := CreateServer(l, func(sock *Socket) {
			sock.OnData(func(b []byte) { sock.Write(b, nil) })
		})
		srv.OnError(func(err error) { t.Errorf("server: %v", err) })
		srv.ListenPath(path, func() {
			if a := srv.Address(); a == nil || a.Address != path {
				t.Errorf("Address() = %v", a)
			}
			c := ConnectPath(l, path, nil)
			c.OnError(func(err error) { t.Errorf("client: %v", err) })
			c.EndString("over a pipe")
			c.OnData(func(b []byte) { reply.Write(b) })
			c.OnClose(func(bool) { srv.Close(nil) })
		})
	})
	if reply.String() != "over a pipe" {
		t.Errorf("reply %q", reply.String())
	}
}

// Many clients at once, each echoed and closed; the server closes after the last one.
func TestManyConnections(t *testing.T) {
	const n = 50
	done := 0
	run(t, func(l *uvloop.Loop) {
		listen(t, l, func(sock *Socket) {
			sock.OnData(func(b []byte) { sock.Write(b, nil) })
		}, func(s *Server, port int) {
			for i := range n {
				msg := strings.Repeat("x", i+1)
				c := Connect(l, port, "127.0.0.1", nil)
				c.OnError(func(err error) { t.Errorf("client %d: %v", i, err) })
				c.WriteString(msg, nil)
				var got []byte
				c.OnData(func(b []byte) {
					if got = append(got, b...); len(got) == len(msg) {
						c.End(nil)
					}
				})
				c.OnClose(func(bool) {
					if string(got) != msg {
						t.Errorf("client %d got %q", i, got)
					}
					if done++; done == n {
						s.Close(func(err error) {
							if err != nil || s.Connections() != 0 {
								t.Errorf("close: %v, %d connections", err, s.Connections())
							}
						})
					}
				})
			}
		})
	})
	if done != n {
		t.Errorf("%d of %d clients done", done, n)
	}
}

// Writes still waiting when a connecting socket is destroyed are not lost: each callback gets
// ErrDestroyed (from a nextTick), and their bytes leave the buffered amount.
func TestDestroyWhileConnectingEndsWrites(t *testing.T) {
	var errs []error
	buffered := -1
	run(t, func(l *uvloop.Loop) {
		listen(t, l, func(*Socket) {}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.WriteString("abc", func(err error) { errs = append(errs, err) })
			c.WriteString("def", func(err error) { errs = append(errs, err) })
			c.Destroy(nil)
			buffered = c.BufferedAmount()
			c.OnClose(func(bool) { s.Close(nil) })
		})
	})
	if len(errs) != 2 || errs[0] != ErrDestroyed || errs[1] != ErrDestroyed {
		t.Errorf("write callbacks got %v, want ErrDestroyed twice", errs)
	}
	if buffered != 0 {
		t.Errorf("buffered amount %d after Destroy, want 0", buffered)
	}
}
