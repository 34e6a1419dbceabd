// Command http is an HTTP/1.1 server on uvgo loops, a thin program on package http1: it
// answers "Hello, World!" to GET / (and HEAD /), 405 to other methods and 404 to other
// paths, with http1's keep-alive, pipelining, limits and timeouts (Node's defaults).
//
// The handler runs on the loop goroutine and allocates nothing: the body is a constant,
// the head is gathered in the connection's reused output buffer, and the responses to
// the pipelined requests of one read go out in one write.
//
// With -loops N > 1, N loops on N goroutines, each locked to its OS thread, listen on the
// same address with SO_REUSEPORT and the kernel spreads the connections between them: add
// loops when one core is not enough. SIGINT or SIGTERM (watched by uvloop Signal handles)
// shuts down gracefully: the listeners close, idle connections close, the requests in
// progress are answered for up to -grace (5s), what is left is closed, and it exits 0.
package main

import (
	"errors"
	"flag"
	"log"
	"net/netip"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	loops := flag.Int("loops", 1, "event loops (goroutines locked to OS threads) sharing the port through SO_REUSEPORT")
	grace := flag.Duration("grace", 5*time.Second, "on SIGINT or SIGTERM, how long requests in progress may go on")
	flag.Parse()
	// A spare P, for a server pinned to one CPU (taskset), where Go's GOMAXPROCS would be 1:
	// with one P the runtime takes it back from each wait of the loop that lasts over 20 µs
	// and checks every 20 µs while it does (README, "One connection, and GOMAXPROCS=1"). An
	// operator's GOMAXPROCS wins.
	if os.Getenv("GOMAXPROCS") == "" && runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
	}
	s, err := Serve(*addr, *loops)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("http: listening on %v with %d loop(s)", s.Addr, *loops)
	if err := s.ShutdownOnSignals(*grace); err != nil {
		log.Fatal(err)
	}
	log.Print("http: shut down")
}

// ShutdownOnSignals makes every loop watch SIGINT and SIGTERM with uvloop Signal handles:
// the first shuts the loop's server down (Shutdown: the listener and the idle connections
// close, the requests in progress are answered) and, after grace, closes what is left
// (an unref'd timer, so a loop whose connections are done ends at once). It returns once
// every loop has ended.
func (s *Server) ShutdownOnSignals(grace time.Duration) error {
	for _, ls := range s.loops {
		ls.loop.Post(func() {
			var sigs []*uvloop.Signal
			shutdown := func(*uvloop.Signal, syscall.Signal) {
				if sigs == nil {
					return // both signals came
				}
				for _, h := range sigs {
					h.Close(nil)
				}
				sigs = nil
				ls.srv.Shutdown(nil)
				deadline := ls.loop.NewTimer(func(t *uvloop.Timer) {
					t.Close(nil)
					ls.srv.Close(nil)
				})
				deadline.Start(grace, 0)
				deadline.Unref()
			}
			for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
				if h, err := ls.loop.NewSignal(shutdown); err == nil && h.Start(sig) == nil {
					h.Unref() // the server keeps the loop alive, not the handlers
					sigs = append(sigs, h)
				}
			}
		})
	}
	var errs []error
	for range s.loops {
		errs = append(errs, <-s.done)
	}
	return errors.Join(errs...)
}

// hello is the handler: no allocation per request. BufferBody reads a request's body (up
// to 1 MiB) before the handler answers, so that a malformed or oversized body is refused
// with its status (400, 413) rather than after a 405.
var hello = http1.BufferBody(http1.HandlerFunc(func(w *http1.Response, r *http1.Request) {
	get, head := string(r.Method) == "GET", string(r.Method) == "HEAD"
	switch {
	case !get && !head:
		w.WriteHeader(405)
		w.AddHeader("Allow", "GET, HEAD")
		w.End(nil)
	case string(r.Target) != "/":
		w.WriteHeader(404)
		w.End(nil)
	default:
		w.AddHeader("Content-Type", "text/plain")
		w.EndString("Hello, World!")
	}
}))

// Server is a running server: Serve starts it, Close or Shutdown ends it.
type Server struct {
	Addr  netip.AddrPort // the bound address
	loops []*loopServer
	done  chan error
}

// loopServer is one loop with its http1.Server.
type loopServer struct {
	loop *uvloop.Loop
	srv  *http1.Server
}

// Serve listens on addr with loops loops (each on its own goroutine) and serves until Close.
func Serve(addr string, loops int) (*Server, error) {
	if loops < 1 {
		return nil, errors.New("http: loops must be at least 1")
	}
	if _, err := netip.ParseAddrPort(addr); err != nil {
		return nil, err
	}
	var flags uvloop.TCPFlags
	if loops > 1 {
		flags = uvloop.TCPReusePort
	}
	s := &Server{done: make(chan error, loops)}
	for i := range loops {
		loop, err := uvloop.New(uvloop.WithOwnThread()) // a thread of its own from New to Close (on io_uring its ring is pinned there)
		if err != nil {
			s.abort()
			return nil, err
		}
		ls := &loopServer{loop: loop, srv: http1.NewServer(loop, hello)}
		s.loops = append(s.loops, ls)
		ap, err := ls.srv.ListenTCP(addr, flags)
		if err != nil {
			s.abort()
			return nil, err
		}
		if i == 0 {
			s.Addr = ap
			addr = ap.String() // the others join the port the first one got
		}
	}
	for _, ls := range s.loops {
		go func() {
			_, err := ls.loop.Run(uvloop.RunDefault)
			if err == nil { // what is left is unref'd (a shutdown's deadline timer): close it
				ls.loop.Walk(func(h uvloop.Handle) {
					if !h.IsClosing() {
						h.Close(nil)
					}
				})
				_, err = ls.loop.Run(uvloop.RunDefault)
			}
			s.done <- errors.Join(err, ls.loop.Close())
		}()
	}
	return s, nil
}

// abort ends loops that never ran.
func (s *Server) abort() {
	for _, ls := range s.loops {
		ls.srv.Close(nil)
		ls.loop.Run(uvloop.RunDefault)
		ls.loop.Close()
	}
}

// Close closes the listeners and the connections, and waits for the loops to end.
func (s *Server) Close() error {
	return s.end(func(srv *http1.Server) { srv.Close(nil) })
}

// Shutdown closes the listeners and the idle connections, lets the requests in progress
// be answered, and waits for the loops to end.
func (s *Server) Shutdown() error {
	return s.end(func(srv *http1.Server) { srv.Shutdown(nil) })
}

func (s *Server) end(how func(*http1.Server)) error {
	for _, ls := range s.loops {
		ls.loop.Post(func() { how(ls.srv) })
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
		n[i] = ls.srv.Requests()
	}
	return n
}
