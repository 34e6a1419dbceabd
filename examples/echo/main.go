// Command echo is a TCP echo server on one uvgo loop.
//
// It echoes without allocating: the bytes a read callback gets belong to the loop and are
// valid only until it returns, so the callback first offers them to TryWrite, which writes
// what the socket takes at once (all of it, almost always). Only a rest that the socket did
// not take is copied into a buffer and queued with Write; reading stops until that write
// completes, so the buffer is never overwritten while queued, and a slow reader holds back
// its writer instead of growing the buffer (backpressure).
//
// On io_uring (which the loop gets by default, being locked to its thread, where the kernel
// has it: see uvloop.WithBackend) a stream writes through the ring: each Write is a send
// submitted with the others at the end of the phase, not a write(2) of its own. The echo then
// always copies, keeps one send in flight per connection and gathers what is read meanwhile
// behind it, up to 64 KiB before it stops reading.
//
// A connection keeps its buffers only while a write is in flight; then they go back to a
// pool and the next write takes them again, so steady state allocates nothing. An idle
// connection costs its TCP handle and 16 bytes (a read callback over the handle) on epoll,
// 32 through the ring (a conn of two pointers and its read callback).
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
	"sync"
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

// conn is a connection's echo state where it needs one: from the start through the ring, where
// reads go on while a write is in flight; on epoll from the first write that has to wait
// (until then the read callback is a closure over the handle alone). Its read callback is
// bound once; out is there while a write is in flight.
type conn struct {
	tcp *uvloop.TCP
	out *out // nil while no write is in flight
}

// out is what a connection needs while a write is in flight: the bytes it writes (stable
// until its callback), on io_uring the bytes read meanwhile, and the callbacks bound for it.
// It comes from outs when a write starts and goes back once nothing is in flight, buffers and
// callbacks kept for the next, so that idle connections keep none.
//
// Through the ring (TCP.RingWrites) a Write is a send that the kernel makes after the
// callback has returned, so the bytes are always copied; one write is in flight at a time,
// what is read meanwhile gathers in next and goes out as one send when it completes, and
// reading stops while next holds maxPending bytes or more, until it has gone out
// (backpressure). On epoll only the rest that TryWrite left is written, and reading stops
// until it has gone.
type out struct {
	c          *conn
	busy, next []byte      // the bytes of the write in flight, and the ones read since (ring)
	stopped    bool        // reading stopped: restarted once the write is done
	onWrite    func(error) // o.written, bound once per out
	reader     *conn       // whose read onRead is
	onRead     func([]byte, error)
}

// outs holds the outs that no connection uses (a sync.Pool, so that the servers of several
// loops may share it). An out there may still hold its last reader, until it is taken again
// or the pool drops it.
var outs sync.Pool

// maxPending is how many bytes a ring stream gathers behind its write in flight before it
// stops reading.
const maxPending = 64 << 10

func newConn(t *uvloop.TCP) {
	var cb func([]byte, error)
	if t.RingWrites() {
		cb = (&conn{tcp: t}).read
	} else {
		cb = func(data []byte, err error) { echo(t, nil, data, err) }
	}
	if t.ReadStart(cb) != nil {
		t.Close(nil)
	}
}

func (c *conn) read(data []byte, err error) { echo(c.tcp, c, data, err) }

// echo writes back what t read; c is t's conn, nil on epoll until a write first has to wait.
func echo(t *uvloop.TCP, c *conn, data []byte, err error) {
	if err != nil { // io.EOF or a read error
		t.Close(nil)
		return
	}
	ring := t.RingWrites()
	if c != nil && c.out != nil && ring { // a write is in flight: gather behind it
		o := c.out
		o.next = append(o.next, data...)
		if len(o.next) >= maxPending {
			o.stop()
		}
		return
	}
	n := 0
	if !ring {
		n, err = t.TryWrite(data)
		if err != nil && !errors.Is(err, syscall.EAGAIN) {
			t.Close(nil)
			return
		}
		if n == len(data) {
			return
		}
	}
	if c == nil {
		c = &conn{tcp: t}
	}
	o, _ := outs.Get().(*out)
	if o == nil {
		o = new(out)
		o.onWrite = o.written
	}
	o.c, c.out = c, o
	o.busy = append(o.busy[:0], data[n:]...) // data is the loop's: copy what must wait
	if !ring {
		o.stop() // until the rest has gone; reading goes on with c.read
	}
	if t.Write(o.busy, o.onWrite) != nil {
		t.Close(nil)
	}
}

// stop stops reading until the write in flight is done.
func (o *out) stop() {
	o.stopped = true
	o.c.tcp.ReadStop()
}

// written sends what was gathered while the write that completed was in flight, starts
// reading again if it had stopped, and once nothing is in flight gives o back to outs.
func (o *out) written(err error) {
	c := o.c
	if err != nil {
		if !c.tcp.IsClosing() {
			c.tcp.Close(nil)
		}
		return // o stays with c, which is gone
	}
	o.busy, o.next = o.next, o.busy[:0]
	if len(o.busy) > 0 && c.tcp.Write(o.busy, o.onWrite) != nil {
		c.tcp.Close(nil)
		return
	}
	if o.stopped {
		o.stopped = false
		if o.reader != c { // ReadStart wants c's callback: bind it (once per out and conn)
			o.reader, o.onRead = c, c.read
		}
		if c.tcp.ReadStart(o.onRead) != nil {
			c.tcp.Close(nil)
			return
		}
	}
	if len(o.busy) == 0 {
		c.out, o.c = nil, nil
		outs.Put(o)
	}
}
