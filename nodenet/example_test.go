package nodenet_test

import (
	"fmt"

	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// An echo server and one client, in Node's order: 'listening', then the client's data, its
// 'end' (the server ends its side after the client's end), 'close', and the server's.
func Example() {
	l, _ := uvloop.New()
	server := nodenet.CreateServer(l, func(sock *nodenet.Socket) {
		sock.OnData(func(b []byte) { sock.Write(b, nil) })
	})
	server.Listen(0, "127.0.0.1", func() {
		fmt.Println("listening")
		c := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
		c.SetEncoding("utf8")
		c.On("data", func(a ...any) {
			fmt.Printf("data %q\n", a[0])
			c.End(nil)
		})
		c.OnEnd(func() { fmt.Println("end") })
		c.OnClose(func(hadError bool) {
			fmt.Println("close", hadError)
			server.Close(func(error) { fmt.Println("server closed") })
		})
		c.WriteString("hello", nil)
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		fmt.Println(err)
	}
	l.Close()
	// Output:
	// listening
	// data "hello"
	// end
	// close false
	// server closed
}
