// Command loopstats is an HTTP server that shows what its own event loop is doing: GET
// /metrics answers, as plain text, the loop's utilization (Node's eventLoopUtilization), the
// percentiles of its delay (Node's monitorEventLoopDelay), the callbacks and time of each
// phase, the queue depths and the long tasks seen; SIGUSR1 writes the same report to stderr.
// GET /block?ms=N holds the loop for N ms (at most 1000), to watch a long task and the delay
// it causes; GET / answers "Hello, World!".
//
//	go run ./examples/loopstats -addr 127.0.0.1:8080 &
//	curl -s 127.0.0.1:8080/block?ms=120; curl -s 127.0.0.1:8080/metrics
//	kill -USR1 %1
//
// Long tasks (callbacks that hold the loop for -long or more) are logged to stderr with
// log/slog. SIGINT or SIGTERM shuts the server down.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	res := flag.Duration("resolution", 10*time.Millisecond, "the delay monitor's sampling interval")
	long := flag.Duration("long", uvloop.DefaultLongTask, "the long-task threshold")
	flag.Parse()
	s, err := Serve(*addr, Options{Resolution: *res, LongTask: *long, Log: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("loopstats: listening on %v", s.Addr)
	if err := s.Wait(); err != nil {
		log.Fatal(err)
	}
}

// Options configure Serve.
type Options struct {
	Resolution time.Duration // the delay monitor's resolution (0: 10 ms)
	LongTask   time.Duration // the long-task threshold (0: 50 ms)
	Log        *slog.Logger  // where long tasks are logged (nil: slog.Default())
}

// Server is a running server.
type Server struct {
	Addr netip.AddrPort

	loop    *uvloop.Loop
	srv     *http1.Server
	delay   *uvloop.DelayMonitor
	long    []uvloop.LongTask // the last few long tasks; loop goroutine only
	longN   int               // long tasks seen; loop goroutine only
	logger  *slog.Logger
	signals []*uvloop.Signal
	done    chan error
}

const keepLong = 8 // long tasks kept for the report

// Serve starts the server on its own loop goroutine.
func Serve(addr string, o Options) (*Server, error) {
	s := &Server{done: make(chan error, 1), logger: o.Log}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	l, err := uvloop.New(uvloop.WithPhaseTiming(), uvloop.WithLogger(s.logger), uvloop.WithLongTasks(o.LongTask, s.onLongTask))
	if err != nil {
		return nil, err
	}
	s.loop = l
	if s.delay, err = l.NewDelayMonitor(o.Resolution); err != nil {
		l.Close()
		return nil, err
	}
	s.delay.Enable()
	s.srv = http1.NewServer(l, http1.HandlerFunc(s.handle))
	if s.Addr, err = s.srv.ListenTCP(addr, 0); err != nil {
		s.srv.Close(nil)
		l.Run(uvloop.RunDefault)
		l.Close()
		return nil, err
	}
	s.watchSignals()
	go func() {
		_, err := l.Run(uvloop.RunDefault)
		if err == nil {
			l.Walk(func(h uvloop.Handle) {
				if !h.IsClosing() {
					h.Close(nil)
				}
			})
			_, err = l.Run(uvloop.RunDefault)
		}
		s.done <- errors.Join(err, l.Close())
	}()
	return s, nil
}

// onLongTask logs a long task and keeps it for the report.
func (s *Server) onLongTask(t uvloop.LongTask) {
	s.longN++
	if len(s.long) == keepLong {
		copy(s.long, s.long[1:])
		s.long = s.long[:keepLong-1]
	}
	s.long = append(s.long, t)
	s.logger.Warn("long task", "phase", t.Phase.String(), "duration", t.Duration, "func", t.Func)
}

// watchSignals: SIGUSR1 writes the report to stderr, SIGINT and SIGTERM shut down. The
// handles are unref'd: the server keeps the loop alive, not they.
func (s *Server) watchSignals() {
	add := func(sig syscall.Signal, fn func()) {
		h, err := s.loop.NewSignal(func(*uvloop.Signal, syscall.Signal) { fn() })
		if err == nil && h.Start(sig) == nil {
			h.Unref()
			s.signals = append(s.signals, h)
		}
	}
	if reportSignal != 0 {
		add(reportSignal, func() { fmt.Fprint(os.Stderr, s.Report()) })
	}
	add(syscall.SIGINT, s.shutdown)
	add(syscall.SIGTERM, s.shutdown)
}

func (s *Server) shutdown() {
	for _, h := range s.signals {
		if !h.IsClosing() {
			h.Close(nil)
		}
	}
	s.delay.Disable()
	s.srv.Shutdown(nil)
}

// Close shuts the server down and waits for its loop to end.
func (s *Server) Close() error {
	s.loop.Post(s.shutdown)
	return s.Wait()
}

// Wait waits for the loop to end (after SIGINT, SIGTERM or Close).
func (s *Server) Wait() error { return <-s.done }

// handle is the HTTP handler; it runs on the loop goroutine.
func (s *Server) handle(w *http1.Response, r *http1.Request) {
	if string(r.Method) != "GET" {
		w.WriteHeader(405)
		w.AddHeader("Allow", "GET")
		w.End(nil)
		return
	}
	path, query, _ := strings.Cut(string(r.Target), "?")
	w.AddHeader("Content-Type", "text/plain; charset=utf-8")
	switch path {
	case "/":
		w.EndString("Hello, World!")
	case "/metrics":
		w.EndString(s.Report())
	case "/block":
		ms, err := strconv.Atoi(strings.TrimPrefix(query, "ms="))
		if err != nil || !strings.HasPrefix(query, "ms=") || ms < 0 || ms > 1000 {
			w.WriteHeader(400)
			w.EndString("want /block?ms=N, 0 <= N <= 1000\n")
			return
		}
		for start := time.Now(); time.Since(start) < time.Duration(ms)*time.Millisecond; {
		}
		w.EndString(fmt.Sprintf("held the loop for %d ms\n", ms))
	default:
		w.WriteHeader(404)
		w.End(nil)
	}
}

// Report formats what the loop measured. Loop goroutine only.
func (s *Server) Report() string {
	var b strings.Builder
	m := s.loop.Metrics()
	elu := s.loop.EventLoopUtilization()
	fmt.Fprintf(&b, "event loop utilization: %.3f (active %v, idle %v)\n", elu.Utilization,
		elu.Active.Round(time.Microsecond), elu.Idle.Round(time.Microsecond))
	fmt.Fprintf(&b, "iterations: %d, I/O events: %d\n", m.LoopCount, m.Events)
	d := s.delay.Snapshot()
	fmt.Fprintf(&b, "delay (resolution %v, %d samples): min %v p50 %v p90 %v p99 %v max %v mean %.3fms stddev %.3fms\n",
		d.Resolution, d.Count, d.Min, d.P50, d.P90, d.P99, d.Max, d.Mean/1e6, d.Stddev/1e6)
	b.WriteString("phase           callbacks        time\n")
	for p := range uvloop.NumPhases {
		pm := m.Phases[p]
		fmt.Fprintf(&b, "%-15s %9d %11v\n", p, pm.Callbacks, pm.Time.Round(time.Microsecond))
	}
	q := m.Queues
	fmt.Fprintf(&b, "queues: ticks %d, microtasks %d, immediates %d, timeouts %d, timers %d, pending %d, posted %d, pool %d, closing %d\n",
		q.Ticks, q.Microtasks, q.Immediates, q.Timeouts, q.Timers, q.Pending, q.Posted, q.PoolQueue, q.Closing)
	res := s.loop.ActiveResources()
	total := 0
	for _, n := range res.Handles {
		total += n
	}
	fmt.Fprintf(&b, "active handles: %d (%d ref'd):", total, res.Refed)
	for k := uvloop.KindTimer; k <= uvloop.KindTTY; k++ {
		if n := res.Handles[k]; n > 0 {
			fmt.Fprintf(&b, " %s %d", k, n)
		}
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "long tasks: %d\n", s.longN)
	for _, t := range s.long {
		fmt.Fprintf(&b, "  %v in %s: %s\n", t.Duration.Round(time.Microsecond), t.Phase, t.Func)
	}
	return b.String()
}
