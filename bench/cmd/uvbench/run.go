package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Sample is one measured run.
type Sample struct {
	NsPerOp float64
	Allocs  float64            // allocs per op; -1 when the runtime does not report it
	Extra   map[string]float64 // the other numeric fields (C and Node key=value, Go metrics)
}

// runTimeout bounds one run; the slowest default run takes a few seconds.
const runTimeout = 5 * time.Minute

// command runs name args in dir and returns its stdout; on failure the error carries the end of
// stderr.
func command(dir, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if out := strings.TrimSpace(stdout.String()); msg == "" {
			msg = out
		}
		if len(msg) > 400 {
			msg = "..." + msg[len(msg)-400:]
		}
		if msg != "" {
			return "", fmt.Errorf("%s %s: %w: %s", filepath.Base(name), strings.Join(args, " "), err, msg)
		}
		return "", fmt.Errorf("%s %s: %w", filepath.Base(name), strings.Join(args, " "), err)
	}
	return stdout.String(), nil
}

// runLine runs a Node script or a C program and parses its result line.
func runLine(dir, name string, args ...string) (Sample, error) {
	out, err := command(dir, name, args...)
	if err != nil {
		return Sample{}, err
	}
	return parseLine(out)
}

// parseLine parses `name=<w> n=<N> ns_per_op=<float> total_ns=<int> [key=value...]`: the last
// line of out that starts with name=.
func parseLine(out string) (Sample, error) {
	var line string
	for l := range strings.Lines(out) {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "name=") {
			line = l
		}
	}
	if line == "" {
		return Sample{}, fmt.Errorf("no result line in output %q", strings.TrimSpace(out))
	}
	s := Sample{Allocs: -1, Extra: map[string]float64{}}
	found := false
	for _, f := range strings.Fields(line) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return Sample{}, fmt.Errorf("bad field %q in %q", f, line)
		}
		if k == "name" {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue // not a number: not ours to tabulate
		}
		if k == "ns_per_op" {
			s.NsPerOp, found = x, true
			continue
		}
		s.Extra[k] = x
	}
	if !found {
		return Sample{}, fmt.Errorf("no ns_per_op in %q", line)
	}
	return s, nil
}

// GoBench runs the benchmarks of one package's test binary, built once per invocation of
// uvbench, so that every round measures the same code even while the package is being edited.
type GoBench struct {
	Bin string // the test binary (go test -c)
	Dir string // the package directory, where go test would run it
}

// defaultGoPkg holds the benchmarks of every workload that does not name its package.
const defaultGoPkg = "./uvloop/"

// buildGoBench compiles the tests of pkg (relative to the root module): `go test -c`.
func buildGoBench(root, tmp, pkg string) (*GoBench, error) {
	dir := filepath.Join(root, filepath.FromSlash(pkg))
	bin := filepath.Join(tmp, filepath.Base(dir)+".test")
	if _, err := command(root, "go", "test", "-c", "-o", bin, pkg); err != nil {
		return nil, err
	}
	return &GoBench{Bin: bin, Dir: dir}, nil
}

// Run is `go test -run '^$' -bench pattern -benchtime benchtime -count=1 -benchmem <pkg>`,
// with the binary built once. It returns the results by benchmark name (without "Benchmark"
// and the -GOMAXPROCS suffix; sub-benchmarks as Name/sub).
func (g *GoBench) Run(pattern, benchtime string) (map[string]Sample, error) {
	out, err := command(g.Dir, g.Bin, "-test.run=^$", "-test.bench="+pattern,
		"-test.benchtime="+benchtime, "-test.count=1", "-test.benchmem")
	if err != nil {
		return nil, err
	}
	res := parseGoBench(out)
	if len(res) == 0 {
		return nil, fmt.Errorf("no benchmark matched %s: %q", pattern, strings.TrimSpace(out))
	}
	return res, nil
}

// RunOne runs one benchmark by name.
func (g *GoBench) RunOne(name, benchtime string) (Sample, error) {
	res, err := g.Run("^Benchmark"+regexp.QuoteMeta(name)+"$", benchtime)
	if err != nil {
		return Sample{}, err
	}
	s, ok := res[name]
	if !ok {
		return Sample{}, fmt.Errorf("benchmark %s not in output", name)
	}
	return s, nil
}

var procSuffix = regexp.MustCompile(`-[0-9]+$`)

// parseGoBench parses the result lines of `go test -bench`:
//
//	BenchmarkName-2   1000000   73.9 ns/op   5.1 ns/timer   0 B/op   0 allocs/op
func parseGoBench(out string) map[string]Sample {
	res := map[string]Sample{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || len(f)%2 != 0 {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		name := procSuffix.ReplaceAllString(strings.TrimPrefix(f[0], "Benchmark"), "")
		s := Sample{Allocs: -1, Extra: map[string]float64{}}
		ok := false
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch unit := f[i+1]; unit {
			case "ns/op":
				s.NsPerOp, ok = v, true
			case "allocs/op":
				s.Allocs = v
			default:
				s.Extra[unit] = v
			}
		}
		if ok {
			res[name] = s
		}
	}
	return res
}

// Tools says which runtimes can run here, and why not.
type Tools struct {
	Node, Libuv         bool
	NoNode, NoLibuv     string
	NodeVersion, LibuvV string
}

// findTools looks for node, and for what building the C programs takes (make, a C compiler,
// pkg-config and libuv's .pc file).
func findTools() Tools {
	var t Tools
	if _, err := exec.LookPath("node"); err != nil {
		t.NoNode = "node not found in PATH"
	} else if v, err := command("", "node", "--version"); err != nil {
		t.NoNode = "node --version failed: " + err.Error()
	} else {
		t.Node, t.NodeVersion = true, strings.TrimSpace(v)
	}
	for _, tool := range []string{"make", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.NoLibuv = tool + " not found in PATH"
			return t
		}
	}
	if cc := ccName(); cc == "" {
		t.NoLibuv = "no C compiler (cc, gcc or $CC) in PATH"
		return t
	}
	v, err := command("", "pkg-config", "--modversion", "libuv")
	if err != nil {
		t.NoLibuv = "pkg-config finds no libuv (apt-get install libuv1-dev)"
		return t
	}
	t.Libuv, t.LibuvV = true, strings.TrimSpace(v)
	return t
}

// ccName is the C compiler make will use.
func ccName() string {
	for _, cc := range []string{os.Getenv("CC"), "cc", "gcc"} {
		if cc == "" {
			continue
		}
		if _, err := exec.LookPath(cc); err == nil {
			return cc
		}
	}
	return ""
}

// buildLibuv runs make -C libuv in the bench directory.
func buildLibuv(benchDir string) error {
	_, err := command(benchDir, "make", "-s", "-C", "libuv")
	return err
}

// findBenchDir returns the bench module's directory: the one holding the go.mod of
// github.com/uvgo/uvgo/bench, at or above the working directory, or bench/ below it.
func findBenchDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	isBench := func(dir string) bool {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		return err == nil && modulePath(b) == "github.com/uvgo/uvgo/bench"
	}
	if isBench(filepath.Join(wd, "bench")) {
		return filepath.Join(wd, "bench"), nil
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if isBench(dir) {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", errors.New("cannot find bench/go.mod (module github.com/uvgo/uvgo/bench); run from the repository")
		}
	}
}

func modulePath(gomod []byte) string {
	for l := range strings.Lines(string(gomod)) {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}
