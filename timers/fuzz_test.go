package timers_test

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/uvgo/uvgo/timers"
)

// The fuzz test drives a Heap and a reference model with the same random
// operations over a few entries and compares them after every operation,
// including every operation made by a callback in the middle of a run.
//
// The model keeps the active timers in a plain slice sorted by (deadline,
// sequence) and runs them with the documented algorithm, step by step: each
// real Fn call must be the model's next due timer.

const fuzzEntries = 16

// Where a model entry is.
const (
	mIdle = iota
	mTree
	mDue
)

type modelEntry struct {
	state    int
	started  bool
	deadline int64
	seq      uint64
	repeat   int64
}

type model struct {
	e    [fuzzEntries]modelEntry
	tree []int // active entries, sorted by (deadline, seq)
	seq  uint64

	running bool
	runNow  int64
	ready   []int // collected by the run in progress
	pos     int
}

func (m *model) cmpKey(i, j int) int {
	a, b := &m.e[i], &m.e[j]
	return cmp.Or(cmp.Compare(a.deadline, b.deadline), cmp.Compare(a.seq, b.seq))
}

func (m *model) insert(i int) {
	at, found := slices.BinarySearchFunc(m.tree, i, m.cmpKey)
	if found {
		panic("model: duplicate key")
	}
	m.tree = slices.Insert(m.tree, at, i)
	m.e[i].state = mTree
}

func (m *model) start(i int, now, timeout, repeat int64) error {
	if timeout < 0 || repeat < 0 {
		return timers.ErrNegative
	}
	m.stop(i)
	deadline := now + timeout
	if deadline < now { // wrapped around
		deadline = math.MaxInt64
	}
	m.e[i] = modelEntry{started: true, deadline: deadline, seq: m.seq, repeat: repeat}
	m.seq++
	m.insert(i)
	return nil
}

func (m *model) stop(i int) bool {
	switch m.e[i].state {
	case mTree:
		m.tree = slices.DeleteFunc(m.tree, func(j int) bool { return j == i })
		m.e[i].state = mIdle
		return true
	case mDue:
		m.e[i].state = mIdle
	}
	return false
}

func (m *model) again(i int, now int64) error {
	if !m.e[i].started {
		return timers.ErrNeverStarted
	}
	if r := m.e[i].repeat; r != 0 {
		return m.start(i, now, r, r)
	}
	return nil
}

func (m *model) setRepeat(i int, r int64) {
	if r >= 0 {
		m.e[i].repeat = r
	}
}

func (m *model) next() (int64, bool) {
	if len(m.tree) == 0 {
		return 0, false
	}
	return m.e[m.tree[0]].deadline, true
}

// beginRun collects the due timers; it reports false for a nested run.
func (m *model) beginRun(now int64) bool {
	if m.running {
		return false
	}
	m.running, m.runNow, m.ready, m.pos = true, now, nil, 0
	for len(m.tree) > 0 && m.e[m.tree[0]].deadline <= now {
		i := m.tree[0]
		m.tree = m.tree[1:]
		m.e[i].state = mDue
		m.ready = append(m.ready, i)
	}
	return true
}

// step returns the next timer of the run to fire, re-armed if it repeats.
func (m *model) step() (int, bool) {
	for m.pos < len(m.ready) {
		i := m.ready[m.pos]
		m.pos++
		if m.e[i].state != mDue {
			continue
		}
		m.e[i].state = mIdle
		if r := m.e[i].repeat; r != 0 {
			_ = m.start(i, m.runNow, r, r)
		}
		return i, true
	}
	return -1, false
}

// endRun puts the collected timers that did not fire back.
func (m *model) endRun() {
	for _, i := range m.ready[m.pos:] {
		if m.e[i].state == mDue {
			m.insert(i)
		}
	}
	m.running, m.ready, m.pos = false, nil, 0
}

// Callback actions.
const (
	actNone = iota
	actStop
	actStart
	actAgain
	actSetRepeat
	actRun
	actPanic
	numActs
)

type action struct {
	kind            int
	target          int
	timeout, repeat int64
}

type fuzzPanic struct{}

type fuzzer struct {
	t       *testing.T
	h       *timers.Heap
	e       [fuzzEntries]*timers.Entry
	m       model
	actions [fuzzEntries]action
	now     int64
	fired   int // Fn calls in the current real run
}

func newFuzzer(t *testing.T) *fuzzer {
	f := &fuzzer{t: t, h: timers.New()}
	for i := range f.e {
		e := new(timers.Entry)
		e.Fn = func() { f.fire(i) }
		f.e[i] = e
	}
	return f
}

// fire is entry i's Fn: it checks i against the model's next timer, then
// applies i's action to both.
func (f *fuzzer) fire(i int) {
	f.t.Helper()
	f.fired++
	j, ok := f.m.step()
	if !ok || j != i {
		f.t.Fatalf("fired e%d, model expects e%d (ok %v)", i, j, ok)
	}
	f.compare("in Fn before its action")
	a := f.actions[i]
	now := f.m.runNow
	switch a.kind {
	case actStop:
		f.stop(a.target)
	case actStart:
		f.start(a.target, now, a.timeout, a.repeat)
	case actAgain:
		f.again(a.target, now)
	case actSetRepeat:
		f.setRepeat(a.target, a.repeat)
	case actRun:
		if n := f.h.RunExpired(now); n != 0 || f.m.beginRun(now) {
			f.t.Fatalf("nested RunExpired = %d", n)
		}
	case actPanic:
		panic(fuzzPanic{})
	}
	f.compare("in Fn after its action")
}

func (f *fuzzer) start(i int, now, timeout, repeat int64) {
	f.t.Helper()
	err, merr := f.h.Start(f.e[i], now, timeout, repeat), f.m.start(i, now, timeout, repeat)
	if !errors.Is(err, merr) || !errors.Is(merr, err) {
		f.t.Fatalf("Start(e%d, %d, %d, %d) = %v, model %v", i, now, timeout, repeat, err, merr)
	}
}

func (f *fuzzer) stop(i int) {
	f.t.Helper()
	if got, want := f.h.Stop(f.e[i]), f.m.stop(i); got != want {
		f.t.Fatalf("Stop(e%d) = %v, model %v", i, got, want)
	}
}

func (f *fuzzer) again(i int, now int64) {
	f.t.Helper()
	err, merr := f.h.Again(f.e[i], now), f.m.again(i, now)
	if !errors.Is(err, merr) || !errors.Is(merr, err) {
		f.t.Fatalf("Again(e%d, %d) = %v, model %v", i, now, err, merr)
	}
}

func (f *fuzzer) setRepeat(i int, r int64) {
	f.e[i].SetRepeat(r)
	f.m.setRepeat(i, r)
}

func (f *fuzzer) run() {
	f.t.Helper()
	f.fired = 0
	f.m.beginRun(f.now)
	var n int
	panicked := func() (panicked bool) {
		defer func() {
			if r := recover(); r != nil {
				if r != (fuzzPanic{}) {
					panic(r)
				}
				panicked = true
			}
		}()
		n = f.h.RunExpired(f.now)
		return false
	}()
	if !panicked {
		if j, ok := f.m.step(); ok {
			f.t.Fatalf("run ended, model still expects e%d", j)
		}
		if n != f.fired {
			f.t.Fatalf("RunExpired = %d, Fn called %d times", n, f.fired)
		}
	}
	f.m.endRun()
}

func (f *fuzzer) compare(where string) {
	f.t.Helper()
	if err := f.h.Verify(); err != nil {
		f.t.Fatalf("%s: Verify: %v", where, err)
	}
	for i, e := range f.e {
		me := &f.m.e[i]
		if e.Active() != (me.state == mTree) || e.Due() != (me.state == mDue) ||
			e.Deadline() != me.deadline || e.Repeat() != me.repeat || e.Seq() != me.seq {
			f.t.Fatalf("%s: e%d: Active %v Due %v Deadline %d Repeat %d Seq %d; model %+v",
				where, i, e.Active(), e.Due(), e.Deadline(), e.Repeat(), e.Seq(), *me)
		}
	}
	if got, want := f.h.Len(), len(f.m.tree); got != want {
		f.t.Fatalf("%s: Len = %d, model %d", where, got, want)
	}
	d, ok := f.h.Next()
	md, mok := f.m.next()
	if d != md || ok != mok {
		f.t.Fatalf("%s: Next = %d, %v; model %d, %v", where, d, ok, md, mok)
	}
}

// byteReader hands out the fuzz input; it returns zeros when exhausted.
type byteReader struct{ b []byte }

func (r *byteReader) next() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *byteReader) entry() int { return int(r.next()) % fuzzEntries }

// dur is a duration: mostly tiny, so that deadlines collide, sometimes huge
// or negative.
func (r *byteReader) dur() int64 {
	switch c := r.next(); c {
	case 255:
		return math.MaxInt64
	case 254:
		return -1
	case 253:
		return math.MinInt64
	case 252:
		return math.MaxInt64 / 2
	default:
		return int64(c % 16)
	}
}

// Top-level operations.
const (
	opStart = iota
	opStop
	opAgain
	opSetRepeat
	opRun
	opAdvance
	opAction
	numOps
)

func FuzzHeap(f *testing.F) {
	f.Add([]byte{})
	// Three timers on one deadline, a restart, a run.
	f.Add([]byte{
		opStart, 0, 5, 0, opStart, 1, 5, 0, opStart, 2, 5, 0, opStart, 0, 5, 0,
		opAdvance, 5, opRun,
	})
	// Repeating timers, SetRepeat, Again, runs at several times.
	f.Add([]byte{
		opStart, 3, 2, 3, opStart, 4, 0, 1, opSetRepeat, 4, 7, opAgain, 5,
		opAdvance, 2, opRun, opAgain, 3, opRun, opAdvance, 9, opRun, opStop, 4, opRun,
	})
	// Callbacks that stop, restart and start other due timers, and a nested run.
	f.Add([]byte{
		opAction, 0, actStop, 2, 0, 0, opAction, 1, actStart, 3, 0, 0,
		opAction, 3, actRun, 0, 0, 0, opAction, 4, actAgain, 5, 0, 0,
		opStart, 0, 1, 0, opStart, 1, 1, 0, opStart, 2, 1, 0, opStart, 3, 1, 2,
		opStart, 4, 1, 0, opStart, 5, 1, 4, opAdvance, 1, opRun, opRun, opAdvance, 3, opRun,
	})
	// A nested run from a callback after a timer was started with timeout 0;
	// Again on an active one-shot timer.
	f.Add([]byte{
		opAction, 0, actStart, 1, 0, 0, opAction, 2, actRun, 0, 0, 0,
		opStart, 0, 1, 0, opStart, 2, 1, 0, opStart, 3, 9, 0, opAdvance, 1, opAgain, 3,
		opRun, opRun,
	})
	// A panicking callback in the middle of a run.
	f.Add([]byte{
		opAction, 1, actPanic, 0, 0, 0,
		opStart, 0, 3, 0, opStart, 1, 3, 5, opStart, 2, 3, 0, opStart, 3, 4, 0,
		opAdvance, 4, opRun, opRun, opAction, 1, actNone, 0, 0, 0, opAdvance, 5, opRun,
	})
	// Huge and negative durations.
	f.Add([]byte{
		opStart, 0, 255, 0, opStart, 1, 254, 0, opStart, 2, 3, 253, opStart, 3, 252, 255,
		opAdvance, 255, opStart, 4, 1, 0, opRun, opRun, opSetRepeat, 3, 254,
	})
	f.Fuzz(fuzzHeap)
}

// TestHeapRandom runs fuzzHeap on pseudo-random inputs with a fixed seed, so
// that plain go test covers more than the seed corpus.
func TestHeapRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		data := make([]byte, 20+r.IntN(400))
		for i := range data {
			if r.IntN(4) == 0 {
				data[i] = byte(r.IntN(256))
			} else {
				data[i] = byte(r.IntN(8)) // small: entries and ops collide
			}
		}
		fuzzHeap(t, data)
		if t.Failed() {
			t.Logf("input: %v", data)
			return
		}
	}
}

// fuzzHeap runs the operations that data encodes.
func fuzzHeap(t *testing.T, data []byte) {
	if len(data) > 1<<12 {
		data = data[:1<<12]
	}
	fz := newFuzzer(t)
	r := &byteReader{b: data}
	for len(r.b) > 0 {
		switch op := int(r.next()) % numOps; op {
		case opStart:
			fz.start(r.entry(), fz.now, r.dur(), r.dur())
		case opStop:
			fz.stop(r.entry())
		case opAgain:
			fz.again(r.entry(), fz.now)
		case opSetRepeat:
			fz.setRepeat(r.entry(), r.dur())
		case opRun:
			fz.run()
		case opAdvance:
			if c := r.next(); c == 255 {
				fz.now = math.MaxInt64
			} else if d := int64(c % 32); fz.now <= math.MaxInt64-d {
				fz.now += d
			}
		case opAction:
			i := r.entry()
			fz.actions[i] = action{
				kind:    int(r.next()) % numActs,
				target:  r.entry(),
				timeout: r.dur(),
				repeat:  r.dur(),
			}
		}
		fz.compare("after an op")
	}
}
