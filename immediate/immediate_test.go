package immediate_test

import (
	"fmt"
	"slices"
	"testing"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/immediate"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fixture is a queue with n immediates whose callbacks log their index and
// then run the action set for them, if any.
type fixture struct {
	t    *testing.T
	q    immediate.Queue
	ims  []*immediate.Immediate
	acts map[int]func(f *fixture)
	log  []string
}

func newFixture(t *testing.T, n int) *fixture {
	f := &fixture{t: t, acts: map[int]func(*fixture){}}
	for i := range n {
		im := &immediate.Immediate{}
		im.Fn = func() {
			f.logf("%d", i)
			if act := f.acts[i]; act != nil {
				act(f)
			}
		}
		f.ims = append(f.ims, im)
	}
	return f
}

func (f *fixture) logf(format string, args ...any) {
	f.log = append(f.log, fmt.Sprintf(format, args...))
}

// push pushes the immediates with the given indexes, ref'd.
func (f *fixture) push(idx ...int) {
	for _, i := range idx {
		f.q.Push(f.ims[i], true)
	}
}

// remove removes immediate i and logs the result.
func (f *fixture) remove(i int) { f.logf("remove(%d)=%v", i, f.q.Remove(f.ims[i])) }

// run runs the queue with a nil after, checks the invariants and returns the
// log, which it then clears.
func (f *fixture) run() (ran int, log []string) {
	f.t.Helper()
	ran = f.q.Run(nil)
	f.check()
	log, f.log = f.log, nil
	return ran, log
}

func (f *fixture) check() {
	f.t.Helper()
	if err := immediate.Verify(&f.q); err != nil {
		f.t.Fatal(err)
	}
}

func TestRunFIFO(t *testing.T) {
	f := newFixture(t, 10)
	f.push(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	if f.q.Len() != 10 || f.q.RefCount() != 10 {
		t.Fatalf("Len, RefCount = %d, %d; want 10, 10", f.q.Len(), f.q.RefCount())
	}
	ran, log := f.run()
	want := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}
	if ran != 10 || !slices.Equal(log, want) {
		t.Fatalf("Run = %d, %q; want 10, %q", ran, log, want)
	}
	if f.q.Len() != 0 || f.q.RefCount() != 0 {
		t.Fatalf("after Run: Len, RefCount = %d, %d; want 0, 0", f.q.Len(), f.q.RefCount())
	}
	if ran, log := f.run(); ran != 0 || len(log) != 0 {
		t.Fatalf("Run on an empty queue = %d, %q", ran, log)
	}
}

func TestRunSnapshot(t *testing.T) {
	f := newFixture(t, 6)
	f.acts[0] = func(f *fixture) { f.push(3, 4) }
	f.acts[2] = func(f *fixture) {
		f.acts[2] = nil
		f.push(2) // itself: unlinked before its Fn, so it is queued again for the next Run
		f.logf("len=%d", f.q.Len())
	}
	f.acts[3] = func(f *fixture) { f.push(5) }
	f.push(0, 1, 2)
	tests := []struct {
		wantRan int
		wantLog []string
	}{
		{wantRan: 3, wantLog: []string{"0", "1", "2", "len=3"}},
		{wantRan: 3, wantLog: []string{"3", "4", "2"}},
		{wantRan: 1, wantLog: []string{"5"}},
		{wantRan: 0, wantLog: nil},
	}
	for i, tt := range tests {
		if ran, log := f.run(); ran != tt.wantRan || !slices.Equal(log, tt.wantLog) {
			t.Fatalf("Run %d = %d, %q; want %d, %q", i+1, ran, log, tt.wantRan, tt.wantLog)
		}
	}
}

func TestRemove(t *testing.T) {
	tests := []struct {
		name     string
		n        int   // immediates
		push     []int // pushed before the first Run
		acts     map[int]func(f *fixture)
		before   func(f *fixture) // runs before the first Run
		wantRun1 []string
		wantRun2 []string
		wantLen  int // after the first Run
	}{
		{
			name:     "queued",
			n:        3,
			push:     []int{0, 1, 2},
			before:   func(f *fixture) { f.remove(1) },
			wantRun1: []string{"remove(1)=true", "0", "2"},
		},
		{
			name:     "later in the running snapshot",
			n:        3,
			push:     []int{0, 1, 2},
			acts:     map[int]func(*fixture){0: func(f *fixture) { f.remove(2) }},
			wantRun1: []string{"0", "remove(2)=true", "1"},
		},
		{
			name:     "itself while running",
			n:        3,
			push:     []int{0, 1, 2},
			acts:     map[int]func(*fixture){1: func(f *fixture) { f.remove(1) }},
			wantRun1: []string{"0", "1", "remove(1)=false", "2"},
		},
		{
			name:     "one already run in this snapshot",
			n:        3,
			push:     []int{0, 1, 2},
			acts:     map[int]func(*fixture){2: func(f *fixture) { f.remove(0) }},
			wantRun1: []string{"0", "1", "2", "remove(0)=false"},
		},
		{
			name:     "never queued",
			n:        3,
			push:     []int{0, 1},
			before:   func(f *fixture) { f.remove(2) },
			wantRun1: []string{"remove(2)=false", "0", "1"},
		},
		{
			name:     "twice",
			n:        2,
			push:     []int{0, 1},
			before:   func(f *fixture) { f.remove(0); f.remove(0) },
			wantRun1: []string{"remove(0)=true", "remove(0)=false", "1"},
		},
		{
			name: "pushed during the run",
			n:    3,
			push: []int{0, 1},
			acts: map[int]func(*fixture){
				0: func(f *fixture) { f.push(2) },
				1: func(f *fixture) { f.remove(2) },
			},
			wantRun1: []string{"0", "1", "remove(2)=true"},
		},
		{
			name: "pushed during the run, kept",
			n:    3,
			push: []int{0, 1},
			acts: map[int]func(*fixture){
				0: func(f *fixture) { f.push(2) },
			},
			wantRun1: []string{"0", "1"},
			wantLen:  1,
			wantRun2: []string{"2"},
		},
		{
			name: "removed then pushed again goes to the back",
			n:    3,
			push: []int{0, 1, 2},
			before: func(f *fixture) {
				f.remove(0)
				f.push(0)
			},
			wantRun1: []string{"remove(0)=true", "1", "2", "0"},
		},
		{
			name: "removed from the snapshot then pushed again waits",
			n:    3,
			push: []int{0, 1, 2},
			acts: map[int]func(*fixture){
				0: func(f *fixture) { f.remove(2); f.push(2) },
			},
			wantRun1: []string{"0", "remove(2)=true", "1"},
			wantLen:  1,
			wantRun2: []string{"2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.n)
			for i, act := range tt.acts {
				f.acts[i] = act
			}
			f.push(tt.push...)
			if tt.before != nil {
				tt.before(f)
			}
			f.check()
			if _, log := f.run(); !slices.Equal(log, tt.wantRun1) {
				t.Fatalf("first Run:\n got %q\nwant %q", log, tt.wantRun1)
			}
			if f.q.Len() != tt.wantLen || f.q.RefCount() != tt.wantLen {
				t.Fatalf("after the first Run: Len, RefCount = %d, %d; want %d, %d",
					f.q.Len(), f.q.RefCount(), tt.wantLen, tt.wantLen)
			}
			f.acts = map[int]func(*fixture){}
			if _, log := f.run(); !slices.Equal(log, tt.wantRun2) {
				t.Fatalf("second Run:\n got %q\nwant %q", log, tt.wantRun2)
			}
			for i, im := range f.ims {
				if im.Queued() || im.HasRef() {
					t.Errorf("immediate %d: Queued, HasRef = %v, %v at the end", i, im.Queued(), im.HasRef())
				}
			}
		})
	}
}

func TestRemoveFromAnotherQueue(t *testing.T) {
	var q1, q2 immediate.Queue
	im := &immediate.Immediate{Fn: func() {}}
	q1.Push(im, true)
	if q2.Remove(im) {
		t.Fatal("Remove from the wrong queue returned true")
	}
	q2.SetRef(im, false)
	q2.Push(im, false)
	if q2.Len() != 0 || q1.Len() != 1 || q1.RefCount() != 1 || !im.HasRef() {
		t.Fatalf("the other queue changed things: q1 %d/%d, q2 %d", q1.Len(), q1.RefCount(), q2.Len())
	}
	if !q1.Remove(im) {
		t.Fatal("Remove from the right queue returned false")
	}
}

func TestPushQueuedDoesNothing(t *testing.T) {
	f := newFixture(t, 2)
	f.q.Push(f.ims[0], false)
	f.q.Push(f.ims[1], true)
	f.q.Push(f.ims[0], true) // already queued: ignored, ref included
	if f.q.Len() != 2 || f.q.RefCount() != 1 || f.ims[0].HasRef() {
		t.Fatalf("Len, RefCount, HasRef = %d, %d, %v; want 2, 1, false", f.q.Len(), f.q.RefCount(), f.ims[0].HasRef())
	}
	if _, log := f.run(); !slices.Equal(log, []string{"0", "1"}) {
		t.Fatalf("Run = %q", log)
	}
}

// TestRefLifecycle follows Node's hasRef(): true while queued and ref'd,
// false inside its own callback, after it ran and after it was cleared; ref()
// on one that has run or been cleared does nothing.
//
//	const a = setImmediate(() => { console.log(a.hasRef()); setImmediate(() => { a.ref(); console.log(a.hasRef()); }); });
//	console.log(a.hasRef(), a.unref().hasRef(), a.ref().hasRef());
//	const b = setImmediate(() => {}); clearImmediate(b); b.ref(); console.log(b.hasRef());
//	// true false true / false / false / false
func TestRefLifecycle(t *testing.T) {
	var q immediate.Queue
	var got []bool
	a, b, c := &immediate.Immediate{}, &immediate.Immediate{}, &immediate.Immediate{}
	a.Fn = func() {
		got = append(got, a.HasRef(), a.Queued())
		q.SetRef(a, true)
		got = append(got, a.HasRef())
		c.Fn = func() {}
		q.Push(c, true)
	}
	b.Fn = func() {}
	if a.HasRef() || a.Queued() {
		t.Fatal("a new Immediate is ref'd or queued")
	}
	q.SetRef(a, true) // not queued: nothing
	if a.HasRef() || q.RefCount() != 0 {
		t.Fatal("SetRef of an unqueued Immediate took effect")
	}
	q.Push(a, true)
	got = append(got, a.HasRef())
	q.SetRef(a, false)
	got = append(got, a.HasRef(), q.RefCount() == 0)
	q.SetRef(a, true)
	got = append(got, a.HasRef(), q.RefCount() == 1)
	q.Push(b, true)
	q.Remove(b)
	q.SetRef(b, true)
	got = append(got, b.HasRef(), q.RefCount() == 1)
	q.Run(nil)
	q.SetRef(a, true)
	got = append(got, a.HasRef(), q.RefCount() == 1, q.Len() == 1)
	want := []bool{
		true,        // pushed ref'd
		false, true, // unref'd
		true, true, // ref'd again
		false, true, // b cleared, then ref'd
		false, false, false, // inside a's callback, also after SetRef
		false, true, true, // a after the Run
	}
	if !slices.Equal(got, want) {
		t.Fatalf("HasRef and counts:\n got %v\nwant %v", got, want)
	}
}

func TestRefCount(t *testing.T) {
	f := newFixture(t, 6)
	q := &f.q
	for i, im := range f.ims {
		q.Push(im, i%2 == 0) // 0, 2, 4 ref'd
	}
	type counts struct{ len, refs int }
	expect := func(step string, want counts) {
		t.Helper()
		f.check()
		if got := (counts{q.Len(), q.RefCount()}); got != want {
			t.Fatalf("%s: Len, RefCount = %v; want %v", step, got, want)
		}
	}
	expect("pushed", counts{6, 3})
	q.SetRef(f.ims[1], true)
	expect("ref 1", counts{6, 4})
	q.SetRef(f.ims[1], true)
	expect("ref 1 again", counts{6, 4})
	q.SetRef(f.ims[0], false)
	expect("unref 0", counts{6, 3})
	q.Remove(f.ims[2])
	expect("remove ref'd 2", counts{5, 2})
	q.Remove(f.ims[3])
	expect("remove unref'd 3", counts{4, 2})
	// In the run: 0 (unref'd) sees the rest; 1 unrefs 4 and removes 5.
	f.acts[0] = func(f *fixture) { expect("inside 0", counts{3, 2}) }
	f.acts[1] = func(f *fixture) {
		expect("inside 1", counts{2, 1})
		q.SetRef(f.ims[4], false)
		expect("1 unrefs 4", counts{2, 0})
		q.Push(f.ims[2], true)
		expect("1 pushes 2", counts{3, 1})
		q.Remove(f.ims[5])
		expect("1 removes 5", counts{2, 1})
	}
	f.acts[4] = func(f *fixture) { expect("inside 4", counts{1, 1}) }
	if ran, log := f.run(); ran != 3 || !slices.Equal(log, []string{"0", "1", "4"}) {
		t.Fatalf("Run = %d, %q", ran, log)
	}
	expect("after Run", counts{1, 1})
	f.run()
	expect("after second Run", counts{0, 0})
}

func TestRunNotReentrant(t *testing.T) {
	f := newFixture(t, 3)
	f.acts[0] = func(f *fixture) { f.logf("nested=%d", f.q.Run(nil)) }
	f.push(0, 1, 2)
	after := 0
	if ran := f.q.Run(func() {
		after++
		if n := f.q.Run(nil); n != 0 {
			t.Errorf("Run from after = %d; want 0", n)
		}
	}); ran != 3 {
		t.Fatalf("Run = %d; want 3", ran)
	}
	if want := []string{"0", "nested=0", "1", "2"}; !slices.Equal(f.log, want) || after != 3 {
		t.Fatalf("log %q, after called %d times; want %q, 3", f.log, after, want)
	}
}

// runRecover runs q.Run(after) and returns what it panicked with.
func runRecover(q *immediate.Queue, after func()) (ran int, v any) {
	defer func() { v = recover() }()
	return q.Run(after), nil
}

func TestRunPanic(t *testing.T) {
	tests := []struct {
		name       string
		panicIn    string // "fn" or "after"
		wantFirst  []string
		wantOutst  int
		wantLen    int
		wantRefs   int
		wantSecond []string // the outstanding rest only
		wantThird  []string // what was pushed meanwhile
	}{
		{
			name:       "in Fn",
			panicIn:    "fn",
			wantFirst:  []string{"0", "1"},
			wantOutst:  2, // 2, 3
			wantLen:    3, // 2, 3 and 4 pushed by 1
			wantRefs:   2, // 3 is unref'd
			wantSecond: []string{"2", "3"},
			wantThird:  []string{"4"},
		},
		{
			name:       "in after",
			panicIn:    "after",
			wantFirst:  []string{"0", "1", "after 1"},
			wantOutst:  2,
			wantLen:    3,
			wantRefs:   2,
			wantSecond: []string{"2", "3"},
			wantThird:  []string{"4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, 5)
			f.q.Push(f.ims[0], true)
			f.q.Push(f.ims[1], true)
			f.q.Push(f.ims[2], true)
			f.q.Push(f.ims[3], false)
			f.acts[1] = func(f *fixture) {
				f.q.Push(f.ims[4], true)
				if tt.panicIn == "fn" {
					panic("boom")
				}
			}
			after := func() {
				if tt.panicIn == "after" && f.log[len(f.log)-1] == "1" {
					f.logf("after 1")
					panic("boom")
				}
			}
			if _, v := runRecover(&f.q, after); v != "boom" {
				t.Fatalf("Run panicked with %v; want boom", v)
			}
			f.check()
			if !slices.Equal(f.log, tt.wantFirst) {
				t.Fatalf("first Run:\n got %q\nwant %q", f.log, tt.wantFirst)
			}
			if f.q.Outstanding() != tt.wantOutst || f.q.Len() != tt.wantLen || f.q.RefCount() != tt.wantRefs {
				t.Fatalf("after the panic: Outstanding, Len, RefCount = %d, %d, %d; want %d, %d, %d",
					f.q.Outstanding(), f.q.Len(), f.q.RefCount(), tt.wantOutst, tt.wantLen, tt.wantRefs)
			}
			if f.ims[1].Queued() || !f.ims[2].Queued() {
				t.Fatal("the panicking immediate is still queued, or the next one is not")
			}
			f.log = nil
			f.acts = map[int]func(*fixture){}
			if ran, log := f.run(); ran != len(tt.wantSecond) || !slices.Equal(log, tt.wantSecond) {
				t.Fatalf("second Run = %d, %q; want %q", ran, log, tt.wantSecond)
			}
			if f.q.Outstanding() != 0 {
				t.Fatalf("Outstanding = %d after the rest ran", f.q.Outstanding())
			}
			if ran, log := f.run(); ran != len(tt.wantThird) || !slices.Equal(log, tt.wantThird) {
				t.Fatalf("third Run = %d, %q; want %q", ran, log, tt.wantThird)
			}
			if f.q.Len() != 0 || f.q.RefCount() != 0 {
				t.Fatalf("at the end: Len, RefCount = %d, %d", f.q.Len(), f.q.RefCount())
			}
		})
	}
}

func TestRemoveOutstanding(t *testing.T) {
	f := newFixture(t, 4)
	f.push(0, 1, 2, 3)
	f.acts[0] = func(f *fixture) { panic("boom") }
	runRecover(&f.q, nil)
	f.acts = map[int]func(*fixture){}
	f.remove(2)
	f.q.SetRef(f.ims[3], false)
	if f.q.Len() != 2 || f.q.RefCount() != 1 || f.q.Outstanding() != 2 {
		t.Fatalf("Len, RefCount, Outstanding = %d, %d, %d; want 2, 1, 2", f.q.Len(), f.q.RefCount(), f.q.Outstanding())
	}
	if _, log := f.run(); !slices.Equal(log, []string{"0", "remove(2)=true", "1", "3"}) {
		t.Fatalf("log %q", log)
	}
}

func TestPushRunAllocs(t *testing.T) {
	var q immediate.Queue
	n := 0
	ims := make([]*immediate.Immediate, 8)
	for i := range ims {
		ims[i] = &immediate.Immediate{Fn: func() { n++ }}
	}
	after := func() {}
	allocs := testing.AllocsPerRun(1000, func() {
		for i, im := range ims {
			q.Push(im, i%2 == 0)
		}
		q.Remove(ims[3])
		q.SetRef(ims[4], false)
		q.Run(after)
	})
	if allocs != 0 {
		t.Fatalf("Push+Run allocates %v times per run; want 0", allocs)
	}
	if n == 0 {
		t.Fatal("nothing ran")
	}
}

func BenchmarkQueuePushRun(b *testing.B) {
	for _, size := range []int{1, 64} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			var q immediate.Queue
			ims := make([]*immediate.Immediate, size)
			for i := range ims {
				ims[i] = &immediate.Immediate{Fn: func() {}}
			}
			after := func() {}
			b.ReportAllocs()
			for b.Loop() {
				for _, im := range ims {
					q.Push(im, true)
				}
				q.Run(after)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*size), "ns/immediate")
		})
	}
}

func BenchmarkQueuePushRemove(b *testing.B) {
	var q immediate.Queue
	im := &immediate.Immediate{Fn: func() {}}
	b.ReportAllocs()
	for b.Loop() {
		q.Push(im, true)
		q.Remove(im)
	}
}

// TestClear: Clear drops the waiting immediates and the outstanding rest of a panicked Run;
// none of them runs, none stays queued or ref'd, and the queue works afterwards.
func TestClear(t *testing.T) {
	f := newFixture(t, 5)
	f.push(0, 1, 2)
	f.acts[0] = func(f *fixture) {
		f.push(3)
		panic("boom")
	}
	if _, v := runRecover(&f.q, nil); v != "boom" {
		t.Fatalf("Run panicked with %v; want boom", v)
	}
	f.log = nil
	if n := f.q.Clear(); n != 3 { // 1 and 2 outstanding, 3 waiting
		t.Fatalf("Clear dropped %d, want 3", n)
	}
	f.check()
	if f.q.Len() != 0 || f.q.RefCount() != 0 || f.q.Outstanding() != 0 {
		t.Fatalf("after Clear: Len, RefCount, Outstanding = %d, %d, %d", f.q.Len(), f.q.RefCount(), f.q.Outstanding())
	}
	for i := 1; i <= 3; i++ {
		if f.ims[i].Queued() || f.ims[i].HasRef() {
			t.Fatalf("immediate %d is still queued or ref'd after Clear", i)
		}
	}
	f.push(4)
	if _, log := f.run(); !slices.Equal(log, []string{"4"}) {
		t.Fatalf("the Run after Clear ran %q, want [4]", log)
	}
}
