package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Report is everything one invocation measured.
type Report struct {
	Config   Config
	Machine  Machine
	Tools    Tools
	Results  []*Result
	Phases   map[string][]Sample // phase benchmark name -> one sample per round
	PhaseErr string
	Started  time.Time
	Elapsed  time.Duration
}

// Stat is the median and the range of a set of samples.
type Stat struct {
	Med, Min, Max float64
	N             int
}

func statOf(xs []float64) (Stat, bool) {
	if len(xs) == 0 {
		return Stat{}, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Stat{Med: med, Min: s[0], Max: s[len(s)-1], N: len(s)}, true
}

func nsStat(ss []Sample) (Stat, bool) {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = s.NsPerOp
	}
	return statOf(xs)
}

func allocStat(ss []Sample) (Stat, bool) {
	var xs []float64
	for _, s := range ss {
		if s.Allocs >= 0 {
			xs = append(xs, s.Allocs)
		}
	}
	return statOf(xs)
}

func extraStat(ss []Sample, key string) (Stat, bool) {
	var xs []float64
	for _, s := range ss {
		if v, ok := s.Extra[key]; ok {
			xs = append(xs, v)
		}
	}
	return statOf(xs)
}

// Label is the row name: the workload, and the API for workloads with two variants.
func (r *Result) Label() string {
	if r.V != nil && r.V.API != "" {
		return r.W.Name + " (" + r.V.API + ")"
	}
	return r.W.Name
}

// Ratios are uvgo's median over node's and over libuv's; ok is false where either is missing.
func (r *Result) Ratios() (vsNode, vsLibuv float64, okNode, okLibuv bool) {
	g, okG := nsStat(r.Go)
	n, okN := nsStat(r.Node)
	c, okC := nsStat(r.C)
	if okG && okN && n.Med > 0 {
		vsNode, okNode = g.Med/n.Med, true
	}
	if okG && okC && c.Med > 0 {
		vsLibuv, okLibuv = g.Med/c.Med, true
	}
	return
}

// GojaRatio is uvgo's median over the Go peer's (goja_nodejs's eventloop).
func (r *Result) GojaRatio() (float64, bool) {
	g, okG := nsStat(r.Go)
	p, okP := nsStat(r.Goja)
	if okG && okP && p.Med > 0 {
		return g.Med / p.Med, true
	}
	return 0, false
}

// tieTolerance: uvgo within 1% of libuv (below the run-to-run spread on a shared machine)
// counts as "no slower".
const tieTolerance = 1.01

// Behind reports whether uvgo misses a goal the workload has (workloads without a goal, or
// without a measurement to judge, are not behind).
func (r *Result) Behind() bool {
	v := r.Verdict()
	return strings.Contains(v, "**behind**") || strings.Contains(v, "**slower than") || strings.Contains(v, "**uvgo failed**")
}

// Verdict says whether uvgo meets the workload's goal, and where it is behind.
func (r *Result) Verdict() string {
	if r.W.NotYet != "" {
		return "not yet"
	}
	if r.Skip != "" {
		return "skipped"
	}
	if len(r.Go) == 0 {
		return "**uvgo failed**"
	}
	vn, vc, okN, okC := r.Ratios()
	g := r.W.Goal
	var behind, remarks []string
	measured := false
	if g.MaxVsNode > 0 && okN {
		measured = true
		floor := ""
		if n, ok := nsStat(r.Node); ok && r.W.FloorNs > 0 {
			floor = fmt.Sprintf("; its sleep allows no less than %s×", fmtRatio(r.W.FloorNs/n.Med))
		}
		switch {
		case vn > 1:
			behind = append(behind, fmt.Sprintf("**slower than Node** (%s×%s)", fmtRatio(vn), floor))
		case vn > g.MaxVsNode:
			behind = append(behind, fmt.Sprintf("**behind** vs Node (%s×, goal ≤ %s×%s)", fmtRatio(vn), fmtRatio(g.MaxVsNode), floor))
		}
	}
	if g.MaxVsLibuv > 0 && okC {
		measured = true
		switch {
		case vc > g.MaxVsLibuv*tieTolerance:
			behind = append(behind, fmt.Sprintf("**slower than libuv** (%s×)", fmtRatio(vc)))
		case vc > g.MaxVsLibuv:
			remarks = append(remarks, "≈ libuv, within 1%")
		}
	}
	switch {
	case len(behind) > 0:
		return strings.Join(behind, "; ")
	case measured && len(remarks) > 0:
		return "met (" + strings.Join(remarks, "; ") + ")"
	case measured:
		return "met"
	case g.MaxVsNode == 0 && g.MaxVsLibuv == 0:
		return "no goal; reported"
	}
	return "no comparison"
}

// Write writes results.md, ratios.svg, phases.svg, machine.txt and raw.tsv into dir.
func (rep *Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		"results.md":  []byte(rep.Markdown()),
		"machine.txt": []byte(rep.Machine.Text(rep)),
		"raw.tsv":     rep.Raw(),
	}
	if rep.Config.Workloads {
		files["ratios.svg"] = rep.SVG()
	}
	if rep.Config.Phases {
		files["phases.svg"] = rep.PhaseSVG()
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Markdown is results.md.
func (rep *Report) Markdown() string {
	var b strings.Builder
	b.WriteString("# uvgo beside Node.js and libuv\n\n")
	b.WriteString(rep.Body("##", "ratios.svg"))
	return b.String()
}

// Body is the report without its title: headings start at h, the chart is linked as img.
func (rep *Report) Body(h, img string) string {
	var b strings.Builder
	m := rep.Machine
	fmt.Fprintf(&b, "Recorded %s with `%s` (%d round(s), %s) on %s, %d cores, Linux %s; %s, Node %s, libuv %s.\n",
		rep.Started.UTC().Format("2006-01-02 15:04 UTC"), rep.Config.Command, rep.Config.Rounds,
		rep.Elapsed.Round(time.Second), m.CPU, m.Cores, m.Kernel, m.GoVersion,
		orNA(rep.Tools.NodeVersion), orNA(rep.Tools.LibuvV))
	fmt.Fprintf(&b, "Load average at start %s, at end %s (other work shares this machine: medians of interleaved runs).\n",
		m.LoadStart, m.LoadEnd)
	sep := "\n"
	for _, skip := range []struct{ rt, why string }{{"node", rep.Tools.NoNode}, {"libuv", rep.Tools.NoLibuv}} {
		if skip.why != "" {
			fmt.Fprintf(&b, "%s- **%s skipped**: %s\n", sep, skip.rt, skip.why)
			sep = ""
		}
	}
	if rep.Config.Workloads {
		rep.workloadTable(&b, h, img)
	}
	if rep.Config.Phases {
		rep.phaseTable(&b, h, strings.Replace(img, "ratios.svg", "phases.svg", 1))
	}
	return b.String()
}

func (rep *Report) workloadTable(b *strings.Builder, h, img string) {
	fmt.Fprintf(b, "\n%s Workloads\n\n", h)
	b.WriteString("Median ns per op (min–max over the rounds); allocs (and bytes) per op for uvgo. " +
		"Ratio = uvgo's median / the other's: **< 1 means uvgo is faster**. " +
		"Goal: " + scheduling.Text + " for every scheduling workload (within 1% of libuv counts as no slower). " +
		"The network rows (tcp-echo, http-hello: N connections) turn rates into time, ns per operation = 10⁹ / (operations/s of all " +
		"connections together), so the same rule applies: uvgo/node 0.5 is twice Node's req/s; the rates are in the notes. " +
		"idle-connections counts bytes of server RSS per connection, not ns (< 1: uvgo uses less).\n\n")
	b.WriteString("| workload | N | per | uvgo ns | uvgo allocs (B) | node ns | libuv ns | goja ns | uvgo/node | uvgo/libuv | uvgo/goja | goal |\n")
	b.WriteString("|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	var notes []string
	for _, r := range rep.Results {
		if r.W.NotYet != "" {
			fmt.Fprintf(b, "| %s | — | %s | not yet: %s | | | | | | | | goal: %s |\n", r.Label(), r.W.Per, r.W.NotYet, r.W.Goal.Text)
			continue
		}
		if r.Skip != "" {
			fmt.Fprintf(b, "| %s | %s | %s | skipped: %s | | | | | | | | goal: %s |\n", r.Label(), fmtInt(r.N), r.W.Per, r.Skip, r.W.Goal.Text)
			continue
		}
		cell := func(rt string, ss []Sample) string {
			if why, ok := r.SkipReason[rt]; ok {
				notes = append(notes, fmt.Sprintf("%s, %s: %s", r.Label(), rt, why))
				return "n/a"
			}
			st, ok := nsStat(ss)
			if !ok {
				return "**failed**"
			}
			if r.W.Unit != "" {
				return fmtStat(st) + " " + r.W.Unit
			}
			return fmtStat(st)
		}
		allocs := allocCell(r.Go, "B/op", r.W.GoFixedN, r.N)
		vn, vc, okN, okC := r.Ratios()
		vg, okG := r.GojaRatio()
		gojaCell := "—" // most workloads have no Go-peer version: not a note-worthy skip
		if r.V.Goja != "" {
			gojaCell = cell(rtGoja, r.Goja)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Label(), fmtInt(r.N), r.W.Per, cell(rtGo, r.Go), allocs, cell(rtNode, r.Node),
			cell(rtLibuv, r.C), gojaCell, ratioCell(vn, okN), ratioCell(vc, okC), ratioCell(vg, okG), r.Verdict())
		if r.W.Note != "" && r.V == &r.W.Variants[0] {
			notes = append(notes, fmt.Sprintf("%s: %s", r.W.Name, r.W.Note))
		}
		for _, key := range r.W.Extra {
			var parts []string
			for _, x := range []struct {
				rt string
				ss []Sample
			}{{rtGo, r.Go}, {rtNode, r.Node}, {rtLibuv, r.C}, {rtGoja, r.Goja}} {
				if st, ok := extraStat(x.ss, key); ok {
					parts = append(parts, fmt.Sprintf("%s %s (%s–%s)", x.rt, fmtInt(int(st.Med)), fmtInt(int(st.Min)), fmtInt(int(st.Max))))
				}
			}
			if len(parts) > 0 {
				notes = append(notes, fmt.Sprintf("%s: %s, median: %s", r.Label(), key, strings.Join(parts, ", ")))
			}
		}
		notes = append(notes, peerNotes(r)...)
		for _, rt := range []string{rtGo, rtNode, rtLibuv, rtGoja} {
			if e := r.Errs[rt]; e != "" {
				notes = append(notes, fmt.Sprintf("%s, %s: **a run failed**: `%s`", r.Label(), rt, e))
			}
		}
	}
	if len(notes) > 0 {
		b.WriteString("\nNotes:\n\n")
		for _, n := range notes {
			fmt.Fprintf(b, "- %s\n", n)
		}
	}
	fmt.Fprintf(b, "\n![uvgo's cost (time; memory for idle-connections) as a fraction of Node's and libuv's](%s)\n", img)

	fmt.Fprintf(b, "\n%s Shapes\n\n", h)
	b.WriteString("Each workload is defined once in `cmd/uvbench/workloads.go`; uvgo runs the benchmark named " +
		"(a `go test -bench` benchmark of the package named in the workload, `./uvloop/` unless it says otherwise), " +
		"Node the script in `node/`, libuv the program in `libuv/`, goja `peers/gojaloop <workload>` on dop251/goja_nodejs's eventloop (a Go peer).\n\n")
	b.WriteString("| workload | shape | uvgo | node | libuv | goja |\n|---|---|---|---|---|---|\n")
	seen := map[string]bool{}
	for _, r := range rep.Results {
		if r.V == nil || seen[r.Label()] {
			continue
		}
		seen[r.Label()] = true
		goCell := "`Benchmark" + r.V.Go + "`"
		if r.W.Net != "" {
			goCell = "`" + r.V.Go + "`" // a server, not a benchmark
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", r.Label(), r.W.Shape, goCell, codeOrDash(r.V.Node), codeOrDash(r.V.C), codeOrDash(r.V.Goja))
	}
}

// phaseRows are the rows of the phase report; Bench is a benchmark in
// uvloop/bench_phase_test.go, with /iter and /cb100 sub-benchmarks unless Single.
var phaseRows = []struct {
	Label, Bench, Includes string
	Single                 bool
}{
	{"empty iteration", "PhaseEmpty", "Run(RunNoWait) in and out, every phase with nothing to do; poll makes no system call", true},
	{"poll phase, 1 fd, not ready", "PhasePollWait", "one epoll_wait(…, 0) that reports nothing", true},
	{"timer", "PhaseTimer", "Timer fires, restarts itself with timeout 0 (due next iteration)", false},
	{"immediate", "PhaseImmediate", "SetImmediate from the previous one + run in the check phase", false},
	{"immediate, observed", "PhaseImmediateObserved", "the immediate row on a loop WithPhaseTiming and WithLongTasks: a clock read after each tick of the observer's goroutine (every ms)", false},
	{"idle", "PhaseIdle", "one Idle callback", false},
	{"prepare", "PhasePrepare", "one Prepare callback", false},
	{"check", "PhaseCheck", "one Check callback", false},
	{"I/O readiness", "PhasePollReadable", "a Poll handle on a socket that stays readable: epoll_wait per iteration + dispatch", false},
	{"nextTick", "PhaseNextTick", "NextTick + the drain at the start of Run", false},
	{"microtask", "PhaseMicrotask", "QueueMicrotask + the drain at the start of Run", false},
	{"async wake-up", "PhaseAsync", "Async.Send from the loop goroutine (eventfd write) + poll's epoll_wait + callback", false},
	{"posted function", "PhasePost", "Post from the loop goroutine (mutex, eventfd write) + poll's epoll_wait + run", false},
	{"close callback", "PhaseClose", "NewIdle + Close + its close callback in the close phase", false},
}

func (rep *Report) phaseTable(b *strings.Builder, h, img string) {
	fmt.Fprintf(b, "\n%s Phase overhead (uvgo)\n\n", h)
	b.WriteString("`uvloop/bench_phase_test.go`, driven one iteration at a time with `Run(RunNoWait)` on a loop kept " +
		"alive by an Async that is never sent. *1 per iteration*: ns per iteration with one callback of the kind " +
		"(and what that adds to the empty iteration; a cheap callback disappears in the noise of the iteration); *100 per iteration*: ns per callback with 100 of them per " +
		"iteration, the iteration amortized. Median (min–max) over the rounds.\n\n")
	if rep.PhaseErr != "" {
		fmt.Fprintf(b, "**A phase run failed**: `%s`\n\n", rep.PhaseErr)
	}
	fmt.Fprintf(b, "![ns per callback of each kind](%s)\n\n", img)
	b.WriteString("| kind | 1 per iteration, ns | minus empty iteration | 100 per iteration, ns per callback | allocs (bytes) per callback | includes |\n")
	b.WriteString("|---|--:|--:|--:|--:|---|\n")
	empty, emptyOK := nsStat(rep.Phases["PhaseEmpty"])
	for _, row := range phaseRows {
		iterName, cbName := row.Bench+"/iter", row.Bench+"/cb100"
		if row.Single {
			iterName, cbName = row.Bench, ""
		}
		iter, cb := "**missing**", "—"
		delta := "—"
		allocs := ""
		if st, ok := nsStat(rep.Phases[iterName]); ok {
			iter = fmtStat(st)
			if emptyOK && row.Bench != "PhaseEmpty" {
				if d := st.Med - empty.Med; d > 0 {
					delta = fmtSigned(d)
				} else {
					delta = "≈ 0 (noise)"
				}
			}
			allocs = allocCell(rep.Phases[iterName], "B/op", false, 1)
		}
		if cbName != "" {
			cb = "**missing**"
			if st, ok := nsStat(rep.Phases[cbName]); ok {
				cb = fmtStat(st)
				allocs = allocCell(rep.Phases[cbName], "B/op", false, 1)
			}
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", row.Label, iter, delta, cb, allocs, row.Includes)
	}
	rep.observeTable(b, h)
}

// observeTable is the observability overhead: immediate-chain with everything on beside the
// same chain with the always-on counters only, run one after the other in every round.
func (rep *Report) observeTable(b *strings.Builder, h string) {
	off, on := rep.Phases[observeRows[0]], rep.Phases[observeRows[1]]
	fmt.Fprintf(b, "\n%s Observability overhead (uvgo)\n\n", h)
	b.WriteString("immediate-chain (`BenchmarkImmediateChain`, ns per immediate) with the always-on counters only, and with " +
		"everything on (`BenchmarkImmediateChainObserved`: WithPhaseTiming, WithLongTasks and an enabled DelayMonitor), " +
		"the two run back to back in every round (in alternating order). Overhead = the median over the rounds of on/off − 1; " +
		"issue 15 asks for ≤ 3%.\n\n")
	b.WriteString("| immediate-chain | ns per immediate | overhead |\n|---|--:|--:|\n")
	offSt, okOff := nsStat(off)
	onSt, okOn := nsStat(on)
	if !okOff || !okOn {
		b.WriteString("| **missing** | | |\n")
		return
	}
	var ratios []float64
	for i := range min(len(off), len(on)) {
		if off[i].NsPerOp > 0 {
			ratios = append(ratios, on[i].NsPerOp/off[i].NsPerOp)
		}
	}
	over := "—"
	if r, ok := statOf(ratios); ok {
		over = fmt.Sprintf("%+.1f%% (%+.1f%% … %+.1f%%)", 100*(r.Med-1), 100*(r.Min-1), 100*(r.Max-1))
	}
	fmt.Fprintf(b, "| counters only | %s | |\n", fmtStat(offSt))
	fmt.Fprintf(b, "| everything on | %s | %s |\n", fmtStat(onSt), over)
}

// Raw is raw.tsv: every sample.
func (rep *Report) Raw() []byte {
	var b bytes.Buffer
	b.WriteString("workload\truntime\tround\tn\tns_per_op\tallocs_per_op\textra\n")
	row := func(label, rt string, n int, ss []Sample) {
		for i, s := range ss {
			keys := make([]string, 0, len(s.Extra))
			for k := range s.Extra {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			var ex []string
			for _, k := range keys {
				ex = append(ex, k+"="+strconv.FormatFloat(s.Extra[k], 'g', -1, 64))
			}
			allocs := ""
			if s.Allocs >= 0 {
				allocs = strconv.FormatFloat(s.Allocs, 'g', -1, 64)
			}
			fmt.Fprintf(&b, "%s\t%s\t%d\t%d\t%s\t%s\t%s\n", label, rt, i+1, n,
				strconv.FormatFloat(s.NsPerOp, 'f', 3, 64), allocs, strings.Join(ex, " "))
		}
	}
	for _, r := range rep.Results {
		if r.V == nil {
			continue
		}
		row(r.Label(), rtGo, r.N, r.Go)
		row(r.Label(), rtNode, r.N, r.Node)
		row(r.Label(), rtLibuv, r.N, r.C)
		row(r.Label(), rtGoja, r.N, r.Goja)
		for _, p := range r.W.Peers {
			row(r.Label(), p.Name, r.N, r.Peers[p.Name])
		}
	}
	names := make([]string, 0, len(rep.Phases))
	for name := range rep.Phases {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		row("phase "+name, rtGo, 0, rep.Phases[name])
	}
	return b.Bytes()
}

// README markers between which the runner writes the latest results.
const (
	readmeBegin = "<!-- uvbench:results:begin (written by go run ./cmd/uvbench) -->"
	readmeEnd   = "<!-- uvbench:results:end -->"
)

// updateReadme replaces the results section of bench/README.md.
func updateReadme(path string, rep *Report) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, readmeBegin), strings.Index(s, readmeEnd)
	if i < 0 || j < i {
		return errors.New("no results markers in " + path)
	}
	body := rep.Body("###", "results/latest/ratios.svg")
	s = s[:i+len(readmeBegin)] + "\n" + body + "\n" + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}

// Formatting.

func fmtNs(v float64) string {
	switch a := math.Abs(v); {
	case math.Round(a) >= 1000:
		return fmtInt(int(math.Round(v)))
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// fmtSigned is a difference: "+12.3", "−4.50".
func fmtSigned(v float64) string {
	if v < 0 {
		return "−" + fmtNs(-v)
	}
	return "+" + fmtNs(v)
}

func fmtStat(s Stat) string {
	if s.N == 1 {
		return fmtNs(s.Med)
	}
	return fmt.Sprintf("%s (%s–%s)", fmtNs(s.Med), fmtNs(s.Min), fmtNs(s.Max))
}

func fmtInt(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func fmtRatio(v float64) string {
	if v < 0.1 {
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func ratioCell(v float64, ok bool) string {
	if !ok {
		return "—"
	}
	return fmtRatio(v)
}

// allocCell is "allocs (bytes)" per op: go test rounds allocs/op down to an integer, so the
// bytes tell a 0 that is 0.99 apart from a real 0. For benchmarks that do n items per op, both
// are per item.
func allocCell(ss []Sample, bytesKey string, perItem bool, n int) string {
	a, ok := allocStat(ss)
	if !ok {
		return ""
	}
	cell := fmtAllocs(a.Med)
	if bs, ok := extraStat(ss, bytesKey); ok {
		v := bs.Med
		if perItem {
			v /= float64(n)
		}
		cell += " (" + strconv.FormatFloat(v, 'f', 0, 64) + " B)"
	}
	return cell
}

func fmtAllocs(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func codeOrDash(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + s + "`"
}

func orNA(s string) string {
	if s == "" {
		return "n/a"
	}
	return s
}

// peerNotes are the lines of the notes for a network workload's peers: their median, their
// rate, and uvgo's median over theirs.
func peerNotes(r *Result) []string {
	var notes []string
	g, okG := nsStat(r.Go)
	for _, p := range r.W.Peers {
		st, ok := nsStat(r.Peers[p.Name])
		if !ok {
			if e := r.Errs[p.Name]; e != "" {
				notes = append(notes, fmt.Sprintf("%s, %s: **failed**: `%s`", r.Label(), p.Name, e))
			}
			continue
		}
		line := fmt.Sprintf("%s, %s: %s ns/%s", r.Label(), p.Name, fmtStat(st), r.W.Per)
		for _, key := range r.W.Extra {
			if rate, ok := extraStat(r.Peers[p.Name], key); ok {
				line += fmt.Sprintf(" (%s %s)", fmtInt(int(rate.Med)), key)
			}
		}
		if okG && st.Med > 0 {
			line += fmt.Sprintf("; uvgo/it %s", fmtRatio(g.Med/st.Med))
		}
		notes = append(notes, line)
	}
	return notes
}
