package conformance

import (
	"errors"
	"strconv"
	"strings"

	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the scenarios that use Node's http module, on package nodehttp: http.createServer
// is nodehttp.CreateServer, http.request/http.get are nodehttp.Request/Get with
// RequestOptions, `agent: false` is NoAgent, and a header read as res.headers[name] is
// Headers()[name] (undefined when absent).

// jsHeader prints a header value as console.log prints it (undefined when absent).
func jsHeader(v any) any {
	if v == nil {
		return "undefined"
	}
	return v
}

// 250: one POST exchange on a keep-alive agent, both sides' events in Node's order.
func httpRequestResponseCycle(l *uvloop.Loop, out func(string)) func() {
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		h := req.Headers()
		out(logLine("server: request", req.Method, req.URL, req.HTTPVersion,
			jsonString(h["content-type"].(string)), jsonString(h["content-length"].(string))))
		req.OnData(func(d []byte) { out(logLine("server: req data", jsonString(string(d)))) })
		req.OnEnd(func() {
			out(logLine("server: req end, complete", req.Complete))
			res.SetHeader("X-A", "1")
			res.WriteString("hello ")
			out(logLine("server: headersSent", res.HeadersSent()))
			res.EndString("world")
			out(logLine("server: end() returned, writableEnded", res.WritableEnded()))
		})
		req.OnClose(func() { out("server: req close") })
		res.OnFinish(func() { out("server: res finish") })
		res.OnClose(func() { out("server: res close") })
		l.NextTick(func() { out("server: nextTick from the request listener") })
	})
	server.OnConnection(func(*nodehttp.Socket) { out("server: connection") })
	server.OnClose(func() { out("server: close") })

	server.Listen(0, "127.0.0.1", func() {
		out("server: listening")
		req := nodehttp.Request(l, nodehttp.RequestOptions{
			Port: server.Address().Port, Host: "127.0.0.1", Method: "POST", Path: "/x?y=1",
			Headers: []string{"Content-Type", "text/plain", "Content-Length", "4"},
		}, func(res *nodehttp.IncomingMessage) {
			h := res.Headers()
			out(logLine("client: response", res.StatusCode, res.StatusMessage, res.HTTPVersion,
				jsHeader(h["transfer-encoding"]), jsHeader(h["x-a"]), jsHeader(h["connection"])))
			res.OnData(func(d []byte) { out(logLine("client: data", jsonString(string(d)))) })
			res.OnEnd(func() {
				out("client: end")
				server.Close(func(error) { out("server: close callback") })
			})
			res.OnClose(func() { out("client: res close") })
		})
		req.On("socket", func(...any) { out("client: socket") })
		req.OnFinish(func() { out("client: req finish") })
		req.OnClose(func() { out("client: req close") })
		req.WriteString("ab")
		req.EndString("cd")
		out("client: end() returned")
	})
	return nil
}

// rawClient connects with package nodenet, writes bytes once connected and gathers what
// comes back as latin1; done gets it at 'end' (atClose: at 'close').
func rawClient(l *uvloop.Loop, port int, bytes string, atClose bool, done func(all string)) {
	var sock *nodenet.Socket
	sock = nodenet.Connect(l, port, "127.0.0.1", func() { sock.WriteString(bytes, nil) })
	var all strings.Builder
	sock.SetEncoding("latin1")
	sock.On("data", func(a ...any) { all.WriteString(a[0].(string)) })
	if atClose {
		sock.OnClose(func(bool) { done(all.String()) })
	} else {
		sock.OnEnd(func() { done(all.String()) })
	}
}

// 251: two requests in one packet: both 'request' events from the same read callback,
// responses in order, each 'finish' a tick after its end().
func httpPipelinedPair(l *uvloop.Loop, out func(string)) func() {
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		out(logLine("server: request", req.URL))
		url := req.URL
		res.OnFinish(func() { out(logLine("server: finish", url)) })
		res.OnClose(func() { out(logLine("server: close", url)) })
		res.SetHeader("Content-Type", "text/plain")
		res.EndString("body of " + url)
		out(logLine("server: end() returned", url))
	})
	server.Listen(0, "127.0.0.1", func() {
		rawClient(l, server.Address().Port,
			"GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", false,
			func(all string) {
				for _, line := range strings.Split(all, "\r\n") {
					if !strings.HasPrefix(line, "Date:") {
						out(logLine("client:", jsonString(line)))
					}
				}
				server.Close(func(error) { out("server: closed") })
			})
	})
	return nil
}

// 252: a malformed request: a 'clientError' listener answers on the socket; without one
// the server writes Node's bare 400 and closes.
func httpClientError(l *uvloop.Loop, out func(string)) func() {
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(*nodehttp.IncomingMessage, *nodehttp.ServerResponse) {
		out("request (unexpected)")
	})
	server.Once("clientError", func(a ...any) {
		err, sock := a[0].(*nodenet.Error), a[1].(*nodehttp.Socket)
		out(logLine("clientError", err.Code, err.Message, "socket writable", !sock.Destroyed()))
		sock.EndString("HTTP/1.1 400 Bad Request\r\nContent-Length: 3\r\n\r\nbad")
	})
	server.Listen(0, "127.0.0.1", func() {
		port := server.Address().Port
		bad := "GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"
		rawClient(l, port, bad, true, func(all string) {
			out(logLine("with listener: got", jsonString(all)))
			rawClient(l, port, bad, true, func(all string) {
				out(logLine("without listener: got", jsonString(all)))
				server.Close(func(error) { out("server closed") })
			})
		})
	})
	return nil
}

// 253: server.close() with idle keep-alive connections: they close at once, and 'close'
// follows once the last is gone.
func httpServerCloseIdleKeepAlive(l *uvloop.Loop, out func(string)) func() {
	agent := nodehttp.NewAgent(l, nodehttp.AgentOptions{KeepAlive: true})
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		res.EndString("ok " + req.URL)
	})
	server.OnConnection(func(s *nodehttp.Socket) {
		out("server: connection")
		s.OnClose(func(bool) { out("server: socket close") })
	})
	server.OnClose(func() { out("server: close event") })
	server.Listen(0, "127.0.0.1", func() {
		port := server.Address().Port
		done := 0
		for _, path := range []string{"/1", "/2"} {
			req := nodehttp.Get(l, nodehttp.RequestOptions{Port: port, Host: "127.0.0.1", Path: path, Agent: agent},
				func(res *nodehttp.IncomingMessage) {
					res.OnData(func(d []byte) { out(logLine("client: data", string(d))) })
					res.OnEnd(func() { out(logLine("client: end", path)) })
				})
			req.On("socket", func(a ...any) {
				a[0].(*nodenet.Socket).Once("close", func(...any) { out("client: socket close") })
			})
			req.OnClose(func() {
				out(logLine("client: req close", path))
				if done++; done == 2 {
					l.SetImmediate(func() {
						out(logLine("free sockets", agent.FreeSockets("127.0.0.1", port)))
						server.Close(func(error) { out("server: close callback") })
						out(logLine("close() returned, listening", server.Listening()))
					})
				}
			})
		}
	})
	return nil
}

// 254: 'finish' then 'close' for a response that ends; only 'close' (and the request's
// 'aborted' and 'close') when the client goes away in the middle.
func httpFinishVsClose(l *uvloop.Loop, out func(string)) func() {
	n := 0
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		n++
		id := n
		res.OnFinish(func() { out(logLine(id, "res finish")) })
		res.OnClose(func() {
			out(logLine(id, "res close, writableFinished", res.WritableFinished()))
			if id == 2 {
				server.Close(func(error) { out("server closed") })
			}
		})
		req.On("aborted", func(...any) { out(logLine(id, "req aborted")) })
		req.OnClose(func() { out(logLine(id, "req close")) })
		if id == 1 {
			res.EndString("done")
		} else {
			res.WriteString("part")
		}
	})
	server.Listen(0, "127.0.0.1", func() {
		port := server.Address().Port
		nodehttp.Get(l, nodehttp.RequestOptions{Port: port, Host: "127.0.0.1", NoAgent: true}, func(res *nodehttp.IncomingMessage) {
			res.Resume()
			res.OnEnd(func() {
				out("client 1: end")
				var req2 *nodehttp.ClientRequest
				req2 = nodehttp.Get(l, nodehttp.RequestOptions{Port: port, Host: "127.0.0.1", NoAgent: true}, func(res2 *nodehttp.IncomingMessage) {
					res2.Once("data", func(a ...any) {
						out(logLine("client 2: data", string(a[0].([]byte))))
						req2.Destroy(nil)
					})
				})
				req2.OnError(func(err error) {
					e := err.(*nodenet.Error)
					out(logLine("client 2: error", e.Code, e.Message))
				})
				req2.OnClose(func() { out("client 2: close") })
			})
		})
	})
	return nil
}

// 255: a response written in pieces without a length goes chunked.
func httpChunkedResponse(l *uvloop.Loop, out func(string)) func() {
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		res.SetHeader("Content-Type", "text/plain")
		res.WriteString("one,")
		l.SetImmediate(func() {
			res.WriteString("two,")
			l.SetImmediate(func() { res.EndString("three") })
		})
	})
	server.Listen(0, "127.0.0.1", func() {
		port := server.Address().Port
		nodehttp.Get(l, nodehttp.RequestOptions{Port: port, Host: "127.0.0.1", NoAgent: true}, func(res *nodehttp.IncomingMessage) {
			h := res.Headers()
			out(logLine("client: response", res.StatusCode, jsHeader(h["transfer-encoding"]), jsHeader(h["content-length"])))
			res.OnData(func(d []byte) { out(logLine("client: data", jsonString(string(d)))) })
			res.OnEnd(func() {
				out("client: end")
				rawClient(l, port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", false, func(all string) {
					if i := strings.Index(all, "Date: "); i >= 0 {
						if j := strings.Index(all[i:], "\r\n"); j >= 0 {
							all = all[:i] + all[i+j+2:]
						}
					}
					out(logLine("raw:", jsonString(all)))
					server.Close(func(error) { out("server closed") })
				})
			})
		})
	})
	return nil
}

var _ = strconv.Itoa

// 256: a request listener panics under an 'uncaughtException' listener: that connection's
// next bytes are a clientError (HPE_CB_HEADERS_COMPLETE), answered by Node's bare 400
// without a 'clientError' listener; a response ended before the panic, or by a later
// callback, still goes out keep-alive, and the next bytes get the 400; other connections
// are served.
func httpListenerThrows(p *nodeprocess.Process, out func(string)) {
	l := p.Loop()
	var second func()
	p.OnUncaughtException(func(err any, origin string) {
		out(logLine("uncaughtException:", err))
		if second != nil {
			s := second
			second = nil
			s()
		}
	})
	p.OnExit(func(code int) { out(logLine("exit", code)) })
	server := nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		out(logLine("request", req.URL))
		if req.URL == "/ended" {
			res.EndString("ended")
			panic(errors.New("after the end"))
		}
		if req.URL == "/later" {
			l.SetTimeout(func() { res.EndString("later") }, 0)
			panic(errors.New("before the end"))
		}
		if strings.HasPrefix(req.URL, "/boom") {
			panic(errors.New("boom"))
		}
		res.EndString("ok " + req.URL)
	})
	// client writes first, then next: from the 'uncaughtException' listener, or, with
	// onData, when the response to first has come.
	client := func(port int, first, next string, onData bool, done func()) {
		var sock *nodenet.Socket
		var send func()
		sock = nodenet.Connect(l, port, "127.0.0.1", func() {
			send = func() { sock.WriteString(next, nil) }
			if !onData {
				second = send
			}
			sock.WriteString(first, nil)
		})
		var all strings.Builder
		sock.SetEncoding("latin1")
		sock.On("data", func(a ...any) {
			all.WriteString(a[0].(string))
			if onData && send != nil {
				send()
				send = nil
			}
		})
		sock.OnClose(func(bool) {
			var lines []string
			for _, line := range strings.Split(all.String(), "\r\n") {
				if !strings.HasPrefix(line, "Date:") {
					lines = append(lines, line)
				}
			}
			out(logLine("client got", jsonString(strings.Join(lines, "|"))))
			done()
		})
	}
	server.Listen(0, "127.0.0.1", func() {
		port := server.Address().Port
		server.Once("clientError", func(a ...any) {
			err, sock := a[0].(*nodenet.Error), a[1].(*nodehttp.Socket)
			out(logLine("clientError", err.Code, err.Message))
			sock.Destroy(nil)
		})
		next := "GET /next HTTP/1.1\r\nHost: x\r\n\r\n"
		client(port, "GET /boom1 HTTP/1.1\r\nHost: x\r\n\r\n", next, false, func() {
			client(port, "GET /boom2 HTTP/1.1\r\nHost: x\r\n\r\n", next, false, func() {
				client(port, "GET /ended HTTP/1.1\r\nHost: x\r\n\r\n", next, true, func() {
					client(port, "GET /later HTTP/1.1\r\nHost: x\r\n\r\n", next, true, func() {
						client(port, "GET /fine HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "", false, func() {
							server.Close(func(error) { out("server closed") })
						})
					})
				})
			})
		})
	})
}
