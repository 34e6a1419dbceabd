// Command echo is a TCP echo server on one uvgo loop.
//
// It echoes without allocating: the bytes a read callback gets belong to the loop and are
// valid only until it returns, so the callback first offers them to TryWrite, which writes
// what the socket takes at once (all of it, almost always). Only a rest that the socket did
// not take is copied into the connection's own buffer and queued with Write; reading stops
// until that write completes, so the buffer is never overwritten while queued, and a slow
// reader holds back its writer instead of growing the buffer (backpressure). The buffer is
// kept and reused, so steady state allocates nothing.
//
// On io_uring (which the loop gets by default, being locked to its thread, where the kernel
// has it: see uvloop.WithBackend) a stream writes through the ring: each Write is a send
// submitted with the others at the end of the phase, not a write(2) of its own. The echo then
// always copies, keeps one send in flight per connection and gathers what is read meanwhile
// behind it, up to 64 KiB before it stops reading.
//
// Like Node's net.Server and libuv's echo server, it has no idle timeout: a connection stays
// open until its client closes or resets it, or the server shuts down.
//
// SIGINT or SIGTERM shuts it down cleanly: it stops accepting, lets the open connections go
// on for up to -grace (5s), closes what is left and exits with status 0.
package main

import (
	"errors"
	"flag"
	"log"
	"net/netip"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7000", "address to listen on")
	grace := flag.Duration("grace", 5*time.Second, "on SIGINT or SIGTERM, how long open connections may go on")
	flag.Parse()
	bound, wait, err := ServeUntilSignal(*addr, *grace)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("echo: listening on %v", bound)
	if err := wait(); err != nil {
		log.Fatal(err)
	}
	log.Print("echo: shut down")
}

// Serve starts an echo server listening on addr on a loop of its own goroutine. It returns
// the bound address and stop, which closes the listener and every connection, waits for
// the loop to finish and closes it.
func Serve(addr string) (bound netip.AddrPort, stop func() error, err error) {
	bound, stop, _, err = start(addr, 0)
	return bound, stop, err
}

// ServeUntilSignal is Serve that shuts down on SIGINT or SIGTERM: it stops accepting at
// once, lets the open connections go on for up to grace, then closes what is left. wait
// returns once the loop has ended and is closed.
func ServeUntilSignal(addr string, grace time.Duration) (bound netip.AddrPort, wait func() error, err error) {
	bound, _, wait, err = start(addr, grace)
	return bound, wait, err
}

func start(addr string, grace time.Duration) (bound netip.AddrPort, stop, wait func() error, err error) {
	loop, err := uvloop.New(uvloop.WithLockOSThread()) // a thread of its own while Run runs (on io_uring: see WithLockOSThread)
	if err != nil {
		return bound, nil, nil, err
	}
	ln, err := listen(loop, addr)
	if err == nil && grace > 0 {
		err = shutdownOnSignals(loop, ln, grace)
	}
	if err == nil {
		bound, err = ln.LocalAddr()
	}
	if err != nil {
		closeAll(loop)
		loop.Run(uvloop.RunDefault)
		loop.Close()
		return bound, nil, nil, err
	}
	done := make(chan error, 1)
	go func() {
		_, err := loop.Run(uvloop.RunDefault)
		if err == nil { // what is left is unref'd (the deadline timer): close it
			closeAll(loop)
			_, err = loop.Run(uvloop.RunDefault)
		}
		done <- errors.Join(err, loop.Close())
	}()
	wait = func() error { return <-done }
	stop = func() error {
		loop.Post(func() { closeAll(loop) })
		return <-done
	}
	return bound, stop, wait, nil
}

// closeAll closes every handle of the loop.
func closeAll(loop *uvloop.Loop) {
	loop.Walk(func(h uvloop.Handle) {
		if !h.IsClosing() {
			h.Close(nil)
		}
	})
}

// shutdownOnSignals watches SIGINT and SIGTERM with Signal handles. The first of them closes
// the listener and the signal handles, and starts an unref'd timer: if connections are
// still open after grace, it closes them. The loop ends when the last connection has
// closed, or at the deadline.
func shutdownOnSignals(loop *uvloop.Loop, ln *uvloop.TCP, grace time.Duration) error {
	var sigs []*uvloop.Signal
	shutdown := func(*uvloop.Signal, syscall.Signal) {
		if ln.IsClosing() {
			return // both signals came
		}
		for _, s := range sigs {
			s.Close(nil)
		}
		ln.Close(nil)
		deadline := loop.NewTimer(func(*uvloop.Timer) { closeAll(loop) })
		deadline.Start(grace, 0)
		deadline.Unref()
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		s, err := loop.NewSignal(shutdown)
		if err == nil {
			err = s.Start(sig)
		}
		if err != nil {
			return err
		}
		s.Unref() // the listener keeps the loop alive, not the handlers
		sigs = append(sigs, s)
	}
	return nil
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
// allocate nothing; onWrite only when a write first has to wait, which an idle connection
// never does (each bound method is an allocation).
type conn struct {
	tcp     *uvloop.TCP
	rest    []byte // the unwritten rest of a read, queued with Write; reused
	onRead  func([]byte, error)
	onWrite func(error)
	ring    *ringOut // streams that write through io_uring's ring only; from their first read
}

// ringOut is the writing side of a stream that writes through the ring (TCP.RingWrites):
// there a Write is a send that the kernel makes after the callback has returned, so the
// bytes are always copied. One write is in flight at a time; what is read meanwhile gathers
// in next and goes out as one send when it completes. Reading stops while next holds
// maxPending bytes or more, until it has gone out (backpressure). Both buffers are reused.
type ringOut struct {
	busy, next []byte // the bytes of the write in flight (stable until its callback), and the ones read since
	stopped    bool   // reading stopped on a full next
}

// maxPending is how many bytes a ring stream gathers behind its write in flight before it
// stops reading.
const maxPending = 64 << 10

func newConn(t *uvloop.TCP) {
	c := &conn{tcp: t}
	c.onRead = c.read
	if t.ReadStart(c.onRead) != nil {
		t.Close(nil)
	}
}

func (c *conn) read(data []byte, err error) {
	if err != nil { // io.EOF or a read error
		c.tcp.Close(nil)
		return
	}
	if c.ring != nil || c.tcp.RingWrites() {
		c.readRing(data)
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
	if c.onWrite == nil {
		c.onWrite = c.written
	}
	if c.tcp.Write(c.rest, c.onWrite) != nil {
		c.tcp.Close(nil)
	}
}

// readRing echoes data through the ring (see ringOut).
func (c *conn) readRing(data []byte) {
	r := c.ring
	if r == nil {
		r = new(ringOut)
		c.ring, c.onWrite = r, c.writtenRing
	}
	if len(r.busy) > 0 { // a write is in flight: gather behind it
		r.next = append(r.next, data...)
		if len(r.next) >= maxPending {
			r.stopped = true
			c.tcp.ReadStop()
		}
		return
	}
	r.busy = append(r.busy[:0], data...)
	if c.tcp.Write(r.busy, c.onWrite) != nil {
		c.tcp.Close(nil)
	}
}

// writtenRing sends what was gathered while the write that completed was in flight.
func (c *conn) writtenRing(err error) {
	r := c.ring
	if err != nil {
		if !c.tcp.IsClosing() {
			c.tcp.Close(nil)
		}
		return
	}
	r.busy, r.next = r.next, r.busy[:0]
	if len(r.busy) > 0 && c.tcp.Write(r.busy, c.onWrite) != nil {
		c.tcp.Close(nil)
		return
	}
	if r.stopped {
		r.stopped = false
		if c.tcp.ReadStart(c.onRead) != nil {
			c.tcp.Close(nil)
		}
	}
}

func (c *conn) written(err error) {
	if err != nil || c.tcp.ReadStart(c.onRead) != nil {
		if !c.tcp.IsClosing() {
			c.tcp.Close(nil)
		}
	}
}
