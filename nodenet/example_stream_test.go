package nodenet_test

import (
	"fmt"
	"time"

	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// An echo server is sock.Pipe(sock): what a client sends comes back, with backpressure,
// and the server's side ends when the client's does.
func ExamplePipe() {
	l, _ := uvloop.New()
	server := nodenet.CreateServer(l, func(sock *nodenet.Socket) {
		sock.On("pipe", func(...any) { fmt.Println("server: pipe") })
		nodenet.Pipe(sock, sock, true)
	})
	server.Listen(0, "127.0.0.1", func() {
		c := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
		c.SetEncoding("utf8")
		c.OnDataString(func(s string) { fmt.Printf("client: %q\n", s) })
		c.OnEnd(func() { fmt.Println("client: end") })
		c.OnClose(func(bool) { server.Close(nil) })
		c.EndString("ping")
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// server: pipe
	// client: "ping"
	// client: end
}

// An idle timeout emits "timeout" and leaves closing to the listener; it does not keep the
// loop alive by itself. Durations are time.Durations: 50*time.Millisecond, not 50.
func ExampleSocket_SetTimeout() {
	l, _ := uvloop.New()
	server := nodenet.CreateServer(l, func(sock *nodenet.Socket) {
		sock.SetTimeout(50*time.Millisecond, func() {
			fmt.Println("server: idle, ending", sock.ReadyState())
			sock.End(nil)
		})
		sock.Resume()
	})
	server.Listen(0, "127.0.0.1", func() {
		c := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
		c.OnEnd(func() { fmt.Println("client: end") })
		c.OnClose(func(bool) { server.Close(nil) })
		c.Resume()
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// server: idle, ending open
	// client: end
}

// dgram: a socket bound to 127.0.0.1 gets a datagram with its sender's address; the send's
// callback comes first, from a nextTick.
func ExampleCreateDgramSocket() {
	l, _ := uvloop.New()
	server, _ := nodenet.CreateDgramSocket(l, "udp4", func(msg []byte, rinfo nodenet.RemoteInfo) {
		fmt.Printf("message %q from %s (%s), %d bytes\n", msg, rinfo.Address, rinfo.Family, rinfo.Size)
	})
	server.Bind(0, "127.0.0.1", func() {
		a, _ := server.Address()
		client, _ := nodenet.CreateDgramSocket(l, "udp4", nil)
		client.SendString("hi", a.Port, "127.0.0.1", func(err error, n int) {
			fmt.Println("sent", n, err)
			client.Close(nil)
		})
	})
	server.OnMessage(func([]byte, nodenet.RemoteInfo) { server.Close(nil) })
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// sent 2 <nil>
	// message "hi" from 127.0.0.1 (IPv4), 2 bytes
}
