// Command tinyecho is the README's first program: a whole TCP echo server on one loop.
// examples/echo is the production version (no allocation per read, backpressure).
package main

import (
	"log"

	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	loop, err := uvloop.New()
	if err != nil {
		log.Fatal(err)
	}
	server, _ := loop.NewTCP()
	if err := server.BindString("127.0.0.1:7000", 0); err != nil {
		log.Fatal(err)
	}
	err = server.Listen(128, func(err error) {
		conn, _ := loop.NewTCP()
		if err != nil || server.Accept(conn) != nil {
			conn.Close(nil)
			return
		}
		conn.ReadStart(func(data []byte, err error) {
			if err != nil { // io.EOF, or the peer reset: it is gone
				conn.Close(nil)
				return
			}
			// data belongs to the loop until this callback returns; Write keeps its own copy.
			conn.Write(append([]byte(nil), data...), nil)
		})
	})
	if err != nil {
		log.Fatal(err)
	}
	log.Print("echoing on 127.0.0.1:7000")
	loop.Run(uvloop.RunDefault)
}
