package nodehttp_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// atMark is a body of exactly a message's high-water mark (16 KiB): read while the message
// is paused, the push of its last byte stops the socket, and its end is parsed in the same
// read, whatever the reads' sizes. (A longer body stops the socket before its end.)
var atMark = bytes.Repeat([]byte("0123456789abcdef"), 1<<10)

// eachBackend runs test on a loop of each backend, as a subtest named after it; a backend
// that does not open here (io_uring off Linux or refused) is skipped.
func eachBackend(t *testing.T, test func(t *testing.T, l *uvloop.Loop)) {
	for _, b := range []uvloop.Backend{uvloop.BackendEpoll, uvloop.BackendIOURing} {
		t.Run(b.String(), func(t *testing.T) {
			l, err := uvloop.New(uvloop.WithBackend(b))
			if err != nil {
				t.Skip(err)
			}
			test(t, l)
			if err := l.Close(); err != nil {
				t.Error(err)
			}
		})
	}
}

// whenComplete runs fn from an immediate once m was received whole (the test reads a body
// paused until then).
func whenComplete(l *uvloop.Loop, m *nodehttp.IncomingMessage, fn func()) {
	l.SetImmediate(func() {
		if m.Complete {
			fn()
			return
		}
		whenComplete(l, m, fn)
	})
}

// TestClientPausedResponseKeepAlive: a response read paused to its end stops its socket (its
// buffer reached the high-water mark); the socket, back in the agent, must read again, as
// Node's parser restarts reading at each message's end: the next request on it gets its
// response. (It stayed paused, and the second GET hung.)
func TestClientPausedResponseKeepAlive(t *testing.T) {
	eachBackend(t, func(t *testing.T, l *uvloop.Loop) {
		srv := nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			if req.URL == "/big" {
				res.End(atMark)
				return
			}
			res.EndString("small")
		})
		agent := nodehttp.NewAgent(l, nodehttp.AgentOptions{KeepAlive: true, MaxSockets: 1})
		var log []string
		finish := func() { agent.Destroy(); srv.Close(nil) }
		get := func(port int, path string, then func(body string)) {
			req := nodehttp.Get(l, nodehttp.RequestOptions{Port: port, Path: path, Agent: agent}, func(res *nodehttp.IncomingMessage) {
				res.Pause()
				whenComplete(l, res, func() {
					var body []byte
					res.OnData(func(b []byte) { body = append(body, b...) })
					res.On("end", func(...any) { then(string(body)) })
					res.Resume()
				})
			})
			req.OnError(func(err error) { log = append(log, path+": "+err.Error()); finish() })
			req.On("socket", func(a ...any) {
				if s := a[0].(*nodenet.Socket); req.ReusedSocket() && s.IsPaused() {
					log = append(log, path+": the reused socket is paused")
					finish()
				}
			})
		}
		srv.Listen(0, "127.0.0.1", func() {
			port := srv.Address().Port
			get(port, "/big", func(body string) {
				log = append(log, fmt.Sprintf("/big: %d bytes, intact %v", len(body), body == string(atMark)))
				l.SetImmediate(func() { // after the socket went back to the agent
					get(port, "/small", func(body string) {
						log = append(log, "/small: "+body)
						finish()
					})
				})
			})
		})
		runGuarded(t, l, func() string { return strings.Join(log, "\n") }, finish)
		want := "/big: 16384 bytes, intact true\n/small: small"
		if got := strings.Join(log, "\n"); got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	})
}

// runGuarded runs l to its end; if it has not ended after 30 s (a hang: the test's
// assertions are on what the loop logged, never on time), it logs state() and stops the
// test's handles with stop.
func runGuarded(t *testing.T, l *uvloop.Loop, state func() string, stop func()) {
	t.Helper()
	done := make(chan error, 1)
	go func() { _, err := l.Run(uvloop.RunDefault); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
		return
	case <-time.After(30 * time.Second):
	}
	snap := make(chan string, 1)
	l.Post(func() {
		snap <- state()
		stop()
		l.Walk(func(h uvloop.Handle) { h.Close(nil) })
	})
	t.Errorf("the loop hangs; so far:\n%s", <-snap)
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// TestServerPausedRequestKeepAlive: a request's body read paused to its end stops the
// connection (the buffer reached the high-water mark); once the body is in, the connection
// must read again, as Node's does at each message's end: the next request on it is
// answered. (The connection stayed paused, and the second request waited forever.)
func TestServerPausedRequestKeepAlive(t *testing.T) {
	eachBackend(t, func(t *testing.T, l *uvloop.Loop) {
		srv := nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			if req.URL != "/up" {
				res.EndString("next")
				return
			}
			req.Pause()
			whenComplete(l, req, func() {
				n := 0
				req.OnData(func(b []byte) { n += len(b) })
				req.On("end", func(...any) { res.EndString("got " + strconv.Itoa(n)) })
				req.Resume()
			})
		})
		addr := make(chan string, 1)
		srv.Listen(0, "127.0.0.1", func() { addr <- fmt.Sprintf("127.0.0.1:%d", srv.Address().Port) })
		l.Run(uvloop.RunNoWait) // the listening tick
		client := make(chan string, 1)
		go func() {
			var got []string
			defer func() {
				client <- strings.Join(got, "\n")
				l.Post(func() { srv.Close(nil); srv.CloseAllConnections() })
			}()
			c, err := net.Dial("tcp", <-addr)
			if err != nil {
				got = append(got, err.Error())
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(30 * time.Second)) // a hang guard only
			br := bufio.NewReader(c)
			for _, r := range []string{
				"POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 16384\r\n\r\n" + string(atMark),
				"GET /next HTTP/1.1\r\nHost: x\r\n\r\n",
			} {
				if _, err := io.WriteString(c, r); err != nil {
					got = append(got, err.Error())
					return
				}
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					got = append(got, err.Error())
					return
				}
				b, err := io.ReadAll(res.Body)
				if err != nil {
					got = append(got, err.Error())
					return
				}
				got = append(got, fmt.Sprint(res.StatusCode, " ", string(b)))
			}
		}()
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Error(err)
		}
		want := "200 got 16384\n200 next"
		if got := <-client; got != want {
			t.Errorf("the client read:\n%s\nwant:\n%s", got, want)
		}
	})
}
