package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/uvloop"
)

// The server process: one loop with an echo listener (examples/echo's design: TryWrite what
// was read, queue the rest, stop reading until it is written) and an http1 server whose
// handler echoes the target, or the body of a POST. With -panic p, a handler panics with
// probability p and a chaos timer's callback panics now and then; Run returns the
// *uvloop.PanicError, as documented, and the server calls Run again and goes on.
//
// It prints one JSON sample per line: at the start, then whenever a line "sample" comes on
// stdin (after a GC that returns memory to the OS, so that RSS can come back down); a line
// "quit" closes everything, and the last line is the final sample.

type sample struct {
	RSS        int64 `json:"rss"` // bytes
	FDs        int   `json:"fds"`
	Goroutines int   `json:"goroutines"`
	EchoConns  int   `json:"echo_conns"`
	HTTPConns  int   `json:"http_conns"`
	Requests   int64 `json:"requests"`
	Accepted   int64 `json:"accepted"` // HTTP connections served so far
	Timeouts   int64 `json:"timeouts"`
	Panics     int   `json:"panics"`
	InFlight   int   `json:"in_flight"` // requests whose handler ran and whose response has not ended
	MaxDelay   int64 `json:"max_delay"` // ms: the most a 100 ms timer fired late (the loop's longest turn)
	EchoAddr   string
	HTTPAddr   string
	Stuck      []string `json:",omitempty"` // the echo connections still open, when few
}

func serve(nofile int, panicP float64) error {
	openProc()
	if nofile > 0 {
		if err := limitNofile(nofile); err != nil {
			return err
		}
	}
	l, err := uvloop.New()
	if err != nil {
		return err
	}
	st := &serverState{loop: l, panicP: panicP, rnd: rand.New(rand.NewPCG(1, 2)), echoSet: map[*echoConn]bool{}}
	ln, err := st.listenEcho()
	if err != nil {
		return err
	}
	echoAddr, _ := ln.LocalAddr()
	st.http = http1.NewServer(l, http1.HandlerFunc(st.handle),
		http1.HeadersTimeout(5*time.Second), http1.RequestTimeout(10*time.Second),
		http1.KeepAliveTimeout(5*time.Second), http1.LingerTimeout(time.Second))
	httpAddr, err := st.http.ListenTCP("127.0.0.1:0", 0)
	if err != nil {
		return err
	}
	// The loop's delay: how late a 100 ms timer fires.
	var last time.Time
	delay := l.NewTimer(func(*uvloop.Timer) {
		now := time.Now()
		if !last.IsZero() {
			st.maxDelay = max(st.maxDelay, now.Sub(last)-100*time.Millisecond)
		}
		last = now
	})
	delay.Start(100*time.Millisecond, 100*time.Millisecond)
	delay.Unref()
	if panicP > 0 {
		chaos := l.NewTimer(func(*uvloop.Timer) {
			if st.rnd.Float64() < 0.2 {
				panic("uvsoak: a chaos timer panics")
			}
		})
		chaos.Start(50*time.Millisecond, 50*time.Millisecond)
		chaos.Unref()
	}

	out := json.NewEncoder(os.Stdout)
	report := func(s sample) { out.Encode(s) }
	first := st.sample()
	first.EchoAddr, first.HTTPAddr = echoAddr.String(), httpAddr.String()
	report(first)

	// Commands come on stdin; the loop goroutine answers them through Post.
	go func() {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			switch strings.TrimSpace(in.Text()) {
			case "sample":
				ch := make(chan sample, 1)
				if l.Post(func() { ch <- st.sample() }) != nil {
					return
				}
				s := <-ch
				runtime.GC()
				debug.FreeOSMemory()
				s.RSS, s.FDs, s.Goroutines = rss(), fds(), runtime.NumGoroutine()
				report(s)
			case "quit":
				l.Post(func() {
					st.closing = true
					st.http.Close(nil)
					l.Walk(func(h uvloop.Handle) {
						if !h.IsClosing() {
							h.Close(nil)
						}
					})
				})
				return
			}
		}
	}()
	for {
		_, err := l.Run(uvloop.RunDefault)
		var pe *uvloop.PanicError
		if errors.As(err, &pe) {
			st.panics++
			continue // the documented policy: the loop is consistent, run it again
		}
		if err != nil {
			return err
		}
		break
	}
	if err := l.Close(); err != nil {
		return err
	}
	s := st.sample()
	s.Goroutines = runtime.NumGoroutine()
	report(s)
	return nil
}

type serverState struct {
	loop      *uvloop.Loop
	http      *http1.Server
	panicP    float64
	rnd       *rand.Rand
	echoConns int
	echoSet   map[*echoConn]bool
	inFlight  int
	panics    int
	closing   bool
	maxDelay  time.Duration
}

func (st *serverState) sample() sample {
	hs := st.http.Stats()
	s := sample{RSS: rss(), FDs: fds(), Goroutines: runtime.NumGoroutine(), EchoConns: st.echoConns,
		HTTPConns: hs.Connections, Requests: hs.Requests, Accepted: hs.Accepted, Timeouts: hs.Timeouts, Panics: st.panics,
		InFlight: st.inFlight, MaxDelay: st.maxDelay.Milliseconds()}
	if len(st.echoSet) <= 64 {
		for c := range st.echoSet {
			peer, _ := c.tcp.RemoteAddr()
			s.Stuck = append(s.Stuck, fmt.Sprintf("fd %d peer %v age %v active %v readable %v writable %v queued %d rest %d closing %v reads %d writes %d",
				c.tcp.Fd(), peer, time.Since(c.born).Round(time.Millisecond), c.tcp.IsActive(), c.tcp.IsReadable(), c.tcp.IsWritable(), c.tcp.WriteQueueSize(), len(c.rest), c.tcp.IsClosing(), c.reads, c.writes))
		}
	}
	return s
}

// handle answers GET /x with "x" and POST with its body. With -panic, a GET of /panic/...
// panics before answering: the clients choose those requests at random, so that each knows
// which of its requests gets no answer (http1's policy: see afterPanic in clients.go).
func (st *serverState) handle(w *http1.Response, r *http1.Request) {
	if st.panicP > 0 && bytes.HasPrefix(r.Target, []byte("/panic/")) {
		panic("uvsoak: a handler panics")
	}
	if string(r.Method) != "POST" {
		w.End(r.Target)
		return
	}
	st.inFlight++
	var body []byte
	r.OnBody(func(p []byte) { body = append(body, p...) }, func(err error) {
		st.inFlight--
		if err == nil {
			w.End(body)
		}
	})
}

func (st *serverState) listenEcho() (*uvloop.TCP, error) {
	l := st.loop
	ln, err := l.NewTCP()
	if err != nil {
		return nil, err
	}
	if err := ln.BindString("127.0.0.1:0", 0); err != nil {
		return nil, err
	}
	err = ln.Listen(4096, func(err error) {
		if err != nil {
			return
		}
		c, err := l.NewTCP()
		if err != nil {
			return
		}
		if ln.Accept(c) != nil {
			c.Close(nil)
			return
		}
		st.echoConns++
		ec := &echoConn{st: st, tcp: c, born: time.Now()}
		st.echoSet[ec] = true
		ec.onRead, ec.onWrite = ec.read, ec.written
		if c.ReadStart(ec.onRead) != nil {
			ec.close()
		}
	})
	return ln, err
}

type echoConn struct {
	st      *serverState
	tcp     *uvloop.TCP
	rest    []byte
	onRead  func([]byte, error)
	onWrite func(error)
	reads   int // read callbacks
	writes  int // queued writes
	born    time.Time
}

func (c *echoConn) close() {
	if !c.tcp.IsClosing() {
		c.tcp.Close(func() { c.st.echoConns--; delete(c.st.echoSet, c) })
	}
}

func (c *echoConn) read(data []byte, err error) {
	c.reads++
	if err != nil {
		c.close()
		return
	}
	n, err := c.tcp.TryWrite(data)
	if err != nil && !errors.Is(err, syscall.EAGAIN) {
		c.close()
		return
	}
	if n == len(data) {
		return
	}
	c.writes++
	c.rest = append(c.rest[:0], data[n:]...)
	c.tcp.ReadStop()
	if c.tcp.Write(c.rest, c.onWrite) != nil {
		c.close()
	}
}

func (c *echoConn) written(err error) {
	if err != nil || c.tcp.ReadStart(c.onRead) != nil {
		c.close()
	}
}

// The sampler reads /proc through files it opened at the start: at the fd limit, opening
// them would fail, and an open on another thread can take the fd that the listener's EMFILE
// trick frees for a moment.
var procFds, procStatus *os.File

func openProc() {
	procFds, _ = os.Open("/proc/self/fd")
	procStatus, _ = os.Open("/proc/self/status")
}

func rss() int64 {
	if procStatus == nil {
		return -1
	}
	b := make([]byte, 4096)
	n, err := procStatus.ReadAt(b, 0)
	if n == 0 && err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b[:n]), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			var kb int64
			fmt.Sscanf(strings.TrimPrefix(line, "VmRSS:"), "%d", &kb)
			return kb << 10
		}
	}
	return -1
}

func fds() int {
	if procFds == nil {
		return -1
	}
	if _, err := procFds.Seek(0, io.SeekStart); err != nil {
		return -1
	}
	names, err := procFds.Readdirnames(-1)
	if err != nil {
		return -1
	}
	return len(names)
}
