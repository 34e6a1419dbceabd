package nexttick_test

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nexttick"
)

// env is what an ordering case's setup gets: the queues and a recorder.
type env struct {
	q   *nexttick.Queues
	log *[]string
}

// rec returns a callback that records s.
func (e env) rec(s string) func() { return func() { *e.log = append(*e.log, s) } }

// then returns a callback that records s and then runs more.
func (e env) then(s string, more ...func()) func() {
	return func() {
		*e.log = append(*e.log, s)
		for _, f := range more {
			f()
		}
	}
}

func (e env) tick(fn func()) func()  { return func() { e.q.NextTick(fn) } }
func (e env) micro(fn func()) func() { return func() { e.q.QueueMicrotask(fn) } }

// recursiveTicks returns the 1000 lines of the recursive nextTick case.
func recursiveTicks() []string {
	var want []string
	for i := 1; i <= 1000; i++ {
		want = append(want, fmt.Sprintf("nextTick %d", i))
	}
	return want
}

var drainOrderTests = []struct {
	name string
	// js is the same scenario for Node.js v20; it prints the lines of want.
	// Set UVGO_NODE_ORACLE=1 to check it with the node on $PATH.
	js    string
	setup func(e env) // queues the scenario, as a main script would
	// checkpoint, if set, becomes Queues.Checkpoint.
	checkpoint func(e env) func() bool
	want       []string
}{
	{
		name: "ticks before microtasks",
		js: `Promise.resolve().then(() => console.log('promise A'));
process.nextTick(() => console.log('tick 1'));
queueMicrotask(() => console.log('promise B'));
process.nextTick(() => console.log('tick 2'));`,
		setup: func(e env) {
			e.q.QueueMicrotask(e.rec("promise A"))
			e.q.NextTick(e.rec("tick 1"))
			e.q.QueueMicrotask(e.rec("promise B"))
			e.q.NextTick(e.rec("tick 2"))
		},
		want: []string{"tick 1", "tick 2", "promise A", "promise B"},
	},
	{
		name: "microtask queuing a tick runs it after all microtasks",
		js: `queueMicrotask(() => console.log('m1'));
queueMicrotask(() => { console.log('m2'); process.nextTick(() => console.log('tick from m2')); });
queueMicrotask(() => { console.log('m3'); queueMicrotask(() => console.log('m from m3')); });
process.nextTick(() => console.log('t1'));`,
		setup: func(e env) {
			e.q.QueueMicrotask(e.rec("m1"))
			e.q.QueueMicrotask(e.then("m2", e.tick(e.rec("tick from m2"))))
			e.q.QueueMicrotask(e.then("m3", e.micro(e.rec("m from m3"))))
			e.q.NextTick(e.rec("t1"))
		},
		want: []string{"t1", "m1", "m2", "m3", "m from m3", "tick from m2"},
	},
	{
		name: "tick queuing a microtask runs it after all ticks",
		js: `process.nextTick(() => { console.log('t1'); queueMicrotask(() => console.log('m from t1')); });
process.nextTick(() => console.log('t2'));
queueMicrotask(() => console.log('m1'));`,
		setup: func(e env) {
			e.q.NextTick(e.then("t1", e.micro(e.rec("m from t1"))))
			e.q.NextTick(e.rec("t2"))
			e.q.QueueMicrotask(e.rec("m1"))
		},
		want: []string{"t1", "t2", "m1", "m from t1"},
	},
	{
		name: "nested ticks and microtasks",
		js: `process.nextTick(() => {
  console.log('t1');
  queueMicrotask(() => {
    console.log('m from t1');
    process.nextTick(() => console.log('t from m from t1'));
    queueMicrotask(() => console.log('m from m from t1'));
  });
  process.nextTick(() => console.log('t from t1'));
});
queueMicrotask(() => { console.log('m1'); process.nextTick(() => console.log('t from m1')); });
process.nextTick(() => console.log('t2'));
queueMicrotask(() => console.log('m2'));`,
		setup: func(e env) {
			e.q.NextTick(e.then("t1",
				e.micro(e.then("m from t1",
					e.tick(e.rec("t from m from t1")),
					e.micro(e.rec("m from m from t1")))),
				e.tick(e.rec("t from t1"))))
			e.q.QueueMicrotask(e.then("m1", e.tick(e.rec("t from m1"))))
			e.q.NextTick(e.rec("t2"))
			e.q.QueueMicrotask(e.rec("m2"))
		},
		want: []string{"t1", "t2", "t from t1", "m1", "m2", "m from t1",
			"m from m from t1", "t from m1", "t from m from t1"},
	},
	{
		name: "ticks nested three deep run before any microtask",
		js: `queueMicrotask(() => console.log('m'));
process.nextTick(() => { console.log('a'); process.nextTick(() => { console.log('b'); process.nextTick(() => console.log('c')); }); });`,
		setup: func(e env) {
			e.q.QueueMicrotask(e.rec("m"))
			e.q.NextTick(e.then("a", e.tick(e.then("b", e.tick(e.rec("c"))))))
		},
		want: []string{"a", "b", "c", "m"},
	},
	{
		name: "1000 recursive ticks",
		js: `let index = 0;
function handler() {
  if (index++ >= 1000) return;
  console.log('nextTick ' + index);
  process.nextTick(handler);
}
process.nextTick(handler);`,
		setup: func(e env) {
			index := 0
			var handler func()
			handler = func() {
				if index >= 1000 {
					return
				}
				index++
				*e.log = append(*e.log, fmt.Sprintf("nextTick %d", index))
				e.q.NextTick(handler)
			}
			e.q.NextTick(handler)
		},
		want: recursiveTicks(),
	},
	{
		// Node calls processPromiseRejections only once the tick queue is
		// empty, so a tick can still attach a handler in time.
		name: "checkpoint waits while ticks remain",
		js: `process.on('unhandledRejection', () => console.log('unhandled'));
let p;
process.nextTick(() => {
  console.log('t1');
  queueMicrotask(() => {
    console.log('reject');
    p = Promise.reject(new Error('x'));
    process.nextTick(() => { console.log('attach'); p.catch(() => console.log('caught')); });
  });
});`,
		setup: func(e env) {
			e.q.NextTick(e.then("t1", e.micro(e.then("reject",
				func() { unhandled = true },
				e.tick(e.then("attach", func() { unhandled = false }, e.micro(e.rec("caught"))))))))
		},
		checkpoint: func(e env) func() bool {
			return func() bool {
				if unhandled {
					unhandled = false
					*e.log = append(*e.log, "unhandled")
					return true
				}
				return false
			}
		},
		want: []string{"t1", "reject", "attach", "caught"},
	},
	{
		name: "checkpoint that queues work makes another round",
		js: `process.on('unhandledRejection', () => {
  console.log('unhandled');
  process.nextTick(() => console.log('tick from handler'));
  queueMicrotask(() => console.log('micro from handler'));
});
process.nextTick(() => console.log('t1'));
Promise.reject(new Error('x'));`,
		setup: func(e env) {
			e.q.NextTick(e.rec("t1"))
			unhandled = true
		},
		checkpoint: func(e env) func() bool {
			return func() bool {
				if unhandled {
					unhandled = false
					*e.log = append(*e.log, "unhandled")
					e.q.NextTick(e.rec("tick from handler"))
					e.q.QueueMicrotask(e.rec("micro from handler"))
					return true
				}
				return false
			}
		},
		want: []string{"t1", "unhandled", "tick from handler", "micro from handler"},
	},
	{
		name:  "checkpoint returning true once makes one more round",
		setup: func(e env) { e.q.NextTick(e.rec("t1")) },
		checkpoint: func(e env) func() bool {
			calls := 0
			return func() bool {
				calls++
				*e.log = append(*e.log, fmt.Sprintf("checkpoint %d", calls))
				return calls == 1
			}
		},
		want: []string{"t1", "checkpoint 1", "checkpoint 2"},
	},
	{
		name:  "checkpoint runs once on empty queues",
		setup: func(e env) {},
		checkpoint: func(e env) func() bool {
			return func() bool { *e.log = append(*e.log, "checkpoint"); return false }
		},
		want: []string{"checkpoint"},
	},
	{
		name: "checkpoint that queues a tick but returns false still drains it",
		setup: func(e env) {
			unhandled = true
		},
		checkpoint: func(e env) func() bool {
			return func() bool {
				*e.log = append(*e.log, "checkpoint")
				if unhandled {
					unhandled = false
					e.q.QueueMicrotask(e.rec("micro from checkpoint"))
				}
				return false
			}
		},
		want: []string{"checkpoint", "micro from checkpoint", "checkpoint"},
	},
}

// unhandled stands for the promise package's pending-rejection list in the
// checkpoint cases. Tests in this file do not run in parallel.
var unhandled bool

func TestDrainOrder(t *testing.T) {
	for _, tt := range drainOrderTests {
		t.Run(tt.name, func(t *testing.T) {
			unhandled = false
			var q nexttick.Queues
			var log []string
			e := env{q: &q, log: &log}
			if tt.checkpoint != nil {
				q.Checkpoint = tt.checkpoint(e)
			}
			tt.setup(e)
			q.Drain()
			if !slices.Equal(log, tt.want) {
				t.Errorf("order:\n got %q\nwant %q", log, tt.want)
			}
			if q.Pending() || q.Draining() {
				t.Errorf("after Drain: Pending = %v, Draining = %v; want false, false", q.Pending(), q.Draining())
			}
		})
	}
}

// TestDrainOrderNode runs the JavaScript of each ordering case with Node.js
// and compares its output with want. It needs node on $PATH and
// UVGO_NODE_ORACLE=1.
func TestDrainOrderNode(t *testing.T) {
	if os.Getenv("UVGO_NODE_ORACLE") != "1" {
		t.Skip("set UVGO_NODE_ORACLE=1 to compare with Node.js")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	for _, tt := range drainOrderTests {
		if tt.js == "" {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			out, err := exec.Command(node, "-e", tt.js).CombinedOutput()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			if !slices.Equal(got, tt.want) {
				t.Errorf("node order:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDrainNotReentrant(t *testing.T) {
	var q nexttick.Queues
	var log []string
	e := env{q: &q, log: &log}
	q.NextTick(func() {
		log = append(log, "t1")
		if !q.Draining() {
			t.Error("Draining = false inside a tick")
		}
		q.QueueMicrotask(e.rec("m from t1"))
		q.Drain() // must return at once
		log = append(log, "t1 after inner Drain")
	})
	q.NextTick(e.rec("t2"))
	q.QueueMicrotask(func() {
		log = append(log, "m1")
		q.NextTick(e.rec("t from m1"))
		q.Drain()
		log = append(log, "m1 after inner Drain")
	})
	q.Checkpoint = func() bool {
		q.NextTick(e.rec("t from checkpoint"))
		q.Drain()
		q.Checkpoint = nil
		return false
	}
	if q.Draining() {
		t.Fatal("Draining = true before Drain")
	}
	q.Drain()
	want := []string{"t1", "t1 after inner Drain", "t2", "m1", "m1 after inner Drain",
		"m from t1", "t from m1", "t from checkpoint"}
	if !slices.Equal(log, want) {
		t.Errorf("order:\n got %q\nwant %q", log, want)
	}
	if q.Draining() {
		t.Error("Draining = true after Drain")
	}
}

// drainRecover runs q.Drain and returns what it panicked with.
func drainRecover(q *nexttick.Queues) (v any) {
	defer func() { v = recover() }()
	q.Drain()
	return nil
}

func TestDrainPanic(t *testing.T) {
	tests := []struct {
		name       string
		setup      func(e env)
		checkpoint bool // install a Checkpoint that panics on its first call
		wantFirst  []string
		wantSecond []string
	}{
		{
			name: "tick panics",
			setup: func(e env) {
				e.q.NextTick(e.rec("t1"))
				e.q.NextTick(e.then("t2", func() { panic("boom") }))
				e.q.NextTick(e.rec("t3"))
				e.q.QueueMicrotask(e.rec("m1"))
				e.q.NextTick(e.rec("t4"))
			},
			wantFirst:  []string{"t1", "t2"},
			wantSecond: []string{"t3", "t4", "m1"},
		},
		{
			name: "microtask panics",
			setup: func(e env) {
				e.q.QueueMicrotask(e.then("m1", e.tick(e.rec("t from m1"))))
				e.q.QueueMicrotask(e.then("m2", func() { panic("boom") }))
				e.q.QueueMicrotask(e.rec("m3"))
			},
			wantFirst:  []string{"m1", "m2"},
			wantSecond: []string{"t from m1", "m3"},
		},
		{
			name: "checkpoint panics",
			setup: func(e env) {
				e.q.NextTick(e.rec("t1"))
			},
			checkpoint: true,
			wantFirst:  []string{"t1", "checkpoint 1"},
			wantSecond: []string{"t from checkpoint", "checkpoint 2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var q nexttick.Queues
			var log []string
			e := env{q: &q, log: &log}
			if tt.checkpoint {
				calls := 0
				q.Checkpoint = func() bool {
					calls++
					log = append(log, fmt.Sprintf("checkpoint %d", calls))
					if calls == 1 {
						q.NextTick(e.rec("t from checkpoint"))
						panic("boom")
					}
					return false
				}
			}
			tt.setup(e)
			if v := drainRecover(&q); v != "boom" {
				t.Fatalf("Drain panicked with %v; want boom", v)
			}
			if q.Draining() {
				t.Error("Draining = true after a panic")
			}
			if !q.Pending() {
				t.Error("Pending = false after a panic with work left")
			}
			if !slices.Equal(log, tt.wantFirst) {
				t.Errorf("first Drain:\n got %q\nwant %q", log, tt.wantFirst)
			}
			log = log[:0]
			q.Drain()
			if !slices.Equal(log, tt.wantSecond) {
				t.Errorf("second Drain:\n got %q\nwant %q", log, tt.wantSecond)
			}
			if q.Pending() || q.Draining() {
				t.Errorf("after Drain: Pending = %v, Draining = %v", q.Pending(), q.Draining())
			}
		})
	}
}

func TestNilCallbackPanics(t *testing.T) {
	var q nexttick.Queues
	for name, f := range map[string]func(){
		"NextTick":       func() { q.NextTick(nil) },
		"QueueMicrotask": func() { q.QueueMicrotask(nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s(nil) did not panic", name)
				}
			}()
			f()
		}()
	}
	if q.Pending() {
		t.Error("a nil callback was queued")
	}
}

func TestDrainSteadyStateAllocs(t *testing.T) {
	var q nexttick.Queues
	n := 0
	tick := func() { n++ }
	micro := func() { n++ }
	q.Checkpoint = func() bool { return false }
	q.NextTick(tick) // allocate the buffers
	q.QueueMicrotask(micro)
	q.Drain()
	allocs := testing.AllocsPerRun(1000, func() {
		q.NextTick(tick)
		q.QueueMicrotask(micro)
		q.NextTick(tick)
		q.Drain()
	})
	if allocs != 0 {
		t.Fatalf("NextTick+Drain allocates %v times per run; want 0", allocs)
	}
	if n == 0 {
		t.Fatal("callbacks did not run")
	}
}

// BenchmarkDrainTickChain drains a chain of 100 ticks, each queueing the next.
func BenchmarkDrainTickChain(b *testing.B) {
	const chain = 100
	var q nexttick.Queues
	left := 0
	var tick func()
	tick = func() {
		if left--; left > 0 {
			q.NextTick(tick)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		left = chain
		q.NextTick(tick)
		q.Drain()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chain), "ns/tick")
}

// BenchmarkDrainMixed drains one tick that queues a microtask, the common
// shape after an I/O callback that resolves a promise.
func BenchmarkDrainMixed(b *testing.B) {
	var q nexttick.Queues
	micro := func() {}
	tick := func() { q.QueueMicrotask(micro) }
	b.ReportAllocs()
	for b.Loop() {
		q.NextTick(tick)
		q.Drain()
	}
}

// BenchmarkDrainEmpty is the cost the loop pays after a callback that queued
// nothing.
func BenchmarkDrainEmpty(b *testing.B) {
	var q nexttick.Queues
	q.Checkpoint = func() bool { return false }
	b.ReportAllocs()
	for b.Loop() {
		q.Drain()
	}
}
