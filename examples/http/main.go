// Command http is an HTTP/1.1 server on uvgo loops: keep-alive, pipelining, and
// "Hello, World!" for GET / (and HEAD /).
//
// Each connection parses what it reads with httpparse straight from the loop's read buffer;
// only an incomplete request's bytes are copied, into the connection's own buffer, to wait
// for the rest. The responses to all the requests of one read are appended to one buffer
// and written with one TryWrite; if the socket does not take all of it, the rest is queued
// with Write and reading stops until it is written (backpressure), so the buffer is never
// changed while queued. Both buffers are kept, so a request allocates nothing.
//
// With -loops N > 1, N loops on N goroutines, each locked to its OS thread, listen on the
// same address with SO_REUSEPORT and the kernel spreads the connections between them: add
// loops when one core is not enough.
//
// A request the parser refuses gets its status (400, 413, 431, 501, 505) and the
// connection closes, as does one with Connection: close or an HTTP/1.0 request without
// keep-alive: the server answers, shuts its side down, and discards input until the
// client closes (at most lingerTime), so the client reads the answer rather than a reset.
// An HTTP/1.1 request without a Host header gets 400, as from net/http's server.
package main

import (
	"errors"
	"flag"
	"log"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/examples/http/httpparse"
	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	loops := flag.Int("loops", 1, "event loops (goroutines locked to OS threads) sharing the port through SO_REUSEPORT")
	flag.Parse()
	s, err := Serve(*addr, *loops)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("http: listening on %v with %d loop(s)", s.Addr, *loops)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	if err := s.Close(); err != nil {
		log.Fatal(err)
	}
}

const lingerTime = 2 * time.Second

// Server is a running server: Serve starts it, Close ends it.
type Server struct {
	Addr  netip.AddrPort // the bound address
	loops []*loopServer
	done  chan error
}

// loopServer is one loop with its listener; loop goroutine only, but for requests.
type loopServer struct {
	loop     *uvloop.Loop
	ln       *uvloop.TCP
	date     [len(http.TimeFormat)]byte // the Date header's value
	dateAt   time.Duration              // loop time of the last date update; -1s at first
	requests atomic.Int64               // answered; read by Server.Requests from any goroutine
}

// Serve listens on addr with loops loops (each on its own goroutine) and serves until Close.
func Serve(addr string, loops int) (*Server, error) {
	if loops < 1 {
		return nil, errors.New("http: loops must be at least 1")
	}
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return nil, err
	}
	var flags uvloop.TCPFlags
	if loops > 1 {
		flags = uvloop.TCPReusePort
	}
	s := &Server{done: make(chan error, loops)}
	for i := range loops {
		ls, err := newLoopServer(ap, flags)
		if err != nil {
			for _, ls := range s.loops {
				ls.shutdown()
			}
			return nil, err
		}
		if i == 0 {
			if ap, err = ls.ln.LocalAddr(); err != nil {
				ls.shutdown()
				return nil, err
			}
			s.Addr = ap
		}
		s.loops = append(s.loops, ls)
	}
	for _, ls := range s.loops {
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			_, err := ls.loop.Run(uvloop.RunDefault)
			s.done <- errors.Join(err, ls.loop.Close())
		}()
	}
	return s, nil
}

// Close closes the listeners and the connections, and waits for the loops to end.
func (s *Server) Close() error {
	for _, ls := range s.loops {
		ls.loop.Post(ls.closeAll)
	}
	var errs []error
	for range s.loops {
		errs = append(errs, <-s.done)
	}
	return errors.Join(errs...)
}

// Requests returns how many requests each loop has answered.
func (s *Server) Requests() []int64 {
	n := make([]int64, len(s.loops))
	for i, ls := range s.loops {
		n[i] = ls.requests.Load()
	}
	return n
}

func newLoopServer(addr netip.AddrPort, flags uvloop.TCPFlags) (*loopServer, error) {
	loop, err := uvloop.New()
	if err != nil {
		return nil, err
	}
	ls := &loopServer{loop: loop, dateAt: -time.Second}
	if ls.ln, err = loop.NewTCP(); err != nil {
		loop.Close()
		return nil, err
	}
	err = ls.ln.Bind(addr, flags)
	if err == nil {
		err = ls.ln.Listen(1024, ls.accept)
	}
	if err != nil {
		ls.shutdown()
		return nil, err
	}
	return ls, nil
}

// shutdown ends a loop that never ran.
func (ls *loopServer) shutdown() {
	ls.closeAll()
	ls.loop.Run(uvloop.RunDefault)
	ls.loop.Close()
}

func (ls *loopServer) closeAll() {
	ls.loop.Walk(func(h uvloop.Handle) {
		if !h.IsClosing() {
			h.Close(nil)
		}
	})
}

func (ls *loopServer) accept(err error) {
	if err != nil {
		return // the connection is gone; keep listening
	}
	t, err := ls.loop.NewTCP()
	if err != nil {
		return
	}
	if ls.ln.Accept(t) != nil {
		t.Close(nil)
		return
	}
	t.SetNoDelay(true)
	c := &conn{ls: ls, tcp: t}
	c.onRead, c.onWrite, c.onLinger = c.read, c.written, c.lingerDone
	if t.ReadStart(c.onRead) != nil {
		t.Close(nil)
	}
}

// now returns the Date header's value, formatted at most once per second of loop time.
func (ls *loopServer) now() []byte {
	if t := ls.loop.Now(); t-ls.dateAt >= time.Second {
		ls.dateAt = t
		time.Now().UTC().AppendFormat(ls.date[:0], http.TimeFormat)
	}
	return ls.date[:]
}

// conn is one connection; loop goroutine only. Its callbacks are bound once.
type conn struct {
	ls       *loopServer
	tcp      *uvloop.TCP
	parser   httpparse.Parser
	req      httpparse.Request
	in       []byte // the start of an incomplete request; reused
	out      []byte // the responses to one read; queued while writing; reused
	last     bool   // the last response is in out: shut down once it is written
	linger   *uvloop.Timeout
	onRead   func([]byte, error)
	onWrite  func(error)
	onLinger func()
}

func (c *conn) read(data []byte, err error) {
	switch {
	case err != nil: // io.EOF or a read error
		c.close()
	case c.linger != nil: // shut down: discard what the client still sends
	default:
		c.process(data)
		c.flush()
	}
}

// process parses data (the loop's bytes, after what c.in holds) and appends the responses
// to c.out; what is left of an incomplete request moves to c.in.
func (c *conn) process(data []byte) {
	buf := data
	if len(c.in) > 0 {
		c.in = append(c.in, data...)
		buf = c.in
	}
	off := 0
	for off < len(buf) && !c.last {
		n, err := c.parser.Parse(buf[off:], &c.req)
		if err == httpparse.ErrIncomplete {
			break
		}
		if err != nil {
			var perr *httpparse.Error
			errors.As(err, &perr)
			c.out = appendStatus(c.out, perr.Status)
			c.last = true
			break
		}
		off += n
		c.respond()
	}
	switch rest := buf[off:]; {
	case c.last:
		c.in = c.in[:0]
	case len(c.in) > 0: // buf is c.in
		c.in = c.in[:copy(c.in, rest)]
	default:
		c.in = append(c.in[:0], rest...)
	}
}

// respond appends the response to c.req.
func (c *conn) respond() {
	r := &c.req
	c.ls.requests.Add(1)
	if r.Minor == 1 && r.Host == nil {
		c.out = appendStatus(c.out, 400)
		c.last = true
		return
	}
	get, head := string(r.Method) == "GET", string(r.Method) == "HEAD"
	switch {
	case !get && !head:
		c.out = append(c.out, "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 0\r\n"...)
	case string(r.Target) != "/":
		c.out = append(c.out, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n"...)
	default:
		c.out = append(c.out, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\nDate: "...)
		c.out = append(c.out, c.ls.now()...)
		c.out = append(c.out, "\r\n"...)
	}
	switch {
	case !r.KeepAlive:
		c.out = append(c.out, "Connection: close\r\n"...)
		c.last = true
	case r.Minor == 0:
		c.out = append(c.out, "Connection: keep-alive\r\n"...)
	}
	c.out = append(c.out, "\r\n"...)
	if get && string(r.Target) == "/" {
		c.out = append(c.out, "Hello, World!"...)
	}
}

// appendStatus appends the response to a refused request; the connection closes after it.
func appendStatus(out []byte, status int) []byte {
	switch status {
	case 413:
		out = append(out, "HTTP/1.1 413 Content Too Large\r\n"...)
	case 431:
		out = append(out, "HTTP/1.1 431 Request Header Fields Too Large\r\n"...)
	case 501:
		out = append(out, "HTTP/1.1 501 Not Implemented\r\n"...)
	case 505:
		out = append(out, "HTTP/1.1 505 HTTP Version Not Supported\r\n"...)
	default:
		out = append(out, "HTTP/1.1 400 Bad Request\r\n"...)
	}
	return append(out, "Content-Length: 0\r\nConnection: close\r\n\r\n"...)
}

// flush writes c.out: at once if the socket takes it, else queued with reading stopped.
func (c *conn) flush() {
	if len(c.out) == 0 {
		return
	}
	n, err := c.tcp.TryWrite(c.out)
	if err != nil && !errors.Is(err, syscall.EAGAIN) {
		c.close()
		return
	}
	if n == len(c.out) {
		c.written(nil)
		return
	}
	c.tcp.ReadStop()
	if c.tcp.Write(c.out[n:], c.onWrite) != nil {
		c.close()
	}
}

// written runs when c.out is written.
func (c *conn) written(err error) {
	if c.tcp.IsClosing() {
		return
	}
	c.out = c.out[:0]
	switch {
	case err != nil:
		c.close()
	case c.last:
		c.lingerClose()
	case !c.tcp.IsActive():
		if c.tcp.ReadStart(c.onRead) != nil {
			c.close()
		}
	}
}

// lingerClose shuts the connection down and discards input until the client closes or
// lingerTime passes, so that the client reads the last response rather than a reset.
func (c *conn) lingerClose() {
	if c.tcp.Shutdown(nil) != nil {
		c.close()
		return
	}
	c.linger = c.ls.loop.SetTimeout(c.onLinger, lingerTime).Unref()
	if !c.tcp.IsActive() && c.tcp.ReadStart(c.onRead) != nil {
		c.close()
	}
}

func (c *conn) lingerDone() {
	c.linger = nil
	c.close()
}

func (c *conn) close() {
	if c.linger != nil {
		c.ls.loop.ClearTimeout(c.linger)
	}
	if !c.tcp.IsClosing() {
		c.tcp.Close(nil)
	}
}
