// Command uvbench measures uvgo beside Node.js and libuv in C on the same workloads.
//
//	cd bench && go run ./cmd/uvbench            # everything, 5 rounds, into results/latest
//	go run ./cmd/uvbench -quick                 # 1 round, smaller N, into results/tmp
//	go run ./cmd/uvbench -only timers-zero,loop-count
//	go run ./cmd/uvbench -phases                # the phase overhead report only
//
// It builds what it needs (the uvloop test binary with go test -c, the C programs with
// make -C libuv), then runs the runtimes interleaved — uvgo, node, libuv, then the next
// workload, for every round — so that load from other processes spreads over all of them,
// and reports medians with min–max. uvgo's numbers come from the benchmarks in the root
// module's uvloop package; the workloads are described in workloads.go.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Runtimes, in the order they run within a workload.
const (
	rtGo    = "uvgo"
	rtNode  = "node"
	rtLibuv = "libuv"
	rtGoja  = "goja" // dop251/goja_nodejs's eventloop, through bench/peers/gojaloop
)

// Result holds the samples of one variant of a workload.
type Result struct {
	W          *Workload
	V          *Variant
	N          int
	Go, Node   []Sample
	C          []Sample
	Goja       []Sample
	Errs       map[string]string   // runtime -> the last error
	SkipReason map[string]string   // runtime -> why it did not run here
	Peers      map[string][]Sample // network workloads: W.Peers' samples by name
	Skip       string              // why the whole workload did not run here ("" if it ran)
}

// Config is what the flags select.
type Config struct {
	Rounds    int
	Quick     bool
	Only      []string
	Phases    bool // the phase report
	Workloads bool // the workload table
	Out       string
	Command   string
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "uvbench:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("uvbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rounds := fs.Int("rounds", 5, "rounds of interleaved runs (medians over these)")
	quick := fs.Bool("quick", false, "1 round and smaller N where the workload allows; writes to results/tmp")
	only := fs.String("only", "", "comma-separated workloads to run (default: all); see -list")
	phases := fs.Bool("phases", false, "run the phase overhead report (alone, unless -only is given too)")
	out := fs.String("out", "", "output directory (default: results/latest for a full default run, else results/tmp)")
	list := fs.Bool("list", false, "list the workloads and exit")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *list {
		for _, w := range workloads {
			status := ""
			if w.NotYet != "" {
				status = " (not yet: " + w.NotYet + ")"
			}
			fmt.Fprintf(stdout, "%-18s %s%s\n", w.Name, w.Shape, status)
		}
		return nil
	}
	cfg := Config{Rounds: *rounds, Quick: *quick, Phases: true, Workloads: true,
		Command: strings.TrimSpace("go run ./cmd/uvbench " + strings.Join(args, " "))}
	if cfg.Quick {
		cfg.Rounds = 1
	}
	if cfg.Rounds < 1 {
		return fmt.Errorf("-rounds must be at least 1")
	}
	if *only != "" {
		for _, name := range strings.Split(*only, ",") {
			name = strings.TrimSpace(name)
			if !slices.ContainsFunc(workloads, func(w Workload) bool { return w.Name == name }) {
				return fmt.Errorf("unknown workload %q (see -list)", name)
			}
			cfg.Only = append(cfg.Only, name)
		}
		cfg.Phases = *phases
	} else if *phases {
		cfg.Workloads = false
	}

	benchDir, err := findBenchDir()
	if err != nil {
		return err
	}
	root := filepath.Dir(benchDir)
	full := !cfg.Quick && cfg.Workloads && cfg.Phases && len(cfg.Only) == 0
	cfg.Out = *out
	if cfg.Out == "" {
		cfg.Out = filepath.Join(benchDir, "results", "tmp")
		if full {
			cfg.Out = filepath.Join(benchDir, "results", "latest")
		}
	}
	tmp, err := os.MkdirTemp("", "uvbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	logf := func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }
	start := time.Now()
	machine := describeMachine(root)

	tools := findTools()
	if !tools.Node {
		logf("skip node: %s", tools.NoNode)
	}
	var results []*Result
	if cfg.Workloads {
		results = planResults(cfg, tools)
	}
	gbs, buildErrs, err := buildGoBenches(root, tmp, results, logf)
	if err != nil {
		return err
	}
	if tools.Libuv && cfg.Workloads {
		logf("building the libuv programs (make -C libuv)")
		if err := buildLibuv(benchDir); err != nil {
			tools.Libuv, tools.NoLibuv = false, "make -C libuv failed: "+err.Error()
		}
	}
	if !tools.Libuv {
		logf("skip libuv: %s", tools.NoLibuv)
	}
	nb := prepareNet(root, benchDir, tmp, results, logf)
	goja := buildGoja(benchDir, tmp, results, logf)

	phaseSamples := map[string][]Sample{}
	var phaseErr string
	for round := 1; round <= cfg.Rounds; round++ {
		for _, r := range results {
			if r.W.Net != "" {
				if r.V != nil && r.Skip == "" {
					runNetRound(r, round, cfg, nb, benchDir, logf)
				}
				continue
			}
			runRound(r, round, cfg, gbs, buildErrs, benchDir, goja, logf)
		}
		if cfg.Phases {
			logf("[round %d/%d] phases", round, cfg.Rounds)
			res, err := gbs[defaultGoPkg].Run("^BenchmarkPhase", phaseBenchtime(cfg))
			if err != nil {
				phaseErr = err.Error()
				logf("  phases: %v", err)
			}
			for name, s := range res {
				phaseSamples[name] = append(phaseSamples[name], s)
			}
			for _, name := range observeOrder(round) {
				s, err := gbs[defaultGoPkg].RunOne(name, observeBenchtime(cfg))
				if err != nil {
					phaseErr = err.Error()
					logf("  %s: %v", name, err)
					continue
				}
				phaseSamples[name] = append(phaseSamples[name], s)
			}
		}
	}

	machine.LoadEnd = loadAvg()
	rep := &Report{Config: cfg, Machine: machine, Tools: tools, Results: results,
		Phases: phaseSamples, PhaseErr: phaseErr, Started: start, Elapsed: time.Since(start)}
	if err := rep.Write(cfg.Out); err != nil {
		return err
	}
	if cfg.Out == filepath.Join(benchDir, "results", "latest") {
		if err := updateReadme(filepath.Join(benchDir, "README.md"), rep); err != nil {
			logf("README not updated: %v", err)
		}
	}
	fmt.Fprint(stdout, rep.Markdown())
	logf("wrote %s in %s", cfg.Out, time.Since(start).Round(time.Second))
	return nil
}

// planResults makes one Result per variant of the selected workloads.
func planResults(cfg Config, tools Tools) []*Result {
	var rs []*Result
	for i := range workloads {
		w := &workloads[i]
		if len(cfg.Only) > 0 && !slices.Contains(cfg.Only, w.Name) {
			continue
		}
		if w.NotYet != "" {
			rs = append(rs, &Result{W: w})
			continue
		}
		n := w.N
		if cfg.Quick && w.QuickN > 0 {
			n = w.QuickN
		}
		for j := range w.Variants {
			v := &w.Variants[j]
			r := &Result{W: w, V: v, N: n, Errs: map[string]string{}, SkipReason: map[string]string{}}
			switch {
			case v.Node == "":
				r.SkipReason[rtNode] = v.NoNode
			case !tools.Node:
				r.SkipReason[rtNode] = "skipped: " + tools.NoNode
			}
			if v.Goja == "" {
				r.SkipReason[rtGoja] = "the Go peer cannot express this workload"
			}
			switch {
			case v.C == "":
				r.SkipReason[rtLibuv] = v.NoC
			case !tools.Libuv:
				r.SkipReason[rtLibuv] = "skipped: " + tools.NoLibuv
			}
			rs = append(rs, r)
		}
	}
	return rs
}

// runRound runs each runtime of one variant once: uvgo, node, libuv.
func runRound(r *Result, round int, cfg Config, gbs map[string]*GoBench, buildErrs map[string]error, benchDir string, goja gojaBin, logf func(string, ...any)) {
	if r.V == nil {
		return
	}
	label := r.W.Name
	if r.V.API != "" {
		label += " (" + r.V.API + ")"
	}
	note := func(rt string, s Sample, err error) bool {
		if err != nil {
			r.Errs[rt] = err.Error()
			logf("[round %d/%d] %-30s %-5s FAILED: %v", round, cfg.Rounds, label, rt, err)
			return false
		}
		logf("[round %d/%d] %-30s %-5s %10s ns/%s", round, cfg.Rounds, label, rt, fmtNs(s.NsPerOp), r.W.Per)
		return true
	}

	benchtime := strconv.Itoa(r.N) + "x"
	if r.W.GoFixedN {
		benchtime = "1x"
	}
	var s Sample
	err := buildErrs[goPkg(r.V)]
	if err == nil {
		s, err = gbs[goPkg(r.V)].RunOne(r.V.Go, benchtime)
	}
	if err == nil && r.W.GoFixedN {
		s, err = perItem(s, r.W.GoMetric, r.W.N)
	}
	if note(rtGo, s, err) {
		r.Go = append(r.Go, s)
	}

	if _, skip := r.SkipReason[rtNode]; !skip {
		s, err := runLine(benchDir, "node", filepath.Join(benchDir, "node", r.V.Node), strconv.Itoa(r.N))
		if note(rtNode, s, err) {
			r.Node = append(r.Node, s)
		}
	}
	if _, skip := r.SkipReason[rtLibuv]; !skip {
		s, err := runLine(benchDir, filepath.Join(benchDir, "libuv", "bin", r.V.C), strconv.Itoa(r.N))
		if note(rtLibuv, s, err) {
			r.C = append(r.C, s)
		}
	}
	if _, skip := r.SkipReason[rtGoja]; !skip {
		if goja.err != nil {
			r.SkipReason[rtGoja] = "skipped: " + goja.err.Error()
			return
		}
		s, err := runLine(benchDir, goja.path, r.V.Goja, strconv.Itoa(r.N))
		if note(rtGoja, s, err) {
			r.Goja = append(r.Goja, s)
		}
	}
}

// gojaBin is bench/peers/gojaloop, built once per invocation, or why it could not be built.
type gojaBin struct {
	path string
	err  error
}

// buildGoja builds the Go peer's program if a selected variant needs it.
func buildGoja(benchDir, tmp string, results []*Result, logf func(string, ...any)) gojaBin {
	need := slices.ContainsFunc(results, func(r *Result) bool { return r.V != nil && r.V.Goja != "" && r.W.Net == "" })
	if !need {
		return gojaBin{}
	}
	logf("building the Go peer (go build ./peers/gojaloop)")
	bin := filepath.Join(tmp, "gojaloop")
	if _, err := command(benchDir, "go", "build", "-o", bin, "./peers/gojaloop"); err != nil {
		logf("  %v", err)
		return gojaBin{err: fmt.Errorf("building peers/gojaloop: %w", err)}
	}
	return gojaBin{path: bin}
}

func goPkg(v *Variant) string {
	if v.GoPkg == "" {
		return defaultGoPkg
	}
	return v.GoPkg
}

// buildGoBenches compiles the test binary of every package the run needs: uvloop (the phase
// report and most workloads live there; without it there is nothing to run), and those the
// selected variants name, whose build failure only fails their rows.
func buildGoBenches(root, tmp string, results []*Result, logf func(string, ...any)) (map[string]*GoBench, map[string]error, error) {
	pkgs := []string{defaultGoPkg}
	for _, r := range results {
		if r.V != nil && r.W.Net == "" && !slices.Contains(pkgs, goPkg(r.V)) {
			pkgs = append(pkgs, goPkg(r.V))
		}
	}
	gbs, failed := map[string]*GoBench{}, map[string]error{}
	for _, pkg := range pkgs {
		logf("building the %s benchmarks (go test -c %s)", strings.Trim(pkg, "./"), pkg)
		gb, err := buildGoBench(root, tmp, pkg)
		switch {
		case err != nil && pkg == defaultGoPkg:
			return nil, nil, fmt.Errorf("building the benchmarks of %s: %w", pkg, err)
		case err != nil:
			logf("  %v", err)
			failed[pkg] = fmt.Errorf("building the benchmarks of %s: %w", pkg, err)
		default:
			gbs[pkg] = gb
		}
	}
	return gbs, failed, nil
}

// perItem turns the result of a Go benchmark that does n items per op into per-item numbers:
// ns from the benchmark's own metric, allocs divided by n.
func perItem(s Sample, metric string, n int) (Sample, error) {
	v, ok := s.Extra[metric]
	if !ok {
		return s, fmt.Errorf("benchmark reported no %s", metric)
	}
	s.NsPerOp = v
	if s.Allocs >= 0 {
		s.Allocs /= float64(n)
	}
	return s, nil
}

// observeRows are the benchmarks of the observability overhead (issue 15's "<= 3% on
// immediate-chain with everything on"): the chain with the always-on counters only, and with
// phase timing, long tasks and a delay monitor on.
var observeRows = [2]string{"ImmediateChain", "ImmediateChainObserved"}

// observeOrder is the order of the two in a round: swapped every round, so that neither
// always runs second (on a warmer or a busier machine).
func observeOrder(round int) []string {
	if round%2 == 0 {
		return []string{observeRows[1], observeRows[0]}
	}
	return observeRows[:]
}

// observeBenchtime is the b.N of the observability overhead benchmarks: immediates.
func observeBenchtime(cfg Config) string {
	if cfg.Quick {
		return "200000x"
	}
	return "1000000x"
}

// phaseBenchtime is the b.N of the phase benchmarks: iterations or callbacks.
func phaseBenchtime(cfg Config) string {
	if cfg.Quick {
		return "20000x"
	}
	return "100000x"
}
