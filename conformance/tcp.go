package conformance

import (
	"strconv"
	"strings"

	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the scenarios that use Node's net module, on package nodenet (Node's net layer
// over uvloop's TCP handle): they read as the scripts do.

// jsonString is JSON.stringify of a string, for the ASCII the scenarios send.
func jsonString(s string) string { return strconv.Quote(s) }

// jsUndefined prints a nil error as console.log prints undefined.
func jsUndefined(err error) any {
	if err == nil {
		return "undefined"
	}
	return err
}

// 012: listen() returns at once and 'listening' comes on a tick after the main script, so a
// handler attached after listen() still gets it; close(cb) calls cb once the server is
// closed.
func serverListeningEvent(l *uvloop.Loop, out func(string)) func() {
	server := nodenet.CreateServer(l, func(*nodenet.Socket) {})
	server.Listen(0, "127.0.0.1", nil)
	out("listen() returned")

	server.OnListening(func() {
		out("listening event")
		server.Close(func(error) { out("server closed") })
	})
	out("listening handler attached")
	return nil
}

// 033: a loopback round trip where only causally ordered events print: listening, the
// server's connection (it writes "hello" and ends), the client's data and end (it then ends
// its side), the server socket's end, both sockets closed (in either order), the server
// closed.
func tcpConnectSendClose(l *uvloop.Loop, out func(string)) func() {
	var server *nodenet.Server
	closed := 0
	onSocketClose := func(bool) {
		if closed++; closed == 2 {
			out("both sockets closed")
			server.Close(func(error) { out("server: closed") })
		}
	}

	server = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
		out("server: connection")
		sock.EndString("hello")
		sock.OnEnd(func() { out("server: socket end") })
		sock.OnClose(onSocketClose)
	})

	server.Listen(0, "127.0.0.1", func() {
		out("server: listening")
		client := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
		client.SetEncoding("utf8")
		client.On("data", func(a ...any) { out(logLine("client: data", jsonString(a[0].(string)))) })
		client.OnEnd(func() { out("client: end") })
		client.OnClose(onSocketClose)
	})
	return nil
}

// 110: a refused connection: 'error' from a nextTick after the socket is destroyed, then
// 'close' (hadError) from the close phase, after an immediate queued by the error handler.
func netConnectRefused(l *uvloop.Loop, out func(string)) func() {
	probe := nodenet.CreateServer(l, nil)
	probe.Listen(0, "127.0.0.1", func() {
		port := probe.Address().Port
		probe.Close(func(error) {
			out("probe closed")
			sock := nodenet.Connect(l, port, "127.0.0.1", func() { out("connect (unexpected)") })
			out(logLine("connect() returned, connecting", sock.Connecting()))
			l.NextTick(func() { out("nextTick after connect()") })
			sock.OnError(func(err error) {
				e, _ := err.(*nodenet.Error)
				if e == nil {
					e = &nodenet.Error{}
				}
				out(logLine("error", e.Code, e.Syscall, err.Error() == "connect ECONNREFUSED 127.0.0.1:"+strconv.Itoa(port)))
				out(logLine("destroyed", sock.Destroyed(), "connecting", sock.Connecting()))
				l.NextTick(func() { out("nextTick from error") })
				l.SetImmediate(func() { out("immediate from error") })
			})
			sock.OnClose(func(hadError bool) { out(logLine("close", hadError)) })
		})
	})
	return nil
}

// 111: server.close() with a connection open: the listener goes at once, the connection
// carries on, and 'close' (then the close callback) comes from a nextTick once the last
// connection is destroyed, before that socket's own 'close' from the close phase.
func netServerCloseWithConnectionOpen(l *uvloop.Loop, out func(string)) func() {
	var server *nodenet.Server
	server = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
		out("server: connection")
		server.Close(func(err error) { out(logLine("server: close callback", jsUndefined(err))) })
		out(logLine("server: close() returned, listening", server.Listening()))
		sock.OnData(func(d []byte) {
			out(logLine("server socket: data", jsonString(string(d))))
			sock.EndString("bye")
		})
		sock.OnEnd(func() { out("server socket: end") })
		sock.OnClose(func(hadError bool) { out(logLine("server socket: close", hadError)) })
	})
	server.OnClose(func() { out("server: close event") })

	server.Listen(0, "127.0.0.1", func() {
		out("server: listening")
		client := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
		client.WriteString("hi", nil)
		client.SetEncoding("utf8")
		client.On("data", func(a ...any) { out(logLine("client: data", jsonString(a[0].(string)))) })
		client.OnEnd(func() { out("client: end") })
		client.OnClose(func(hadError bool) { out(logLine("client: close", hadError)) })
	})
	return nil
}

// 112: write() after end(): false, the callback gets ERR_STREAM_WRITE_AFTER_END on a
// nextTick, 'error' on the next one (no 'finish'), 'close' (hadError) from the close
// phase; what end() wrote still reaches the server, then the end of the stream.
func netWriteAfterEnd(l *uvloop.Loop, out func(string)) func() {
	var server *nodenet.Server
	server = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
		sock.SetEncoding("utf8")
		sock.On("data", func(a ...any) { out(logLine("server socket: data", jsonString(a[0].(string)))) })
		sock.OnEnd(func() { out("server socket: end") })
		sock.OnClose(func(hadError bool) {
			out(logLine("server socket: close", hadError))
			server.Close(func(error) { out("server: closed") })
		})
	})

	server.Listen(0, "127.0.0.1", func() {
		var client *nodenet.Socket
		client = nodenet.Connect(l, server.Address().Port, "127.0.0.1", func() {
			out("client: connect")
			client.EndString("first")
			ok := client.WriteString("second", func(err error) {
				code := any("undefined")
				if e, isNode := err.(*nodenet.Error); isNode {
					code = e.Code
				}
				out(logLine("client: write callback", code))
			})
			out(logLine("client: write returned", ok, "destroyed", client.Destroyed()))
			l.NextTick(func() { out("client: nextTick after write") })
		})
		client.OnError(func(err error) {
			e, _ := err.(*nodenet.Error)
			if e == nil {
				e = &nodenet.Error{Message: err.Error()}
			}
			out(logLine("client: error", e.Code, e.Message))
		})
		client.OnFinish(func() { out("client: finish") })
		client.OnClose(func(hadError bool) { out(logLine("client: close", hadError)) })
	})
	return nil
}

// 113: cork/uncork: corked writes wait, counted, until the last uncork writes them together
// with their callbacks in order from one tick; end() uncorks; destroy fails the waiting
// writes with ERR_STREAM_DESTROYED; a cork before 'connect' holds the writes past it.
func netCorkUncork(l *uvloop.Loop, out func(string)) func() {
	server := nodenet.CreateServer(l, func(c *nodenet.Socket) {
		var all strings.Builder
		c.SetEncoding("latin1")
		c.On("data", func(a ...any) { all.WriteString(a[0].(string)) })
		c.OnEnd(func() { out(logLine("server got", jsonString(all.String()))); c.End(nil) })
		c.OnError(func(error) {})
	})
	cb := func(name string) func(error) {
		return func(err error) {
			if err == nil {
				out(logLine("cb", name, "null"))
			} else {
				out(logLine("cb", name, err.(*nodenet.Error).Code))
			}
		}
	}
	first := func(port int, done func()) {
		var s *nodenet.Socket
		s = nodenet.Connect(l, port, "127.0.0.1", func() {
			s.Cork()
			out(logLine("corked", s.WritableCorked()))
			out(logLine("write a", s.WriteString("a", cb("a"))))
			out(logLine("write b", s.WriteString("bb", cb("b"))))
			out(logLine("length while corked", s.WritableLength()))
			s.Cork()
			s.Uncork()
			out(logLine("after one of two uncorks", s.WritableCorked(), s.WritableLength()))
			l.NextTick(func() { out("tick queued before the last uncork") })
			s.Uncork()
			out(logLine("after the last uncork", s.WritableCorked(), s.WritableLength()))
			s.Uncork()
			out(logLine("uncork again", s.WritableCorked()))
			l.SetImmediate(func() { out("immediate") })
			s.Cork()
			s.WriteString("c", cb("c"))
			s.EndString("d")
			s.PrependOnceListener("finish", func(...any) { out("end callback") }) // end(data, cb)
			out(logLine("after end", s.WritableCorked(), s.WritableLength()))
		})
		s.OnDrain(func() { out("drain") })
		s.OnFinish(func() { out("finish") })
		s.OnClose(func(bool) { out("close"); done() })
	}
	destroyed := func(port int, done func()) {
		var s *nodenet.Socket
		s = nodenet.Connect(l, port, "127.0.0.1", func() {
			s.Cork()
			s.WriteString("x", cb("x"))
			s.WriteString("y", cb("y"))
			s.Destroy(nil)
			out(logLine("destroyed, length", s.WritableLength()))
		})
		s.OnError(func(err error) { out(logLine("error", err.(*nodenet.Error).Code)) })
		s.OnClose(func(bool) { out("close 2"); done() })
	}
	beforeConnect := func(port int, done func()) {
		var s *nodenet.Socket
		s = nodenet.Connect(l, port, "127.0.0.1", nil)
		s.Cork()
		s.WriteString("early", cb("early"))
		s.OnConnect(func() {
			out(logLine("connect, still corked", s.WritableCorked(), s.WritableLength()))
			s.WriteString(" late", cb("late"))
			s.End(nil)
		})
		s.OnClose(func(bool) { out("close 3"); done() })
	}
	server.Listen(0, "127.0.0.1", func() {
		port := server.Address().Port
		first(port, func() {
			destroyed(port, func() {
				beforeConnect(port, func() { server.Close(func(error) { out("server closed") }) })
			})
		})
	})
	return nil
}

// 510: write() to a socket that takes the bytes at once returns true with writableLength 0,
// and its callback runs from a nextTick the write queued (before one queued after it);
// 'finish' comes once end()'s shutdown is done, before the server reads the end. nodenet
// tries the write at once on every backend, as Node does, so the ring's deferred writes do
// not show here.
func netWriteCallbackTiming(l *uvloop.Loop, out func(string)) func() {
	var server *nodenet.Server
	server = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
		got := ""
		sock.SetEncoding("utf8")
		sock.On("data", func(a ...any) { got += a[0].(string) })
		sock.OnEnd(func() {
			out(logLine("server: end, got", jsonString(got)))
			sock.End(nil)
			server.Close(nil)
		})
	})
	server.Listen(0, "127.0.0.1", func() {
		var client *nodenet.Socket
		client = nodenet.Connect(l, server.Address().Port, "127.0.0.1", func() {
			out("client: connect")
			r1 := client.WriteString("one", func(error) { out("client: write one callback") })
			out(logLine("client: write one returned", r1, "writableLength", client.WritableLength()))
			r2 := client.WriteString("two", func(error) { out("client: write two callback") })
			out(logLine("client: write two returned", r2, "writableLength", client.WritableLength()))
			l.NextTick(func() { out("client: nextTick") })
			l.SetImmediate(func() {
				out("client: immediate")
				client.EndString("three")
				out(logLine("client: end returned, writableLength", client.WritableLength()))
			})
		})
		client.OnFinish(func() { out("client: finish") })
		client.OnClose(func(bool) { out("client: close") })
	})
	return nil
}
