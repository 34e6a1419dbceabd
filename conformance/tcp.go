package conformance

import (
	"errors"
	"io"
	"strconv"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the scenarios that use Node's net module, on uvloop's TCP handle. What Node's
// net layer adds on top of its handles is written out where the scenario depends on it:
// 'listening' is emitted on a tick after listen(); socket.end(data) is a write and a
// shutdown; a socket whose peer ended also ends its own side (allowHalfOpen is false) and
// is destroyed once both sides are done, and 'close' is emitted from the handle's close
// callback.

// fail prints an error as the scenario would see it crash, so the comparison fails.
func fail(out func(string), what string, err error) {
	out(logLine("error:", what, err))
}

// 012: listen() returns at once and 'listening' comes on a tick after the main script, so a
// handler attached after listen() still gets it; close(cb) calls cb once the server is
// closed.
func serverListeningEvent(l *uvloop.Loop, out func(string)) func() {
	server, err := l.NewTCP()
	if err != nil {
		fail(out, "NewTCP", err)
		return nil
	}
	var onListening func()
	if err := server.BindString("127.0.0.1:0", 0); err != nil {
		fail(out, "bind", err)
	}
	if err := server.Listen(511, func(error) {}); err != nil {
		fail(out, "listen", err)
	}
	l.NextTick(func() { // Node's emitListeningNT
		if onListening != nil {
			onListening()
		}
	})
	out("listen() returned")

	onListening = func() {
		out("listening event")
		server.Close(func() { out("server closed") })
	}
	out("listening handler attached")
	return nil
}

// 033: a loopback round trip where only causally ordered events print: listening, the
// server's connection (it writes "hello" and ends), the client's data and end (it then ends
// its side), the server socket's end, both sockets closed (in either order), the server
// closed.
func tcpConnectSendClose(l *uvloop.Loop, out func(string)) func() {
	var server *uvloop.TCP
	closed := 0
	onSocketClose := func() {
		if closed++; closed == 2 {
			out("both sockets closed")
			server.Close(func() { out("server: closed") })
		}
	}

	server, err := l.NewTCP()
	if err != nil {
		fail(out, "NewTCP", err)
		return nil
	}
	if err := server.BindString("127.0.0.1:0", 0); err != nil {
		fail(out, "bind", err)
	}
	err = server.Listen(511, func(err error) {
		if err != nil {
			fail(out, "connection", err)
			return
		}
		sock, err := l.NewTCP()
		if err == nil {
			err = server.Accept(sock)
		}
		if err != nil {
			fail(out, "accept", err)
			return
		}
		out("server: connection")
		// sock.end('hello')
		if err := sock.Write([]byte("hello"), nil); err != nil {
			fail(out, "server write", err)
		}
		if err := sock.Shutdown(nil); err != nil {
			fail(out, "server shutdown", err)
		}
		sock.ReadStart(func(_ []byte, err error) {
			switch {
			case errors.Is(err, io.EOF):
				out("server: socket end")
				sock.Close(onSocketClose) // both sides done: destroyed
			case err != nil:
				fail(out, "server read", err)
				sock.Close(onSocketClose)
			}
		})
	})
	if err != nil {
		fail(out, "listen", err)
	}

	l.NextTick(func() { // 'listening'
		out("server: listening")
		addr, err := server.LocalAddr()
		if err != nil {
			fail(out, "address", err)
			return
		}
		client, err := l.NewTCP()
		if err != nil {
			fail(out, "NewTCP", err)
			return
		}
		err = client.Connect(addr, func(err error) {
			if err != nil {
				fail(out, "connect", err)
				client.Close(onSocketClose)
				return
			}
			client.ReadStart(func(data []byte, err error) {
				switch {
				case err == nil:
					out(logLine("client: data", strconv.Quote(string(data))))
				case errors.Is(err, io.EOF):
					out("client: end")
					// allowHalfOpen is false: end our side too, then destroy.
					if err := client.Shutdown(func(error) { client.Close(onSocketClose) }); err != nil {
						fail(out, "client shutdown", err)
						client.Close(onSocketClose)
					}
				default:
					fail(out, "client read", err)
					client.Close(onSocketClose)
				}
			})
		})
		if err != nil {
			fail(out, "connect", err)
		}
	})
	return nil
}
