package main

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestParseLine(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		ns      float64
		extra   map[string]float64
		wantErr bool
	}{
		{
			name:  "c",
			out:   "name=timers-zero n=1000000 ns_per_op=794.703 total_ns=794703286 start_ns_per_op=29.116 iterations=1\n",
			ns:    794.703,
			extra: map[string]float64{"n": 1e6, "total_ns": 794703286, "start_ns_per_op": 29.116, "iterations": 1},
		},
		{
			name:  "node, after other output",
			out:   "(node:1) warning\nname=immediate-chain n=10 ns_per_op=5.000 total_ns=50 user_us=3 sys_us=0\n",
			ns:    5,
			extra: map[string]float64{"n": 10, "total_ns": 50, "user_us": 3, "sys_us": 0},
		},
		{name: "no line", out: "hello\n", wantErr: true},
		{name: "no ns_per_op", out: "name=x n=1 total_ns=5\n", wantErr: true},
		{name: "bad field", out: "name=x ns_per_op=1 junk\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parseLine(tt.out)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if s.NsPerOp != tt.ns || s.Allocs != -1 {
				t.Errorf("ns %v allocs %v, want %v -1", s.NsPerOp, s.Allocs, tt.ns)
			}
			for k, v := range tt.extra {
				if s.Extra[k] != v {
					t.Errorf("%s = %v, want %v", k, s.Extra[k], v)
				}
			}
		})
	}
}

func TestParseGoBench(t *testing.T) {
	out := `goos: linux
goarch: amd64
pkg: github.com/uvgo/uvgo/uvloop
cpu: Some CPU
BenchmarkLoopCount-2   	  200000	        73.97 ns/op	       0 B/op	       0 allocs/op
BenchmarkTimersZero-2  	       1	 812345678 ns/op	       812.3 ns/timer	88003984 B/op	 1000009 allocs/op
BenchmarkPhaseTimer/cb100-2    	  200000	        63.27 ns/op	       0 B/op	       0 allocs/op
BenchmarkAsyncSend     	 1000000	         2.5 ns/op	         7.000 callbacks	       0 B/op	       0 allocs/op
--- FAIL: BenchmarkBroken
PASS
ok  	github.com/uvgo/uvgo/uvloop	0.048s
`
	got := parseGoBench(out)
	names := make([]string, 0, len(got))
	for k := range got {
		names = append(names, k)
	}
	slices.Sort(names)
	if want := []string{"AsyncSend", "LoopCount", "PhaseTimer/cb100", "TimersZero"}; !slices.Equal(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	if s := got["LoopCount"]; s.NsPerOp != 73.97 || s.Allocs != 0 {
		t.Errorf("LoopCount %+v", s)
	}
	tz := got["TimersZero"]
	if tz.Extra["ns/timer"] != 812.3 || tz.Allocs != 1000009 {
		t.Errorf("TimersZero %+v", tz)
	}
	per, err := perItem(tz, "ns/timer", 1_000_000)
	if err != nil || per.NsPerOp != 812.3 || per.Allocs != 1.000009 {
		t.Errorf("perItem = %+v, %v", per, err)
	}
	if _, err := perItem(got["LoopCount"], "ns/timer", 1); err == nil {
		t.Error("perItem without the metric: no error")
	}
	if got["AsyncSend"].Extra["callbacks"] != 7 {
		t.Errorf("AsyncSend %+v", got["AsyncSend"])
	}
}

func TestStat(t *testing.T) {
	tests := []struct {
		xs            []float64
		med, min, max float64
	}{
		{[]float64{5}, 5, 5, 5},
		{[]float64{3, 1, 2}, 2, 1, 3},
		{[]float64{4, 1, 3, 2}, 2.5, 1, 4},
	}
	for _, tt := range tests {
		s, ok := statOf(tt.xs)
		if !ok || s.Med != tt.med || s.Min != tt.min || s.Max != tt.max || s.N != len(tt.xs) {
			t.Errorf("statOf(%v) = %+v, %v", tt.xs, s, ok)
		}
	}
	if _, ok := statOf(nil); ok {
		t.Error("statOf(nil) ok")
	}
}

func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{fmtInt(0), "0"},
		{fmtInt(999), "999"},
		{fmtInt(1000), "1,000"},
		{fmtInt(-1234567), "-1,234,567"},
		{fmtNs(12494.191), "12,494"},
		{fmtNs(376.7), "377"},
		{fmtNs(73.97), "74.0"},
		{fmtNs(2.534), "2.53"},
		{fmtSigned(-4.5), "−4.50"},
		{fmtSigned(1234), "+1,234"},
		{fmtRatio(0.0271), "0.027"},
		{fmtRatio(1.4), "1.40"},
		{fmtAllocs(1), "1"},
		{fmtAllocs(1.000009), "1.00"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

// TestWorkloads checks the table: unique names, every variant has a uvgo benchmark, a reason
// for every missing runtime, and the scripts and programs it names exist.
func TestWorkloads(t *testing.T) {
	seen := map[string]bool{}
	makefile, err := os.ReadFile("../../libuv/Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range workloads {
		if seen[w.Name] {
			t.Errorf("%s: listed twice", w.Name)
		}
		seen[w.Name] = true
		if w.Shape == "" || w.Per == "" || w.Goal.Text == "" {
			t.Errorf("%s: shape, per and goal are required", w.Name)
		}
		if w.NotYet != "" {
			if len(w.Variants) > 0 {
				t.Errorf("%s: not yet, but has variants", w.Name)
			}
			continue
		}
		if w.N <= 0 || len(w.Variants) == 0 {
			t.Errorf("%s: no N or no variants", w.Name)
		}
		if w.Net != "" {
			if w.GoFixedN || w.QuickN != 0 || w.GoMetric != "" {
				t.Errorf("%s: a network workload has no benchmark: GoFixedN, QuickN and GoMetric are unset", w.Name)
			}
		} else if w.GoFixedN != (w.QuickN == 0) || w.GoFixedN != (w.GoMetric != "") {
			t.Errorf("%s: GoFixedN, QuickN and GoMetric disagree", w.Name)
		}
		for _, v := range w.Variants {
			if v.Go == "" {
				t.Errorf("%s: variant without a uvgo benchmark", w.Name)
			}
			if (v.Node == "") == (v.NoNode == "") {
				t.Errorf("%s %s: want exactly one of Node and NoNode", w.Name, v.API)
			}
			if (v.C == "") == (v.NoC == "") {
				t.Errorf("%s %s: want exactly one of C and NoC", w.Name, v.API)
			}
			if v.Node != "" {
				if _, err := os.Stat(filepath.Join("../../node", v.Node)); err != nil {
					t.Errorf("%s: %v", w.Name, err)
				}
			}
			if v.C != "" && !strings.Contains(string(makefile), v.C) {
				t.Errorf("%s: %s is not built by libuv/Makefile", w.Name, v.C)
			}
		}
	}
}

func testReport() *Report {
	w := &Workload{Name: "a<b", Per: "op", N: 10, Goal: scheduling}
	v := &Variant{Go: "A", Node: "a.js", C: "a"}
	sample := func(ns float64) Sample { return Sample{NsPerOp: ns, Allocs: 0, Extra: map[string]float64{"B/op": 0}} }
	ok := &Result{W: w, V: v, N: 10, Go: []Sample{sample(1), sample(2), sample(3)},
		Node: []Sample{sample(10)}, C: []Sample{sample(4)}, Errs: map[string]string{}, SkipReason: map[string]string{}}
	behind := &Result{W: &Workload{Name: "slow", Per: "op", N: 10, Goal: scheduling}, V: v, N: 10,
		Go: []Sample{sample(9)}, Node: []Sample{sample(10)}, C: []Sample{sample(3)},
		Errs: map[string]string{}, SkipReason: map[string]string{}}
	noNode := &Result{W: &Workload{Name: "c-only", Per: "op", N: 10, Goal: scheduling}, V: &Variant{Go: "C", NoNode: "none", C: "c"}, N: 10,
		Go: []Sample{sample(1)}, C: []Sample{sample(2)}, Errs: map[string]string{}, SkipReason: map[string]string{rtNode: "none"}}
	notYet := &Result{W: &Workload{Name: "later", Per: "op", NotYet: "needs x", Goal: scheduling}}
	return &Report{
		Config:  Config{Rounds: 3, Workloads: true, Phases: true, Command: "go run ./cmd/uvbench"},
		Machine: Machine{CPU: "cpu", Cores: 2, LoadStart: "1", LoadEnd: "2"},
		Results: []*Result{ok, behind, noNode, notYet},
		Phases:  map[string][]Sample{"PhaseEmpty": {sample(50)}, "PhaseTimer/iter": {sample(60)}},
		Started: time.Unix(0, 0), Elapsed: time.Minute,
	}
}

func TestVerdict(t *testing.T) {
	rep := testReport()
	want := []string{"met", "**behind** vs Node (0.90×, goal ≤ 0.33×); **slower than libuv** (3.00×)", "met", "not yet"}
	for i, r := range rep.Results {
		if got := r.Verdict(); got != want[i] {
			t.Errorf("%s: %q, want %q", r.Label(), got, want[i])
		}
	}
	md := rep.Markdown()
	for _, s := range []string{"| a<b | 10 | op | 2.00 (1.00–3.00) | 0 (0 B) | 10.0 | 4.00 | — | 0.20 | 0.50 | — | met |",
		"c-only, node: none", "| later | — | op | not yet: needs x |", "| timer | 60.0 | +10.0 | **missing** |"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}

func TestSVGIsXML(t *testing.T) {
	rep := testReport()
	for name, svg := range map[string][]byte{"ratios": rep.SVG(), "phases": rep.PhaseSVG()} {
		d := xml.NewDecoder(strings.NewReader(string(svg)))
		for {
			_, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	if svg := string(rep.PhaseSVG()); !strings.Contains(svg, "timer: 10.0 ns") || !strings.Contains(svg, "empty iteration: 50.0 ns") {
		t.Errorf("phases.svg lacks the timer's 10 ns above the empty iteration or the empty iteration's 50:\n%s", svg)
	}
	if md := rep.Markdown(); !strings.Contains(md, "![ns per callback of each kind](phases.svg)") {
		t.Errorf("results.md does not show phases.svg")
	}
}

func TestUpdateReadme(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	before := "# x\n\n" + readmeBegin + "\nold\n" + readmeEnd + "\n\nafter\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := updateReadme(path, testReport()); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	s := string(b)
	if strings.Contains(s, "old") || !strings.Contains(s, "### Workloads") || !strings.HasSuffix(s, readmeEnd+"\n\nafter\n") {
		t.Errorf("README after update:\n%s", s)
	}
}

func TestVerdictTieAndFloor(t *testing.T) {
	sample := func(ns float64) []Sample { return []Sample{{NsPerOp: ns, Allocs: 0}} }
	w := &Workload{Name: "w", Goal: scheduling, FloorNs: 1000}
	tests := []struct {
		goNs, nodeNs, cNs float64
		want              string
	}{
		{1004, 3500, 1000, "met (≈ libuv, within 1%)"},
		{1020, 3500, 1000, "**slower than libuv** (1.02×)"},
		{1500, 2000, 0, "**behind** vs Node (0.75×, goal ≤ 0.33×; its sleep allows no less than 0.50×)"},
	}
	for _, tt := range tests {
		r := &Result{W: w, V: &Variant{}, Go: sample(tt.goNs), Node: sample(tt.nodeNs)}
		if tt.cNs > 0 {
			r.C = sample(tt.cNs)
		}
		if got := r.Verdict(); got != tt.want {
			t.Errorf("%v: %q, want %q", tt, got, tt.want)
		}
	}
}

func TestNetRows(t *testing.T) {
	w := &Workload{Name: "http-hello", Per: "request", N: 50, Net: netHTTP, Goal: Goal{MaxVsNode: 0.5, Text: "2x"},
		Extra: []string{keyReqPerS}, Peers: []Peer{{Name: "net/http"}}}
	v := &Variant{Go: "examples/http", Node: "http-hello.js", NoC: "none"}
	rate := func(rps float64) Sample {
		s, err := rateSample(map[string]float64{"r": rps}, "r", keyReqPerS)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	r := &Result{W: w, V: v, N: 50, Go: []Sample{rate(100_000)}, Node: []Sample{rate(40_000)},
		Peers: map[string][]Sample{"net/http": {rate(50_000)}}, Errs: map[string]string{}, SkipReason: map[string]string{rtLibuv: "none"}}
	idle := &Result{W: &Workload{Name: "idle", Per: "connection", Unit: "B", N: 10, Net: netIdle, Goal: Goal{Text: "none"}}, V: v, N: 10,
		Skip: "wrk not found", Errs: map[string]string{}, SkipReason: map[string]string{}}
	rep := testReport()
	rep.Results = []*Result{r, idle}
	md := rep.Markdown()
	for _, s := range []string{"| http-hello | 50 | request | 10,000 |", "| 0.40 | — | — | met |",
		"http-hello, net/http: 20,000 ns/request (50,000 req/s); uvgo/it 0.50", "| idle | 10 | connection | skipped: wrk not found |",
		"| `examples/http` |"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
	if got := idle.Verdict(); got != "skipped" {
		t.Errorf("skipped verdict %q", got)
	}
}

func TestWrkSample(t *testing.T) {
	out := "Running 1s test @ http://127.0.0.1:1/\n  1 threads and 50 connections\nRequests/sec:  80000.50\nTransfer/sec:  9.8MB\n"
	s, err := wrkSample(out)
	if err != nil || s.Extra[keyReqPerS] != 80000.5 || s.NsPerOp != 1e9/80000.5 {
		t.Errorf("wrkSample = %+v, %v", s, err)
	}
	if _, err := wrkSample(out + "  Non-2xx or 3xx responses: 3\n"); err == nil {
		t.Error("non-2xx answers accepted")
	}
}

// The observability overhead is the median of the per-round ratios, and says so when a side
// is missing.
func TestObserveTable(t *testing.T) {
	s := func(ns float64) Sample { return Sample{NsPerOp: ns, Allocs: 0} }
	rep := &Report{Phases: map[string][]Sample{
		"ImmediateChain":         {s(100), s(200), s(100)},
		"ImmediateChainObserved": {s(102), s(204), s(110)},
	}}
	var b strings.Builder
	rep.observeTable(&b, "##")
	if got := b.String(); !strings.Contains(got, "| everything on | 110 (102–204) | +2.0% (+2.0% … +10.0%) |") ||
		!strings.Contains(got, "| counters only | 100 (100–200) | |") {
		t.Errorf("table:\n%s", got)
	}
	delete(rep.Phases, "ImmediateChainObserved")
	b.Reset()
	rep.observeTable(&b, "##")
	if !strings.Contains(b.String(), "**missing**") {
		t.Errorf("without the observed runs:\n%s", b.String())
	}
}
