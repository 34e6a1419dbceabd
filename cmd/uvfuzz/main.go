// Command uvfuzz is a differential fuzzer of uvgo's scheduling against Node: it generates
// random programs of timeouts, intervals, immediates, nextTicks, microtasks, promises
// (then/catch/finally, all/race/any/allSettled, async/await, thenables, late handlers), fs
// callbacks (on the script's file, and writeFile/appendFile/readFile/stat/unlink/rename/
// mkdir/readdir chains in a temporary directory), TCP sessions (a server on 127.0.0.1:0
// echoing to clients that connect one after another, with the scheduling calls inside
// 'connection', 'connect', 'data', 'end', 'close', write and server.close callbacks) and
// clears from inside callbacks, each one a tree that is printed as a Node script and run
// by an interpreter on uvloop, package promise, nodefs and nodenet. Both print one line
// per event; the lines must agree, actor by actor (two sockets' events race in Node; see
// prog.go). The generator writes only programs whose order Node fixes (see gen.go).
//
//	go run ./cmd/uvfuzz -n 10000          # fresh seeds against a live node
//	go run ./cmd/uvfuzz -print 42         # the script of seed 42
//	go run ./cmd/uvfuzz -go 42            # what uvgo prints for it (grouped by actor)
//	go run ./cmd/uvfuzz -record cmd/uvfuzz/testdata -n 40   # re-record the CI seeds
//
// A divergence is confirmed (node is run again: a script whose output changes between
// node runs is the generator's fault, reported as non-deterministic), shrunk to the
// shortest program that still diverges, and printed with both outputs.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	n := flag.Int("n", 1000, "programs to run")
	seed := flag.Uint64("seed", 0, "first seed (0: from the clock)")
	jobs := flag.Int("j", max(1, runtime.NumCPU()/2), "programs run at once")
	nodeBin := flag.String("node", "node", "the node binary")
	printSeed := flag.Uint64("print", 0, "print the script of this seed and exit")
	goSeed := flag.Uint64("go", 0, "print what uvgo prints for this seed (normalized) and exit")
	record := flag.String("record", "", "record seeds 1..n with node into this directory and exit")
	maxShrink := flag.Int("shrinks", 3, "divergences to shrink (the rest are only counted)")
	flag.Parse()

	if *printSeed != 0 {
		fmt.Print(Generate(*printSeed).JS())
		return
	}
	if *goSeed != 0 {
		file, err := filepath.Abs(fmt.Sprintf("p%d.js", *goSeed))
		if err != nil {
			fatal(err)
		}
		fmt.Println(runGo(Generate(*goSeed), file))
		return
	}
	dir, err := os.MkdirTemp("", "uvfuzz")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(dir)
	if *record != "" {
		if err := recordSeeds(*record, *nodeBin, *n); err != nil {
			fatal(err)
		}
		return
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())%1_000_000_000 + 1_000_000
	}
	f := &fuzzer{node: *nodeBin, dir: dir, maxShrink: int32(*maxShrink)}
	start := time.Now()
	var wg sync.WaitGroup
	seeds := make(chan uint64)
	for range *jobs {
		wg.Go(func() {
			for s := range seeds {
				f.one(s)
			}
		})
	}
	// An interrupt (^C) stops the run after the programs under way, with the summary.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ran := 0
feed:
	for ; ran < *n; ran++ {
		select {
		case seeds <- *seed + uint64(ran):
		case <-ctx.Done():
			break feed
		}
		if (ran+1)%500 == 0 {
			fmt.Fprintf(os.Stderr, "uvfuzz: %d programs, %d divergences, %d non-deterministic (%s)\n",
				ran+1, f.diverged.Load(), f.nondet.Load(), time.Since(start).Round(time.Second))
		}
	}
	close(seeds)
	wg.Wait()
	fmt.Printf("uvfuzz: seeds %d..%d: %d programs, %d events, %d divergences, %d non-deterministic in node, %d flaky in uvgo, %d timing flakes (%s)\n",
		*seed, *seed+uint64(ran)-1, ran, f.events.Load(), f.diverged.Load(), f.nondet.Load(), f.flaky.Load(), f.flakes.Load(), time.Since(start).Round(time.Second))
	if f.diverged.Load() > 0 || f.nondet.Load() > 0 || f.flaky.Load() > 0 {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "uvfuzz:", err)
	os.Exit(2)
}

type fuzzer struct {
	node      string
	dir       string
	maxShrink int32
	events    atomic.Int64
	diverged  atomic.Int32
	nondet    atomic.Int32
	flaky     atomic.Int32
	shrunk    atomic.Int32
	flakes    atomic.Int32
	confirm   sync.RWMutex // a confirmation runs alone: the other programs wait (read lock)
	mu        sync.Mutex   // serializes reports
}

// one runs seed's program in node and in uvgo and reports a divergence.
func (f *fuzzer) one(seed uint64) {
	prog := Generate(seed)
	path := filepath.Join(f.dir, fmt.Sprintf("p%d.js", seed))
	defer os.Remove(path)
	f.confirm.RLock()
	// At the same time: most of a program's time is waiting for its timers. The script's
	// file is made first: the program stats and reads its __filename.
	js := prog.JS()
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		fatal(err)
	}
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = runGo(prog, path)
	}()
	want, err := runNode(f.node, path, js)
	<-done
	f.confirm.RUnlock()
	if err != nil {
		f.report(seed, prog, "node failed: "+err.Error(), want, nil)
		f.diverged.Add(1)
		return
	}
	f.events.Add(int64(strings.Count(want, "\n") + 1))
	if got == want {
		return
	}
	// Confirm, with no other program running: a pair of runs that agree makes it a timing
	// flake of a loaded machine; a node that disagrees with itself, a generator bug; a uvgo
	// that does, a flaky uvgo.
	f.confirm.Lock()
	defer f.confirm.Unlock()
	nodes, gos := []string{want}, []string{got}
	for i := range 4 {
		time.Sleep(time.Duration(i+1) * 250 * time.Millisecond)
		n, g := f.both(path, prog)
		if n == g {
			f.flakes.Add(1)
			f.mu.Lock()
			fmt.Printf("=== seed %d: timing flake (agreed on a retry): %s\n", seed, firstDiff(want, got))
			f.mu.Unlock()
			return
		}
		nodes, gos = append(nodes, n), append(gos, g)
	}
	if slices.ContainsFunc(nodes, func(n string) bool { return n != want }) {
		f.nondet.Add(1)
		f.report(seed, prog, "NON-DETERMINISTIC in node (a generator bug, or a very loaded machine)", want, gos)
		return
	}
	if slices.ContainsFunc(gos, func(g string) bool { return g != got }) {
		f.flaky.Add(1)
		f.report(seed, prog, "FLAKY in uvgo", want, gos)
		return
	}
	// The same difference every time: once more after a pause, as a load spike can last
	// seconds (a slot is 50 ms, and an fs call on a machine with many runnable threads
	// can take longer).
	time.Sleep(3 * time.Second)
	if n, g := f.both(path, prog); n == g {
		f.flakes.Add(1)
		f.mu.Lock()
		fmt.Printf("=== seed %d: timing flake (agreed after a pause): %s\n", seed, firstDiff(want, got))
		f.mu.Unlock()
		return
	}
	f.diverged.Add(1)
	if f.shrunk.Add(1) > f.maxShrink {
		f.report(seed, prog, "DIVERGENCE (not shrunk)", want, []string{got})
		return
	}
	// A smaller program must fail the same way: an interpreter error only if the first
	// one was one.
	internal := strings.Contains(got, "uvfuzz")
	// A candidate must fail twice, so that a load spike does not steer the shrinking.
	small := shrink(prog, func(p *Block) bool {
		for range 2 {
			w, err := runNode(f.node, path, p.JS())
			g := runGo(p, path)
			if err != nil || g == w || strings.Contains(g, "uvfuzz") != internal {
				return false
			}
		}
		return true
	})
	w, _ := runNode(f.node, path, small.JS())
	f.report(seed, small, "DIVERGENCE (shrunk; at first: "+firstDiff(want, got)+")", w, []string{runGo(small, path)})
}

// both returns what node and uvgo print for prog.
func (f *fuzzer) both(path string, prog *Block) (node, uvgo string) {
	node, _ = runNode(f.node, path, prog.JS())
	return node, runGo(prog, path)
}

func (f *fuzzer) report(seed uint64, prog *Block, what, node string, uvgo []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Printf("=== seed %d: %s\n--- script\n%s--- node\n%s\n", seed, what, prog.JS(), node)
	for i, u := range uvgo {
		fmt.Printf("--- uvgo (run %d)\n%s\n", i+1, u)
	}
	if len(uvgo) > 0 {
		fmt.Printf("--- first difference\n%s\n", firstDiff(node, uvgo[0]))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: node %q, uvgo %q", i+1, x, y)
		}
	}
	return "none"
}

// runTimeout bounds one run of a program, in node and in uvgo.
const runTimeout = 30 * time.Second

// runNode writes js to path and returns node's stdout without its last newline.
func runNode(node, path, js string) (string, error) {
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, node, path)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%v: %s", err, errb.String())
	}
	return normalize(strings.TrimSuffix(out.String(), "\n")), nil
}

// runGo runs prog in the interpreter; file is its __filename.
func runGo(prog *Block, file string) string {
	return normalize(strings.Join(Interpret(prog, file), "\n"))
}

// normalize puts the lines of each actor together (see prog.go), the main program's
// first, then the others' by name, each actor's in the order printed.
func normalize(out string) string {
	lines := strings.Split(out, "\n")
	actor := func(s string) string {
		a, _, ok := strings.Cut(s, "|")
		if !ok {
			return ""
		}
		return a
	}
	slices.SortStableFunc(lines, func(x, y string) int { return strings.Compare(actor(x), actor(y)) })
	return strings.Join(lines, "\n")
}

// recordSeeds writes seeds 1..n as NNNN.js and node's output NNNN.out into dir, for the
// test that runs them in CI: what three runs of node print alike.
func recordSeeds(dir, node string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		prog := Generate(seed)
		path, err := filepath.Abs(filepath.Join(dir, fmt.Sprintf("%04d.js", seed)))
		if err != nil {
			return err
		}
		// Three runs that agree: a loaded machine can stretch a slot now and then.
		count := map[string]int{}
		var out string
		for range 8 {
			o, err := runNode(node, path, prog.JS())
			if err != nil {
				return fmt.Errorf("seed %d: %v", seed, err)
			}
			if count[o]++; count[o] == 3 {
				out = o
				break
			}
		}
		if out == "" {
			return fmt.Errorf("seed %d: node's output changes between runs", seed)
		}
		if err := os.WriteFile(strings.TrimSuffix(path, ".js")+".out", []byte(out+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// clone returns a deep copy of b.
func cloneBlock(b *Block) *Block {
	data, err := json.Marshal(b)
	if err != nil {
		panic(err)
	}
	var c Block
	if err := json.Unmarshal(data, &c); err != nil {
		panic(err)
	}
	return &c
}

// shrink returns the smallest program found, by deleting statements and simplifying
// expressions one at a time, that still fails.
func shrink(prog *Block, fails func(*Block) bool) *Block {
	best := prog
	for round := 0; round < 20; round++ {
		progress := false
		for i := 0; ; i++ {
			cand, ok := mutate(best, i)
			if !ok {
				break
			}
			if cand == nil || !valid(cand) {
				continue
			}
			if fails(cand) {
				best, progress = cand, true
				i--
			}
		}
		if !progress {
			break
		}
	}
	return best
}

// mutate returns the i-th simplification of prog (nil if it does not apply), or false past
// the last.
func mutate(prog *Block, i int) (*Block, bool) {
	c := cloneBlock(prog)
	n := 0
	var done bool
	var visitBlock func(b *Block)
	var visitExpr func(pe **PExpr)
	visitBlock = func(b *Block) {
		if b == nil || done {
			return
		}
		for j := range b.Stmts {
			if n == i {
				b.Stmts = slices.Delete(b.Stmts, j, j+1)
				done = true
				return
			}
			n++
		}
		for _, s := range b.Stmts {
			visitBlock(s.Body)
			if s.E != nil {
				visitExpr(&s.E)
			}
			if t := s.TCP; t != nil && !done {
				// Drop a connection, or the server's early close; then shrink the blocks.
				for j := range t.Conns {
					if n == i {
						t.Conns = slices.Delete(t.Conns, j, j+1)
						done = true
						return
					}
					n++
				}
				if t.CloseEarly {
					if n == i {
						t.CloseEarly = false
						done = true
						return
					}
					n++
				}
				bs, _ := t.blocks(s.ID)
				for _, tb := range bs {
					visitBlock(tb)
				}
			}
			if done {
				return
			}
		}
		if b.End != nil && b.End.E != nil {
			visitExpr(&b.End.E)
		}
	}
	visitExpr = func(pe **PExpr) {
		e := *pe
		if done {
			return
		}
		switch e.Kind {
		case PThen, PCatch, PFinally, PFrom:
			if e.Kind != PFrom {
				if n == i {
					if e.Src.kindList() {
						*pe = &PExpr{Kind: PResolve, ID: e.ID}
					} else {
						*pe = e.Src
					}
					done = true
					return
				}
				n++
			}
		case PAll, PRace, PAny, PAllSettled:
			for j := range e.Items {
				if n == i {
					e.Items = slices.Delete(e.Items, j, j+1)
					done = true
					return
				}
				n++
			}
		case PNew, PAsync:
			if n == i {
				*pe = &PExpr{Kind: PResolve, ID: e.ID}
				done = true
				return
			}
			n++
		}
		if e.Src != nil {
			visitExpr(&e.Src)
		}
		for j := range e.Items {
			visitExpr(&e.Items[j])
		}
		visitBlock(e.OnF)
		visitBlock(e.OnR)
		visitBlock(e.Body)
	}
	visitBlock(c)
	if !done {
		return nil, false
	}
	annotate(c, "")
	return c, true
}

// valid reports whether every P[i] that prog reads was assigned before (lexically), every
// settle is inside its executor, every await at the top of an async body, and every socket
// write at the top of a Connect block; a TCP session's blocks see nothing from outside.
func valid(prog *Block) bool {
	ok := true
	var block func(b *Block, vars map[int]bool, execs map[int]bool, async bool)
	var expr func(e *PExpr, vars map[int]bool, execs map[int]bool)
	copyMap := func(m map[int]bool) map[int]bool {
		c := make(map[int]bool, len(m))
		for k, v := range m {
			c[k] = v
		}
		return c
	}
	block = func(b *Block, vars, execs map[int]bool, async bool) {
		if b == nil {
			return
		}
		vars = copyMap(vars)
		for _, s := range b.Stmts {
			if s.Op == OpAwait && !async || s.Op == OpWrite {
				ok = false
			}
			if t := s.TCP; t != nil {
				connect := map[*Block]bool{}
				for _, c := range t.Conns {
					connect[c.Connect] = true
					if c.Pre != nil {
						connect[c.Pre] = true
					}
				}
				bs, _ := t.blocks(s.ID)
				for _, tb := range bs {
					if tb == nil {
						continue
					}
					if !connect[tb] {
						block(tb, map[int]bool{}, map[int]bool{}, false)
						continue
					}
					// The writes at its top, and the rest as any block.
					rest := &Block{}
					for _, w := range tb.Stmts {
						if w.Op == OpWrite {
							block(w.Body, map[int]bool{}, map[int]bool{}, false)
						} else {
							rest.Stmts = append(rest.Stmts, w)
						}
					}
					block(rest, map[int]bool{}, map[int]bool{}, false)
				}
			}
			if s.Op == OpSettle && !execs[s.Ref] {
				ok = false
			}
			if s.E != nil {
				expr(s.E, vars, execs)
			}
			block(s.Body, vars, execs, false)
			if s.Op == OpPromise {
				vars[s.ID] = true
			}
		}
		if b.End != nil && b.End.E != nil {
			expr(b.End.E, vars, execs)
		}
	}
	expr = func(e *PExpr, vars, execs map[int]bool) {
		switch e.Kind {
		case PVar:
			if !vars[e.Ref] {
				ok = false
			}
		case PNew:
			ex := copyMap(execs)
			ex[e.ID] = true
			block(e.Body, vars, ex, false)
			return
		case PAsync:
			block(e.Body, vars, execs, true)
			return
		}
		if e.Src != nil {
			expr(e.Src, vars, execs)
		}
		for _, it := range e.Items {
			expr(it, vars, execs)
		}
		block(e.OnF, vars, execs, false)
		block(e.OnR, vars, execs, false)
		block(e.Body, vars, execs, false)
	}
	block(prog, map[int]bool{}, map[int]bool{}, false)
	return ok
}
