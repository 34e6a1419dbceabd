// Command uvsoak soaks a uvgo echo server and a uvgo HTTP server (package http1) with
// thousands of connections for a set time, checking every byte, with chaos: random resets
// (SO_LINGER 0), half-closes, clients that never read, idle clients, slowloris heads,
// pipelined bursts, bodies, a server fd limit low enough to hit EMFILE, and (with -panic)
// server callbacks that panic at random, which the server survives by the loop's documented
// policy (Run returns a *uvloop.PanicError; run it again).
//
// The servers run in a child process (this binary again, told so by $UVSOAK_SERVE), so that its RSS, fds and
// goroutines are its own: they are sampled before the load, every second during it, and
// after it, once the clients are gone and the server is idle; they must stay bounded and
// come back to the baseline. Loopback only; it stops by itself.
//
//	go run ./cmd/uvsoak                       # 60 s, 10,000 echo and 1,000 HTTP clients
//	go run ./cmd/uvsoak -short                # 5 s, 300 and 100: the CI run
//	go run ./cmd/uvsoak -duration 5m -panic 0.001
//
// It exits 1 if a byte was wrong, a connection was cut where it must not be, a resource did
// not come back, or the server failed.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

type config struct {
	duration  time.Duration
	echoConns int
	httpConns int
	nofile    int
	panicP    float64
}

func main() {
	if serveFromEnv() {
		return
	}
	short := flag.Bool("short", false, "a short run (CI): 5s, 300 echo and 100 HTTP clients, server fd limit 256")
	duration := flag.Duration("duration", 60*time.Second, "how long the clients run")
	echoConns := flag.Int("echo", 10000, "echo clients (each keeps one connection open at a time)")
	httpConns := flag.Int("http", 1000, "HTTP clients")
	nofile := flag.Int("nofile", 4096, "the server's RLIMIT_NOFILE: below the clients' count, accepts hit EMFILE")
	panicP := flag.Float64("panic", 0, "probability that an HTTP request asks its handler to panic (a chaos timer panics too)")
	flag.Parse()
	cfg := config{*duration, *echoConns, *httpConns, *nofile, *panicP}
	if *short {
		cfg = config{5 * time.Second, 300, 100, 256, *panicP}
	}
	rep, err := soak(cfg, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "uvsoak:", err)
		os.Exit(1)
	}
	if len(rep.problems) > 0 {
		os.Exit(1)
	}
}

// report is what a soak found.
type report struct {
	baseline, peak, after sample
	counts                map[string]int64
	problems              []string
}

// soak runs the server process and the clients, prints a summary to w and returns it.
func soak(cfg config, w io.Writer) (*report, error) {
	raiseNofile()
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), fmt.Sprintf("UVSOAK_SERVE=%d,%g", cfg.nofile, cfg.panicP))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	samples := make(chan sample, 16)
	go func() {
		dec := json.NewDecoder(bufio.NewReader(stdout))
		for {
			var s sample
			if err := dec.Decode(&s); err != nil {
				close(samples)
				return
			}
			samples <- s
		}
	}()
	ask := func() (sample, error) {
		if _, err := io.WriteString(stdin, "sample\n"); err != nil {
			return sample{}, err
		}
		s, ok := <-samples
		if !ok {
			return sample{}, errors.New("the server process ended")
		}
		return s, nil
	}
	first, ok := <-samples
	if !ok {
		cmd.Wait()
		return nil, errors.New("the server process did not start")
	}
	rep := &report{counts: map[string]int64{}}
	if rep.baseline, err = ask(); err != nil {
		return nil, err
	}
	rep.peak = rep.baseline

	// The load.
	overflows := listenOverflows()
	c := &clients{echoAddr: first.EchoAddr, httpAddr: first.HTTPAddr, deadline: time.Now().Add(cfg.duration), panicP: cfg.panicP}
	var wg sync.WaitGroup
	for i := range cfg.echoConns {
		wg.Go(func() { c.echoClient(uint64(i)) })
	}
	for i := range cfg.httpConns {
		wg.Go(func() { c.httpClient(uint64(i)) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); c.bg.Wait(); close(done) }()
	tick := time.NewTicker(time.Second)
wait:
	for {
		select {
		case <-done:
			break wait
		case <-tick.C:
			s, err := ask()
			if err != nil {
				return nil, err
			}
			if os.Getenv("UVSOAK_DEBUG") != "" {
				fmt.Fprintf(os.Stderr, "uvsoak: sample: fds %d echo %d http %d accepted %d requests %d panics %d delay %d ms\n",
					s.FDs, s.EchoConns, s.HTTPConns, s.Accepted, s.Requests, s.Panics, s.MaxDelay)
			}
			rep.peak = peak(rep.peak, s)
		}
	}
	tick.Stop()

	// After: the clients are gone; the server must drop every connection and come back.
	var after sample
	for i := 0; i < 50; i++ {
		if after, err = ask(); err != nil {
			return nil, err
		}
		if after.EchoConns == 0 && after.HTTPConns == 0 && after.InFlight == 0 && after.FDs <= rep.baseline.FDs {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	rep.after = after
	io.WriteString(stdin, "quit\n")
	final, ok := <-samples
	for range samples {
	}
	if err := cmd.Wait(); err != nil {
		rep.problems = append(rep.problems, "the server process failed: "+err.Error())
	} else if !ok {
		rep.problems = append(rep.problems, "the server process printed no final sample")
	}

	c.counts.Range(func(k, v any) bool {
		rep.counts[k.(string)] = v.(*atomic.Int64).Load()
		return true
	})
	if n := listenOverflows(); overflows >= 0 && n >= 0 {
		// The host's count, as `nstat -az TcpExtListenOverflows` shows it: only this soak's
		// listeners overflow while it runs, unless something else on the host does too.
		rep.counts["kernel: handshakes dropped at a full accept queue"] = n - overflows
	}
	p := &rep.problems
	for _, k := range []string{"echo wrong bytes", "echo cut", "echo stalled", "http wrong answer", "http wrong answer after a panic", "http cut", "http stalled", "slowloris not closed"} {
		if n := rep.counts[k]; n > 0 {
			*p = append(*p, fmt.Sprintf("%s: %d", k, n))
		}
	}
	if after.EchoConns != 0 || after.HTTPConns != 0 {
		*p = append(*p, fmt.Sprintf("connections still open after the load: echo %d, http %d %v", after.EchoConns, after.HTTPConns, after.Stuck))
	}
	if after.InFlight != 0 {
		*p = append(*p, fmt.Sprintf("%d requests still counted in flight", after.InFlight))
	}
	if after.FDs > rep.baseline.FDs {
		*p = append(*p, fmt.Sprintf("fds: %d after, %d before", after.FDs, rep.baseline.FDs))
	}
	if after.Goroutines > rep.baseline.Goroutines+2 {
		*p = append(*p, fmt.Sprintf("goroutines: %d after, %d before", after.Goroutines, rep.baseline.Goroutines))
	}
	if after.RSS > rep.baseline.RSS+64<<20 && after.RSS > 2*rep.baseline.RSS {
		*p = append(*p, fmt.Sprintf("RSS: %d MiB after, %d MiB before", after.RSS>>20, rep.baseline.RSS>>20))
	}
	// The count lists /proc/PID/fd while the server opens and closes fds: the listing is not
	// atomic, so an fd closed and a new one opened during it can both be seen. The kernel keeps
	// the real number at or below the limit; a few over is that, more is a broken limit.
	if cfg.nofile > 0 && rep.peak.FDs > cfg.nofile+4 {
		*p = append(*p, fmt.Sprintf("fds peaked at %d over the limit %d", rep.peak.FDs, cfg.nofile))
	}
	if cfg.panicP == 0 && after.Panics > 0 {
		*p = append(*p, fmt.Sprintf("%d panics without -panic", after.Panics))
	}
	if final.Goroutines > 3 {
		*p = append(*p, fmt.Sprintf("%d goroutines after the loop closed", final.Goroutines))
	}
	rep.print(w, cfg)
	return rep, nil
}

// serveFromEnv runs the server process if $UVSOAK_SERVE says so ("nofile,panic"), and
// reports whether it did.
func serveFromEnv() bool {
	v := os.Getenv("UVSOAK_SERVE")
	if v == "" {
		return false
	}
	var nofile int
	var p float64
	if _, err := fmt.Sscanf(v, "%d,%g", &nofile, &p); err != nil {
		fmt.Fprintln(os.Stderr, "uvsoak server: bad UVSOAK_SERVE:", v)
		os.Exit(2)
	}
	if err := serve(nofile, p); err != nil {
		fmt.Fprintln(os.Stderr, "uvsoak server:", err)
		os.Exit(1)
	}
	return true
}

func peak(a, b sample) sample {
	a.RSS, a.FDs, a.Goroutines = max(a.RSS, b.RSS), max(a.FDs, b.FDs), max(a.Goroutines, b.Goroutines)
	a.EchoConns, a.HTTPConns, a.InFlight = max(a.EchoConns, b.EchoConns), max(a.HTTPConns, b.HTTPConns), max(a.InFlight, b.InFlight)
	a.Requests, a.Panics, a.Timeouts = max(a.Requests, b.Requests), max(a.Panics, b.Panics), max(a.Timeouts, b.Timeouts)
	a.MaxDelay = max(a.MaxDelay, b.MaxDelay)
	return a
}

func (r *report) print(w io.Writer, cfg config) {
	fmt.Fprintf(w, "uvsoak: %s, %d echo and %d HTTP clients, server fd limit %d, panic probability %g\n",
		cfg.duration, cfg.echoConns, cfg.httpConns, cfg.nofile, cfg.panicP)
	fmt.Fprintf(w, "%-10s %8s %6s %11s %11s %11s\n", "server", "RSS MiB", "fds", "goroutines", "echo conns", "http conns")
	for _, row := range []struct {
		name string
		s    sample
	}{{"baseline", r.baseline}, {"peak", r.peak}, {"after", r.after}} {
		fmt.Fprintf(w, "%-10s %8.1f %6d %11d %11d %11d\n", row.name, float64(row.s.RSS)/(1<<20), row.s.FDs, row.s.Goroutines, row.s.EchoConns, row.s.HTTPConns)
	}
	fmt.Fprintf(w, "server: %d HTTP requests, %d timeouts, %d panics recovered, %d in flight after; the loop's longest turn %d ms\n",
		r.after.Requests, r.after.Timeouts, r.after.Panics, r.after.InFlight, r.peak.MaxDelay)
	var keys []string
	for k := range r.counts {
		keys = append(keys, k)
	}
	sortStrings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %-28s %d\n", k, r.counts[k])
	}
	if len(r.problems) == 0 {
		fmt.Fprintln(w, "uvsoak: ok")
		return
	}
	for _, p := range r.problems {
		fmt.Fprintln(w, "uvsoak: PROBLEM:", p)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
