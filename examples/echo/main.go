// Command echo is a TCP echo server on one uvgo loop.
//
// It echoes without allocating: the bytes a read callback gets belong to the loop and are
// valid only until it returns, so the callback first offers them to TryWrite, which writes
// what the socket takes at once (all of it, almost always). Only a rest that the socket did
// not take is copied into the connection's own buffer and queued with Write; reading stops
// until that write completes, so the buffer is never overwritten while queued, and a slow
// reader holds back its writer instead of growing the buffer (backpressure). The buffer is
// kept and reused, so steady state allocates nothing.
package main

import (
	"errors"
	"flag"
	"log"
	"net/netip"
	"os"
	"os/signal"
	"syscall"

	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7000", "address to listen on")
	flag.Parse()
	bound, stop, err := Serve(*addr)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("echo: listening on %v", bound)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	if err := stop(); err != nil {
		log.Fatal(err)
	}
}

// Serve starts an echo server listening on addr on a loop of its own goroutine. It returns
// the bound address and stop, which closes the listener and every connection, waits for
// the loop to finish and closes it.
func Serve(addr string) (bound netip.AddrPort, stop func() error, err error) {
	loop, err := uvloop.New()
	if err != nil {
		return bound, nil, err
	}
	ln, err := listen(loop, addr)
	if err != nil {
		loop.Close()
		return bound, nil, err
	}
	if bound, err = ln.LocalAddr(); err != nil {
		ln.Close(nil)
		loop.Run(uvloop.RunDefault)
		loop.Close()
		return bound, nil, err
	}
	done := make(chan error, 1)
	go func() {
		_, err := loop.Run(uvloop.RunDefault)
		done <- errors.Join(err, loop.Close())
	}()
	stop = func() error {
		loop.Post(func() {
			loop.Walk(func(h uvloop.Handle) {
				if !h.IsClosing() {
					h.Close(nil)
				}
			})
		})
		return <-done
	}
	return bound, stop, nil
}

// listen binds addr and accepts connections, each echoed by a conn.
func listen(loop *uvloop.Loop, addr string) (*uvloop.TCP, error) {
	ln, err := loop.NewTCP()
	if err != nil {
		return nil, err
	}
	err = ln.BindString(addr, 0)
	if err == nil {
		err = ln.Listen(1024, func(err error) {
			if err != nil {
				return // accept failed (the connection is gone); keep listening
			}
			c, err := loop.NewTCP()
			if err != nil {
				return
			}
			if ln.Accept(c) != nil {
				c.Close(nil)
				return
			}
			c.SetNoDelay(true)
			newConn(c)
		})
	}
	if err != nil {
		ln.Close(nil)
		return nil, err
	}
	return ln, nil
}

// conn echoes one connection. Its callbacks are bound once, so reading and writing
// allocate nothing.
type conn struct {
	tcp     *uvloop.TCP
	rest    []byte // the unwritten rest of a read, queued with Write; reused
	onRead  func([]byte, error)
	onWrite func(error)
}

func newConn(t *uvloop.TCP) {
	c := &conn{tcp: t}
	c.onRead, c.onWrite = c.read, c.written
	if t.ReadStart(c.onRead) != nil {
		t.Close(nil)
	}
}

func (c *conn) read(data []byte, err error) {
	if err != nil { // io.EOF or a read error
		c.tcp.Close(nil)
		return
	}
	n, err := c.tcp.TryWrite(data)
	if err != nil && !errors.Is(err, syscall.EAGAIN) {
		c.tcp.Close(nil)
		return
	}
	if n == len(data) {
		return
	}
	c.rest = append(c.rest[:0], data[n:]...) // data is the loop's: copy what must wait
	c.tcp.ReadStop()
	if c.tcp.Write(c.rest, c.onWrite) != nil {
		c.tcp.Close(nil)
	}
}

func (c *conn) written(err error) {
	if err != nil || c.tcp.ReadStart(c.onRead) != nil {
		if !c.tcp.IsClosing() {
			c.tcp.Close(nil)
		}
	}
}
