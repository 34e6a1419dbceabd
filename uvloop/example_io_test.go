package uvloop_test

import (
	"fmt"

	"github.com/uvgo/uvgo/uvloop"
)

// Inside an I/O callback, an immediate always runs before a 0ms timeout: the check phase
// follows the poll phase, and the timers phase comes only after it. (From the main script the
// two race, as in Node.)
func ExampleLoop_SetImmediate_insideIOCallback() {
	l, _ := uvloop.New()
	server, _ := l.NewTCP()
	server.BindString("127.0.0.1:0", 0)
	server.Listen(1, func(error) {
		fmt.Println("connection (poll phase)")
		conn, _ := l.NewTCP()
		server.Accept(conn)
		l.SetTimeout(func() { fmt.Println("timeout") }, 0)
		l.SetImmediate(func() { fmt.Println("immediate") })
		l.NextTick(func() { fmt.Println("nextTick") })
		conn.Close(nil)
		server.Close(nil)
	})
	addr, _ := server.LocalAddr()
	client, _ := l.NewTCP()
	client.Connect(addr, func(error) { client.Close(nil) })

	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// connection (poll phase)
	// nextTick
	// immediate
	// timeout
}
