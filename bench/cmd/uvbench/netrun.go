package main

// The network workloads: each runtime's server is a process started fresh for every
// measurement, on a free loopback port, and driven by the same client program — the ones
// bench/net.sh uses (cmd/echoclient, wrk, cmd/idleconns). Rates are turned into time per
// operation (10⁹ / rate: the inverse throughput of all connections together), so that uvgo's
// number over another's is < 1 when uvgo is faster, as in every other row.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// NetKind says how a network workload measures its servers.
type NetKind string

const (
	netEcho NetKind = "echo" // cmd/echoclient: round trips/s -> ns per round trip
	netHTTP NetKind = "http" // wrk: req/s -> ns per request
	netIdle NetKind = "idle" // cmd/idleconns against a fresh server: RSS bytes per connection
)

// Rate keys in Sample.Extra: the rate a network sample was measured as.
const (
	keyRTTPerS = "round trips/s"
	keyReqPerS = "req/s"
)

// echoSize is the message size of the tcp-echo workload, as in bench/net.sh.
const echoSize = 64

// Peer is a server measured beside uvgo, Node and libuv on a network workload; it has its own
// line in the notes (the table has three runtime columns).
type Peer struct {
	Name string   // as the notes and raw.tsv show it
	Env  []string // added to the environment
}

// peerBridge is the net/http hello handler on one uvgo loop (bench/peers/uvnethttp,
// http1.FromNetHTTP): its goal is 1.5x net/http at GOMAXPROCS=1.
const peerBridge = "net/http handler on uvgo (http1.FromNetHTTP), 1 loop"

// peerHTTP1 is the hello handler on package http1 directly (bench/peers/uvhttp1).
const peerHTTP1 = "uvgo http1 hello, 1 loop"

// peerNodeHTTP is bench/node/http-hello.js ported to package nodehttp (bench/peers/uvnodehttp):
// its goal is 2x Node's http.
const peerNodeHTTP = "uvgo nodehttp (http-hello.js ported), 1 loop"

// httpPeers are uvgo's http1 and nodehttp hellos, Go's net/http (bench/peers/nethttp) at one
// P and unrestricted, and the same net/http handler on uvgo.
var httpPeers = []Peer{
	{Name: peerHTTP1},
	{Name: peerNodeHTTP},
	{Name: peerBridge},
	{Name: "Go net/http, GOMAXPROCS=1", Env: []string{"GOMAXPROCS=1"}},
	{Name: "Go net/http, GOMAXPROCS=" + strconv.Itoa(runtime.NumCPU())},
}

// NetBins are the programs of the network workloads, built once per invocation.
type NetBins struct {
	UVEcho, UVHTTP, NetHTTP, UVNetHTTP, UVHTTP1, UVNodeHTTP, EchoClient, IdleConns string
}

// buildNet builds uvgo's examples (root module) and the peers and clients (bench module).
func buildNet(root, benchDir, tmp string) (*NetBins, error) {
	b := &NetBins{
		UVEcho: filepath.Join(tmp, "uvecho"), UVHTTP: filepath.Join(tmp, "uvhttp"),
		NetHTTP: filepath.Join(tmp, "nethttp"), UVNetHTTP: filepath.Join(tmp, "uvnethttp"),
		UVHTTP1: filepath.Join(tmp, "uvhttp1"), UVNodeHTTP: filepath.Join(tmp, "uvnodehttp"),
		EchoClient: filepath.Join(tmp, "echoclient"),
		IdleConns:  filepath.Join(tmp, "idleconns"),
	}
	for _, x := range []struct{ dir, out, pkg string }{
		{root, b.UVEcho, "./examples/echo"}, {root, b.UVHTTP, "./examples/http"},
		{benchDir, b.NetHTTP, "./peers/nethttp"}, {benchDir, b.UVNetHTTP, "./peers/uvnethttp"},
		{benchDir, b.UVHTTP1, "./peers/uvhttp1"}, {benchDir, b.UVNodeHTTP, "./peers/uvnodehttp"},
		{benchDir, b.EchoClient, "./cmd/echoclient"},
		{benchDir, b.IdleConns, "./cmd/idleconns"},
	} {
		if _, err := command(x.dir, "go", "build", "-o", x.out, x.pkg); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// netSkip says why a network workload cannot run here ("" if it can): wrk for http-hello;
// Linux and enough file descriptors for idle-connections (raising the soft RLIMIT_NOFILE to
// the hard limit, which the servers inherit).
func netSkip(w *Workload) string {
	switch w.Net {
	case netHTTP:
		if _, err := exec.LookPath("wrk"); err != nil {
			return "wrk not found in PATH (apt-get install wrk)"
		}
	case netIdle:
		if runtime.GOOS != "linux" {
			return "cmd/idleconns reads /proc/PID/status (Linux only)"
		}
		if why := raiseNofile(w.N, uint64(w.N)+100); why != "" {
			return why
		}
	}
	return ""
}

// netTiming is how long a network measurement runs, and its warm-up.
func netTiming(cfg Config) (d, warm time.Duration) {
	if cfg.Quick {
		return time.Second, time.Second
	}
	return 5 * time.Second, time.Second
}

// Server is a server process on a loopback port.
type Server struct {
	cmd    *exec.Cmd
	Addr   string
	Port   int
	stderr strings.Builder
	done   chan error
}

// freePort returns a loopback port nobody listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startServer runs argv(addr, port) with env added and waits until it accepts connections.
func startServer(argv func(addr, port string) []string, env []string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Port: port, Addr: "127.0.0.1:" + strconv.Itoa(port), done: make(chan error, 1)}
	args := argv(s.Addr, strconv.Itoa(port))
	s.cmd = exec.Command(args[0], args[1:]...)
	s.cmd.Env = append(os.Environ(), env...)
	s.cmd.Stderr = &s.stderr
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.done <- s.cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", s.Addr, time.Second)
		if err == nil {
			c.Close()
			return s, nil
		}
		select {
		case err := <-s.done:
			return nil, fmt.Errorf("%s exited before listening: %v: %s", filepath.Base(args[0]), err, strings.TrimSpace(s.stderr.String()))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("%s: nothing listens on %s after 10 s", filepath.Base(args[0]), s.Addr)
		}
	}
}

// Stop kills the server and waits for it.
func (s *Server) Stop() {
	s.cmd.Process.Kill()
	<-s.done
}

// Pid is the server's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// serverArgv is the command line of runtime rt's server of variant v; rt may be a peer's name.
func serverArgv(rt string, w *Workload, v *Variant, nb *NetBins, benchDir string) func(addr, port string) []string {
	return func(addr, port string) []string {
		switch rt {
		case rtGo:
			if w.Net == netHTTP {
				return []string{nb.UVHTTP, "-addr", addr, "-loops", "1"}
			}
			return []string{nb.UVEcho, "-addr", addr}
		case rtNode:
			return []string{"node", filepath.Join(benchDir, "node", v.Node), port}
		case rtLibuv:
			return []string{filepath.Join(benchDir, "libuv", "bin", v.C), addr}
		case peerBridge:
			return []string{nb.UVNetHTTP, "-addr", addr}
		case peerHTTP1:
			return []string{nb.UVHTTP1, "-addr", addr}
		case peerNodeHTTP:
			return []string{nb.UVNodeHTTP, "-addr", addr}
		}
		return []string{nb.NetHTTP, "-addr", addr} // an HTTP peer
	}
}

// measureNet starts runtime rt's server, warms it up, measures it once and stops it.
func measureNet(rt string, env []string, r *Result, cfg Config, nb *NetBins, benchDir string) (Sample, error) {
	srv, err := startServer(serverArgv(rt, r.W, r.V, nb, benchDir), env)
	if err != nil {
		return Sample{}, err
	}
	defer srv.Stop()
	d, warm := netTiming(cfg)
	conns := strconv.Itoa(r.N)
	switch r.W.Net {
	case netEcho:
		args := []string{"-addr", srv.Addr, "-c", conns, "-size", strconv.Itoa(echoSize)}
		if _, err := command("", nb.EchoClient, append(args, "-d", warm.String())...); err != nil {
			return Sample{}, err
		}
		kv, err := runKV("", nb.EchoClient, append(args, "-d", d.String())...)
		if err != nil {
			return Sample{}, err
		}
		return rateSample(kv, "rtt_per_s", keyRTTPerS)
	case netHTTP:
		url := "http://" + srv.Addr + "/"
		if err := checkHello(url); err != nil {
			return Sample{}, err
		}
		wrk := func(d time.Duration) (string, error) {
			return command("", "wrk", "-t1", "-c"+conns, fmt.Sprintf("-d%ds", int(d.Seconds())), url)
		}
		if _, err := wrk(warm); err != nil {
			return Sample{}, err
		}
		out, err := wrk(d)
		if err != nil {
			return Sample{}, err
		}
		return wrkSample(out)
	case netIdle:
		kv, err := runKV("", nb.IdleConns, "-addr", srv.Addr, "-pid", strconv.Itoa(srv.Pid()), "-n", conns)
		if err != nil {
			return Sample{}, err
		}
		b, ok := kv["bytes_per_conn"]
		if !ok {
			return Sample{}, fmt.Errorf("idleconns printed no bytes_per_conn: %v", kv)
		}
		delete(kv, "bytes_per_conn")
		return Sample{NsPerOp: b, Allocs: -1, Extra: kv}, nil
	}
	return Sample{}, fmt.Errorf("%s: unknown network kind %q", r.W.Name, r.W.Net)
}

// runNetRound measures each server of a network workload once: uvgo, node, libuv, then the
// peers.
func runNetRound(r *Result, round int, cfg Config, nb *NetBins, benchDir string, logf func(string, ...any)) {
	note := func(rt string, s Sample, err error) bool {
		if err != nil {
			r.Errs[rt] = err.Error()
			logf("[round %d/%d] %-30s %-5s FAILED: %v", round, cfg.Rounds, r.Label(), rt, err)
			return false
		}
		msg := fmt.Sprintf("%10s ns/%s", fmtNs(s.NsPerOp), r.W.Per)
		if r.W.Unit != "" {
			msg = fmt.Sprintf("%10s %s/%s", fmtNs(s.NsPerOp), r.W.Unit, r.W.Per)
		}
		for _, k := range []string{keyRTTPerS, keyReqPerS} {
			if v, ok := s.Extra[k]; ok {
				msg += fmt.Sprintf(" (%s %s)", fmtInt(int(v)), k)
			}
		}
		logf("[round %d/%d] %-30s %-5s %s", round, cfg.Rounds, r.Label(), rt, msg)
		return true
	}
	for _, x := range []struct {
		rt string
		ss *[]Sample
	}{{rtGo, &r.Go}, {rtNode, &r.Node}, {rtLibuv, &r.C}} {
		if _, skip := r.SkipReason[x.rt]; skip {
			continue
		}
		s, err := measureNet(x.rt, nil, r, cfg, nb, benchDir)
		if note(x.rt, s, err) {
			*x.ss = append(*x.ss, s)
		}
	}
	for _, p := range r.W.Peers {
		s, err := measureNet(p.Name, p.Env, r, cfg, nb, benchDir)
		if note(p.Name, s, err) {
			if r.Peers == nil {
				r.Peers = map[string][]Sample{}
			}
			r.Peers[p.Name] = append(r.Peers[p.Name], s)
		}
	}
}

// runKV runs a program that prints key=value fields on one line and parses them.
func runKV(dir, name string, args ...string) (map[string]float64, error) {
	out, err := command(dir, name, args...)
	if err != nil {
		return nil, err
	}
	kv := map[string]float64{}
	for _, f := range strings.Fields(out) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			kv[k] = x
		}
	}
	return kv, nil
}

// rateSample turns a rate (per second) into ns per operation, keeping the rate as key.
func rateSample(kv map[string]float64, field, key string) (Sample, error) {
	rate, ok := kv[field]
	if !ok || rate <= 0 {
		return Sample{}, fmt.Errorf("no positive %s in %v", field, kv)
	}
	return Sample{NsPerOp: 1e9 / rate, Allocs: -1, Extra: map[string]float64{key: rate}}, nil
}

// wrkSample reads Requests/sec from wrk's report; non-2xx answers fail it.
func wrkSample(out string) (Sample, error) {
	var rate float64
	for l := range strings.Lines(out) {
		l = strings.TrimSpace(l)
		if v, ok := strings.CutPrefix(l, "Requests/sec:"); ok {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return Sample{}, fmt.Errorf("wrk: bad Requests/sec line %q", l)
			}
			rate = x
		}
		if strings.HasPrefix(l, "Non-2xx") {
			return Sample{}, fmt.Errorf("wrk: %s", l)
		}
	}
	return rateSample(map[string]float64{"rps": rate}, "rps", keyReqPerS)
}

// checkHello fetches url once: every HTTP server must answer the same body.
func checkHello(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 || strings.TrimSpace(string(b)) != "Hello, World!" {
		return errors.New("answers " + resp.Status + " " + strconv.Quote(string(b)) + ", not Hello, World!")
	}
	return nil
}

// prepareNet builds the network programs if any selected workload needs them, and marks the
// workloads that cannot run here (no wrk, too few file descriptors, a failed build) skipped.
func prepareNet(root, benchDir, tmp string, results []*Result, logf func(string, ...any)) *NetBins {
	var nets []*Result
	for _, r := range results {
		if r.W.Net != "" && r.V != nil {
			if r.Skip = netSkip(r.W); r.Skip != "" {
				logf("skip %s: %s", r.W.Name, r.Skip)
				continue
			}
			nets = append(nets, r)
		}
	}
	if len(nets) == 0 {
		return nil
	}
	logf("building the network servers and clients (examples/echo, examples/http, peers/nethttp, peers/uvnethttp, peers/uvhttp1, peers/uvnodehttp, cmd/echoclient, cmd/idleconns)")
	nb, err := buildNet(root, benchDir, tmp)
	if err != nil {
		for _, r := range nets {
			r.Skip = "building the network programs failed: " + err.Error()
		}
		logf("  %v", err)
	}
	return nb
}
