package nodehttp_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// The review's differential scenarios: a nodehttp client and server on one loop, run on
// epoll and on io_uring, each with and without an OS thread of the loop's own; the logs
// must match (each side's lines in its order: see looptest.BySide), and match node v20's where its
// order is deterministic.

// diffModes runs scenario (which must end everything it starts, stop included) in every
// mode and compares each log with want, or with the first mode's if want is nil.
func diffModes(t *testing.T, want []string, scenario func(l *uvloop.Loop, log func(string, ...any)) (stop func())) {
	t.Helper()
	var ref []string
	for _, m := range looptest.Modes {
		l, ok := m.New(t)
		if !ok {
			t.Logf("%s: not available", m.Name)
			continue
		}
		var got []string
		log := func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
		stop := scenario(l, log)
		runGuarded(t, l, func() string { return strings.Join(got, "\n") }, stop)
		if err := l.Close(); err != nil {
			t.Errorf("%s: Close: %v", m.Name, err)
		}
		looptest.Compare(t, m, got, want, &ref)
	}
}

func errText(err error) string {
	if err == nil {
		return "nil"
	}
	var e *nodenet.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return err.Error()
}

var bigBody = bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB

// Keep-alive reuse on one socket: a chunked response, a 1 MiB one read paused then resumed,
// and a chunked POST; "finish" and "close" of both sides in order.
// want is what node v20 prints for the same script.
func TestReviewHTTPKeepAlive(t *testing.T) {
	want := []string{
		"/chunked finish", "/chunked response 200 chunked reused=false", "/chunked end 6", "/chunked close reused=false", "/chunked res close",
		"/big finish", "/big response 200  reused=true", "/big end 1048576", "/big close reused=true", "/big res close",
		"/post finish", "/post response 200  reused=true", "/post end 6", "/post close reused=true", "/post res close",
		"server /chunked finish", "server /chunked close", "server /big finish", "server /big close",
		"server post end 409600", "server /post finish", "server /post close",
	}
	diffModes(t, want, func(l *uvloop.Loop, log func(string, ...any)) func() {
		srv := nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			path := req.URL
			res.OnFinish(func() { log("server %s finish", path) })
			res.OnClose(func() { log("server %s close", path) })
			switch path {
			case "/chunked":
				res.WriteString("a")
				res.WriteString("bb")
				l.SetImmediate(func() { res.EndString("ccc") })
			case "/big":
				res.End(bigBody)
			case "/post":
				n := 0
				req.OnData(func(b []byte) { n += len(b) })
				req.OnEnd(func() { log("server post end %d", n); res.EndString(fmt.Sprint(n)) })
			}
		})
		agent := nodehttp.NewAgent(l, nodehttp.AgentOptions{KeepAlive: true, MaxSockets: 1})
		stop := func() { agent.Destroy(); srv.Close(nil) }
		var do func(i int)
		paths := []string{"/chunked", "/big", "/post"}
		do = func(i int) {
			if i == len(paths) {
				stop()
				return
			}
			path := paths[i]
			method := "GET"
			if path == "/post" {
				method = "POST"
			}
			req := nodehttp.Request(l, nodehttp.RequestOptions{Port: srv.Address().Port, Host: "127.0.0.1", Path: path, Method: method, Agent: agent}, func(res *nodehttp.IncomingMessage) {
				log("%s response %d %s reused=%v", path, res.StatusCode, res.Header("transfer-encoding"), i > 0)
				n := 0
				if path == "/big" {
					res.Pause()
					l.SetImmediate(func() { l.SetImmediate(func() { res.Resume() }) })
				}
				res.OnData(func(b []byte) { n += len(b) })
				res.OnEnd(func() { log("%s end %d", path, n) })
				res.OnClose(func() { log("%s res close", path) })
			})
			req.OnError(func(err error) { log("%s error %s", path, errText(err)) })
			req.OnFinish(func() { log("%s finish", path) })
			req.OnClose(func() {
				log("%s close reused=%v", path, req.ReusedSocket())
				l.SetImmediate(func() { do(i + 1) })
			})
			if path == "/post" {
				req.Write(bigBody[:100<<10])
				req.Write(bigBody[:300<<10])
				req.End(nil)
			} else {
				req.End(nil)
			}
		}
		srv.Listen(0, "127.0.0.1", func() { do(0) })
		return stop
	})
}

// The client destroys the request while the response's body is coming (after its first
// chunk) and while the server's large write is in flight. want is node v20's.
func TestReviewHTTPAbort(t *testing.T) {
	want := []string{"response 200", "data", "res aborted", "req close", "res error ECONNRESET", "res close",
		"server write false false", "server res close finished=false", "server req close"}
	diffModes(t, want, func(l *uvloop.Loop, log func(string, ...any)) func() {
		var srv *nodehttp.Server
		srv = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			res.OnFinish(func() { log("server finish") })
			res.OnClose(func() { log("server res close finished=%v", res.WritableFinished()); srv.Close(nil) })
			req.OnClose(func() { log("server req close") })
			res.WriteString("first")
			l.SetImmediate(func() {
				ok := res.Write(bigBody)
				ok2 := res.Write(bigBody)
				log("server write %v %v", ok, ok2)
			})
		})
		stop := func() { srv.Close(nil) }
		srv.Listen(0, "127.0.0.1", func() {
			req := nodehttp.Get(l, nodehttp.RequestOptions{Port: srv.Address().Port, Host: "127.0.0.1", NoAgent: true}, func(res *nodehttp.IncomingMessage) {
				log("response %d", res.StatusCode)
				first := true
				res.OnData(func(b []byte) {
					if first {
						first = false
						log("data")
						l.SetImmediate(func() { res.Socket().(*nodenet.Socket).Destroy(nil) })
					}
				})
				res.On("aborted", func(...any) { log("res aborted") })
				res.OnError(func(err error) { log("res error %s", errText(err)) })
				res.OnEnd(func() { log("res end") })
				res.OnClose(func() { log("res close") })
			})
			req.OnError(func(err error) { log("req error %s", errText(err)) })
			req.OnClose(func() { log("req close") })
		})
		return stop
	})
}

// A server response written chunk by chunk as "drain" allows, to a client that reads
// paused at first; then a POST upload the client aborts midway, with the server reading it.
// want is node v20's.
func TestReviewHTTPDrainAndUploadAbort(t *testing.T) {
	want := []string{"stream end 4194304", "stream res close", "stream close", "upload error ECONNRESET", "upload close",
		"server drains>0=true", "server stream finish", "server stream close",
		"server upload aborted got>0=true", "server upload res close finished=false", "server upload req error ECONNRESET", "server upload req close"}
	diffModes(t, want, func(l *uvloop.Loop, log func(string, ...any)) func() {
		var srv *nodehttp.Server
		srv = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			switch req.URL {
			case "/stream":
				i, drains := 0, 0
				var more func()
				more = func() {
					for ; i < 16; i++ {
						if !res.Write(bigBody[:256<<10]) {
							i++
							return
						}
					}
					log("server drains>0=%v", drains > 0)
					res.End(nil)
				}
				res.On("drain", func(...any) { drains++; more() })
				res.OnFinish(func() { log("server stream finish") })
				res.OnClose(func() { log("server stream close") })
				more()
			case "/upload":
				n := 0
				req.OnData(func(b []byte) { n += len(b) })
				req.On("aborted", func(...any) { log("server upload aborted got>0=%v", n > 0) })
				req.OnError(func(err error) { log("server upload req error %s", errText(err)) })
				req.OnEnd(func() { log("server upload end") })
				req.OnClose(func() { log("server upload req close") })
				res.OnClose(func() { log("server upload res close finished=%v", res.WritableFinished()); srv.Close(nil) })
			}
		})
		stop := func() { srv.Close(nil) }
		srv.Listen(0, "127.0.0.1", func() {
			port := srv.Address().Port
			get := nodehttp.Get(l, nodehttp.RequestOptions{Port: port, Host: "127.0.0.1", Path: "/stream", NoAgent: true}, func(res *nodehttp.IncomingMessage) {
				n := 0
				res.Pause()
				l.SetImmediate(func() { l.SetImmediate(func() { res.Resume() }) })
				res.OnData(func(b []byte) { n += len(b) })
				res.OnEnd(func() { log("stream end %d", n) })
				res.OnClose(func() { log("stream res close") })
			})
			get.OnClose(func() {
				log("stream close")
				up := nodehttp.Request(l, nodehttp.RequestOptions{Port: port, Host: "127.0.0.1", Path: "/upload", Method: "POST", NoAgent: true}, func(*nodehttp.IncomingMessage) {
					log("upload response")
				})
				up.OnError(func(err error) { log("upload error %s", errText(err)) })
				up.OnClose(func() { log("upload close") })
				up.Write(bigBody)
				up.Write(bigBody)
				l.SetImmediate(func() { up.Destroy(nil) })
			})
		})
		return stop
	})
}

// Raw clients of a nodehttp server: one sends a request and half-closes at once (the
// server still answers, then closes); one sends two pipelined requests, the second with a
// chunked body, and reads the answers paused at first; then server.close() with a
// keep-alive connection idle, and closeIdleConnections. (node v20 prints the same but for
// the pipelined pair: "/p1 res close" before "/p2 body 6", a difference nodehttp's package
// doc describes: http1 dispatches the next request once the one before it ended.)
func TestReviewHTTPRawClients(t *testing.T) {
	diffModes(t, nil, func(l *uvloop.Loop, log func(string, ...any)) func() {
		srv := nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			url := req.URL
			n := 0
			req.OnData(func(b []byte) { n += len(b) })
			req.OnEnd(func() {
				log("server %s body %d", url, n)
				res.WriteString(url + " ")
				res.EndString(fmt.Sprint(n))
			})
			res.OnClose(func() { log("server %s res close", url) })
		})
		stop := func() { srv.Close(nil) }
		raw := func(name, send string, end bool, then func()) {
			c := nodenet.Connect(l, srv.Address().Port, "127.0.0.1", nil)
			var all []byte
			c.Pause()
			l.SetImmediate(func() { l.SetImmediate(func() { c.Resume() }) })
			c.OnData(func(b []byte) { all = append(all, b...) })
			c.OnError(func(err error) { log("%s error %s", name, errText(err)) })
			c.OnEnd(func() {
				var bodies []string
				for _, part := range strings.Split(string(all), "HTTP/1.1 ")[1:] {
					head, body, _ := strings.Cut(part, "\r\n\r\n")
					bodies = append(bodies, strings.SplitN(head, "\r\n", 2)[0]+": "+strings.ReplaceAll(body, "\r\n", "|"))
				}
				log("%s end %q", name, bodies)
			})
			c.OnClose(func(had bool) { log("%s close %v", name, had); then() })
			c.WriteString(send, nil)
			if end {
				c.End(nil)
			}
		}
		srv.Listen(0, "127.0.0.1", func() {
			raw("halfclose", "GET /h HTTP/1.1\r\nHost: x\r\n\r\n", true, func() {
				raw("pipelined", "POST /p1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"+
					"POST /p2 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"+
					"4\r\nwxyz\r\n2\r\n12\r\n0\r\n\r\n", false, func() {
					agent := nodehttp.NewAgent(l, nodehttp.AgentOptions{KeepAlive: true})
					req := nodehttp.Get(l, nodehttp.RequestOptions{Port: srv.Address().Port, Host: "127.0.0.1", Path: "/k", Agent: agent}, func(res *nodehttp.IncomingMessage) {
						res.OnData(func([]byte) {})
						res.OnEnd(func() {
							log("keepalive end")
							l.SetImmediate(func() {
								srv.Close(func(err error) { log("server closed %v", err); agent.Destroy() })
								srv.CloseIdleConnections()
							})
						})
					})
					req.OnClose(func() { log("keepalive close") })
				})
			})
		})
		return stop
	})
}

// Requests aborted through an AbortSignal: on "socket" (while connecting), and after the
// response's head with the body coming; then a request on the same keep-alive agent. want
// is node v20's.
func TestReviewHTTPSignalAbort(t *testing.T) {
	want := []string{"/early error abort=true", "/early close", "/slow response", "/slow error abort=true",
		"/slow res aborted", "/slow close", "/slow res error ECONNRESET", "/slow res close",
		"/ok response", "/ok res end", "/ok close", "/ok res close",
		"server /slow res close finished=false", "server /ok res close finished=true"}
	diffModes(t, want, func(l *uvloop.Loop, log func(string, ...any)) func() {
		srv := nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			url := req.URL
			res.OnClose(func() { log("server %s res close finished=%v", url, res.WritableFinished()) })
			if url == "/slow" {
				res.WriteString("head")
				return // the client aborts
			}
			res.EndString("ok")
		})
		agent := nodehttp.NewAgent(l, nodehttp.AgentOptions{KeepAlive: true, MaxSockets: 1})
		stop := func() { agent.Destroy(); srv.Close(nil) }
		get := func(path string, then func()) *nodehttp.ClientRequest {
			ac := nodeevents.NewAbortController()
			req := nodehttp.Get(l, nodehttp.RequestOptions{Port: srv.Address().Port, Host: "127.0.0.1", Path: path, Agent: agent, Signal: ac.Signal()}, func(res *nodehttp.IncomingMessage) {
				log("%s response", path)
				res.OnData(func([]byte) {
					if path == "/slow" {
						ac.Abort()
					}
				})
				res.On("aborted", func(...any) { log("%s res aborted", path) })
				res.OnError(func(err error) { log("%s res error %s", path, errText(err)) })
				res.OnEnd(func() { log("%s res end", path) })
				res.OnClose(func() { log("%s res close", path) })
			})
			req.OnError(func(err error) {
				var ae *nodeevents.AbortError
				log("%s error abort=%v", path, errors.As(err, &ae))
			})
			req.OnClose(func() { log("%s close", path); l.SetImmediate(then) })
			if path == "/early" {
				req.On("socket", func(...any) { ac.Abort() })
			}
			return req
		}
		srv.Listen(0, "127.0.0.1", func() {
			get("/early", func() { get("/slow", func() { get("/ok", stop) }) })
		})
		return stop
	})
}
