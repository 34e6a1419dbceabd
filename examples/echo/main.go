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
// always copies and writes; the loop keeps one send in flight per connection and sends what
// was written meanwhile as one when it completes. Reading stops while 64 KiB wait.
//
// A write's buffer is held only while the write is in flight; then it goes back to a pool and
// the next write takes it again, so steady state allocates nothing. An idle connection costs
// its TCP handle and 16 bytes (a read callback over the handle).
//
// A client that half-closes still gets back everything it sent: the server writes what is
// queued, then ends its side and closes.
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
	"io"
	"log"
	"net/netip"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7000", "address to listen on")
	grace := flag.Duration("grace", 5*time.Second, "on SIGINT or SIGTERM, how long open connections may go on")
	flag.Parse()
	// A spare P, for a server pinned to one CPU (taskset), where Go's GOMAXPROCS would be 1:
	// with one P the runtime takes it back from each wait of the loop that lasts over 20 µs
	// and checks every 20 µs while it does (README, "One connection, and GOMAXPROCS=1"). An
	// operator's GOMAXPROCS wins.
	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
	}
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
	loop, err := uvloop.New(uvloop.WithOwnThread()) // a thread of its own from New to Close (on io_uring its ring is pinned there: see WithOwnThread)
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

// listen binds addr and accepts connections, each echoed by newConn.
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

// out is one write in flight: the bytes it writes, a copy (the loop's are valid only until
// the read callback returns) that must stay unchanged until its callback; whether reading
// stopped for it; and its callback, bound once. It comes from outs when the write starts and
// goes back when its callback runs, buffer and callback kept for the next, so that idle
// connections keep none and steady state allocates nothing.
//
// On epoll only the rest that TryWrite left is written, and reading stops until it has gone.
// Through the ring (TCP.RingWrites) a Write is a send that the kernel makes after the
// callback has returned, so every read is copied and written; the loop keeps one send in
// flight per connection and sends what was queued behind it as one when it completes. Once
// maxPending bytes are queued, reading stops until the last write has gone (backpressure).
type out struct {
	tcp     *uvloop.TCP
	buf     []byte
	stopped bool        // reading stopped at this write: restarted when it is done
	onWrite func(error) // o.written, bound once per out
}

// outs holds the outs that no write uses (a sync.Pool, so that the servers of several loops
// may share it).
var outs sync.Pool

// maxPending is how many bytes a ring stream queues before it stops reading.
const maxPending = 64 << 10

// newConn starts echoing t.
func newConn(t *uvloop.TCP) {
	if t.ReadStart(reader(t)) != nil {
		t.Close(nil)
	}
}

// reader returns t's read callback: a closure over the handle alone, which with the handle
// is all that an idle connection costs.
func reader(t *uvloop.TCP) func([]byte, error) {
	return func(data []byte, err error) { echo(t, data, err) }
}

// echo writes back what t read.
func echo(t *uvloop.TCP, data []byte, err error) {
	if err != nil { // io.EOF or a read error
		finish(t, err)
		return
	}
	ring := t.RingWrites()
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
	o, _ := outs.Get().(*out)
	if o == nil {
		o = new(out)
		o.onWrite = o.written
	}
	o.tcp = t
	o.buf = append(o.buf[:0], data[n:]...)
	if t.Write(o.buf, o.onWrite) != nil {
		t.Close(nil)
		return
	}
	if !ring || t.WriteQueueSize() >= maxPending {
		o.stopped = true // reads nothing more, so no write follows this one
		t.ReadStop()
	}
}

// finish ends t at the end of its stream or on a read error. At the end, what is still
// queued goes out first (as Node's end() after 'end'): Shutdown sends the end of the stream
// once the queue is written, then t closes. Through the ring the end can come while writes
// are queued, since reading goes on meanwhile.
func finish(t *uvloop.TCP, err error) {
	if errors.Is(err, io.EOF) && t.WriteQueueSize() > 0 && t.Shutdown(func(error) { t.Close(nil) }) == nil {
		return
	}
	t.Close(nil)
}

// written gives o back to outs and starts reading again if it had stopped at o.
func (o *out) written(err error) {
	t, stopped := o.tcp, o.stopped
	if err != nil {
		// o stays out of outs: a send the loop could not cancel when t closed (the kernel
		// held it past SendForget's bound) may still read its buffer.
		if !t.IsClosing() {
			t.Close(nil)
		}
		return
	}
	o.tcp, o.stopped = nil, false
	outs.Put(o)
	// A new read callback: only after backpressure, where one allocation is nothing beside
	// the wait.
	if stopped && t.ReadStart(reader(t)) != nil {
		t.Close(nil)
	}
}
