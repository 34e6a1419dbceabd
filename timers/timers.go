// Package timers is the timer heap of the uvgo event loop, and Node's timer
// lists (Lists) beside it.
//
// The package makes no system calls and knows no loop. Time is an int64
// count of nanoseconds on the caller's monotonic clock, and the current time
// is always passed in, so the heap is deterministic and cheap to test.
//
// # Key
//
// Active timers live in a google/btree BTreeG ordered by the key
// (deadline, sequence). The sequence is taken from a per-heap counter on every
// Start, so it is unique within a heap: two timers sharing a deadline fire in
// the order they were started, and a restarted timer moves to the back of its
// deadline group. The sequence is also what keeps the tree correct, because a
// B-tree replaces items that compare equal: keyed by deadline alone it would
// silently drop all but one of the timers sharing a deadline.
//
// # Run
//
// RunExpired(now) works in two steps. First it collects every due timer
// (deadline <= now) by removing it from the tree, in key order, into a
// reusable ready list; a collected timer is no longer active. Then it walks
// the ready list. A timer that a callback stopped or restarted in the
// meantime is skipped. Otherwise a repeating timer is re-armed first (deadline
// = now + repeat, with a fresh sequence), so its callback sees it active and
// may stop it, and then its Fn is called. Because collection finishes before
// any callback runs, a timer started by a callback waits for the next
// RunExpired even with a zero timeout. If an Fn panics, the panic propagates,
// and the collected timers that have not run yet go back into the tree with
// their old keys, so they are due, in the same order, at the next run.
//
// This follows libuv's timer phase (src/timer.c, libuv >= 1.46).
package timers

import (
	"errors"
	"fmt"
	"math"

	"github.com/google/btree"
)

// debugVerify makes every mutating call check the invariants of the heap (or
// of the lists) and panic when one is broken. It is for debugging the package
// itself.
const debugVerify = false

const (
	// degree is the B-tree degree: nodes hold degree-1 to 2*degree-1 timers.
	degree = 32
	// freeListSize is how many spare B-tree nodes the heap keeps for reuse.
	freeListSize = 64
	// maxKeptReady caps the capacity of the ready list kept between runs.
	maxKeptReady = 1 << 16
)

// ErrNeverStarted is returned by Again for a timer that was never started.
var ErrNeverStarted = errors.New("timers: timer was never started")

// ErrNegative is returned by Start for a negative timeout or repeat.
var ErrNegative = errors.New("timers: negative duration")

// state is where an Entry is.
type state uint8

const (
	stateIdle state = iota // stopped or never started
	stateTree              // in the tree, waiting: active
	stateDue               // collected by a run in progress, Fn not run yet
)

// Entry is one timer. The zero value is a stopped, never-started timer.
//
// Embed an Entry or hold it by pointer; it must not be copied after first use.
// An Entry belongs to at most one Heap at a time (the one that last started
// it), and, like its Heap, it must only be used by the goroutine that owns
// that Heap.
type Entry struct {
	noCopy noCopy

	// Fn is called by RunExpired when the timer fires. The owner sets it once,
	// before the first Start. A nil Fn is allowed: the timer still fires and
	// re-arms, and Handler is called instead, if set.
	Fn func()
	// Handler is what RunExpired calls when the timer fires and Fn is nil:
	// typically the owner of the Entry, so that arming a timer allocates no
	// closure (a method value such as t.fire is one allocation per owner).
	// The owner sets it once, before the first Start.
	Handler Handler

	deadline int64  // absolute deadline of the last Start, ns
	seq      uint64 // start sequence of the last Start; unique per heap
	repeat   int64  // re-arm period, ns; 0 for a one-shot timer
	heap     *Heap  // heap of the last Start; nil before the first
	state    state
	started  bool // set by the first successful Start, never cleared
}

// Handler is the owner of an Entry that fires it through a method, not through
// a closure in Fn (see Entry.Handler). A type with an unexported name can
// implement it, so that OnTimer is not part of the owner's public API:
//
//	type timerFire Timer
//	func (t *timerFire) OnTimer() { (*Timer)(t).fire() }
//	...
//	t.entry.Handler = (*timerFire)(t) // no allocation: a pointer fits an interface
type Handler interface {
	// OnTimer is called by RunExpired when the timer fires.
	OnTimer()
}

// Active reports whether e is in the tree, waiting for its deadline. A timer
// collected as due by a run in progress, whose Fn has not run yet, is not
// active: as in libuv, collecting a timer stops it.
func (e *Entry) Active() bool { return e.state == stateTree }

// Deadline returns the absolute deadline, in ns, set by the last Start (or by
// the last re-arm of a repeating timer). It is 0 for a never-started timer.
func (e *Entry) Deadline() int64 { return e.deadline }

// Repeat returns the repeat period in ns; 0 means the timer does not repeat.
func (e *Entry) Repeat() int64 { return e.repeat }

// SetRepeat sets the repeat period in ns, like uv_timer_set_repeat. It takes
// effect at the next (re)arm: when the timer fires, or at Again. It does not
// move a waiting timer. A negative repeat is ignored (e is unchanged), as
// Start rejects one with ErrNegative.
func (e *Entry) SetRepeat(repeat int64) {
	if repeat < 0 {
		return
	}
	e.repeat = repeat
}

// Heap holds the active timers ordered by (deadline, start sequence) in a
// google/btree BTreeG.
//
// A Heap is not safe for concurrent use: one goroutine (the loop's) owns it
// and every Entry started on it. The zero Heap is not usable: call New.
//
// In steady state, Start, Stop and RunExpired of existing entries do not
// allocate: B-tree nodes come from a free list, and the ready list of a run
// is reused (while at most 65536 timers fall due at once).
type Heap struct {
	tree *btree.BTreeG[*Entry]
	seq  uint64 // next start sequence

	// The ready list of the run in progress. ready[pos:] have not been looked
	// at yet; those still in stateDue will fire. Empty between runs.
	ready   []*Entry
	pos     int
	running bool // a RunExpired is in progress

	// next is the earliest deadline in the tree (math.MaxInt64 when it is empty), kept
	// so that RunExpired's common case, nothing due, is one comparison inlined in the
	// caller rather than a walk to the tree's leftmost leaf.
	next int64
}

// New returns an empty Heap.
func New() *Heap {
	return &Heap{
		tree: btree.NewWithFreeListG(degree, less, btree.NewFreeListG[*Entry](freeListSize)),
		next: math.MaxInt64,
	}
}

// less orders timers by deadline, then by start sequence.
func less(a, b *Entry) bool {
	if a.deadline != b.deadline {
		return a.deadline < b.deadline
	}
	return a.seq < b.seq
}

// Start (re)arms e to fire timeout ns after now and then, if repeat is not 0,
// every repeat ns.
//
// If e is active or collected as due by a run in progress, it is stopped
// first, so a due timer restarted from a callback does not fire in that run.
// The deadline is now+timeout, saturating at math.MaxInt64. Every Start takes
// a fresh sequence, so e goes behind the timers already waiting for the same
// deadline. A negative timeout or repeat returns ErrNegative and leaves e
// unchanged. If e was last started on another Heap, it is stopped there.
func (h *Heap) Start(e *Entry, now, timeout, repeat int64) error {
	if timeout < 0 || repeat < 0 {
		return ErrNegative
	}
	h.start(e, now, timeout, repeat)
	if debugVerify {
		h.mustVerify()
	}
	return nil
}

// start is Start with valid arguments.
func (h *Heap) start(e *Entry, now, timeout, repeat int64) {
	if e.state != stateIdle {
		e.heap.stop(e)
	}
	deadline := now + timeout
	if now > 0 && timeout > math.MaxInt64-now {
		deadline = math.MaxInt64
	}
	e.deadline = deadline
	e.seq = h.seq
	h.seq++
	e.repeat = repeat
	e.heap = h
	e.started = true
	h.insert(e)
}

// insert puts e into the tree with its current key.
func (h *Heap) insert(e *Entry) {
	e.state = stateTree
	if _, replaced := h.tree.ReplaceOrInsert(e); replaced {
		panic("timers: duplicate (deadline, sequence) key")
	}
	h.next = min(h.next, e.deadline)
}

// findNext sets next from the tree after a removal.
func (h *Heap) findNext() {
	h.next = math.MaxInt64
	if e, ok := h.tree.Min(); ok {
		h.next = e.deadline
	}
}

// Stop stops e: it removes e from the tree, or from the ready list of a run
// in progress (then its Fn is not called). It reports whether e was active
// (in the tree). Stopping a stopped or never-started timer is a no-op, and so
// is stopping a timer that was last started on another Heap.
func (h *Heap) Stop(e *Entry) bool {
	if e.heap != h || e.state == stateIdle {
		return false
	}
	wasActive := e.state == stateTree
	h.stop(e)
	if debugVerify {
		h.mustVerify()
	}
	return wasActive
}

// stop makes e idle; e belongs to h and is not idle.
func (h *Heap) stop(e *Entry) {
	if e.state == stateTree {
		if _, ok := h.tree.Delete(e); !ok {
			panic("timers: active timer missing from the tree")
		}
		if e.deadline == h.next {
			h.findNext()
		}
	}
	// A due timer stays in the ready list; the run skips it as it is idle.
	e.state = stateIdle
}

// Again restarts a repeating timer, like uv_timer_again: it returns
// ErrNeverStarted if e was never started; if e's repeat is not 0 it calls
// Start(e, now, repeat, repeat); if the repeat is 0 it does nothing.
func (h *Heap) Again(e *Entry, now int64) error {
	if !e.started {
		return ErrNeverStarted
	}
	if e.repeat != 0 {
		h.start(e, now, e.repeat, e.repeat)
		if debugVerify {
			h.mustVerify()
		}
	}
	return nil
}

// Next returns the earliest deadline of the active timers; ok is false when
// there are none.
func (h *Heap) Next() (deadline int64, ok bool) {
	if h.tree.Len() == 0 {
		return 0, false
	}
	return h.next, true
}

// Len returns the number of active timers (in the tree).
func (h *Heap) Len() int { return h.tree.Len() }

// RunExpired fires every timer due at now (deadline <= now), in (deadline,
// sequence) order, and returns how many Fn calls it made.
//
// It first collects all due timers, removing them from the tree (they become
// inactive). Then, for each collected timer that is still collected (a
// callback may stop or restart one that has not run yet: it is skipped), it
// re-arms the timer if its repeat is not 0, as Start(e, now, repeat, repeat),
// and then calls its Fn; the callback may stop the re-armed timer. A timer
// started during the run, even with a zero timeout, waits for the next run.
//
// If an Fn panics, the panic propagates; the collected timers that have not
// run yet go back into the tree with their old keys (so they are due at the
// next run) and the heap stays consistent. RunExpired called from an Fn of
// the same heap does nothing and returns 0.
func (h *Heap) RunExpired(now int64) int {
	if now < h.next {
		return 0 // nothing due: the common case, inlined
	}
	return h.runExpired(now)
}

// runExpired is RunExpired when a timer may be due.
func (h *Heap) runExpired(now int64) int {
	if h.running {
		return 0
	}
	for {
		e, ok := h.tree.Min()
		if !ok || e.deadline > now {
			h.next = math.MaxInt64
			if ok {
				h.next = e.deadline
			}
			break
		}
		h.tree.DeleteMin()
		e.state = stateDue
		h.ready = append(h.ready, e)
	}
	if len(h.ready) == 0 {
		return 0
	}
	h.running = true
	defer h.endRun()
	n := 0
	for h.pos < len(h.ready) {
		e := h.ready[h.pos]
		h.pos++
		if e.state != stateDue || e.heap != h {
			continue // stopped or restarted by an earlier callback
		}
		e.state = stateIdle
		if e.repeat != 0 {
			h.start(e, now, e.repeat, e.repeat)
		}
		if e.Fn != nil {
			n++
			e.Fn()
		} else if e.Handler != nil {
			n++
			e.Handler.OnTimer()
		}
	}
	return n
}

// endRun finishes a run, normal or panicking: collected timers that did not
// run go back into the tree with their old keys, and the ready list is
// cleared for reuse.
func (h *Heap) endRun() {
	for _, e := range h.ready[h.pos:] {
		if e.state == stateDue && e.heap == h {
			h.insert(e)
		}
	}
	if cap(h.ready) > maxKeptReady {
		h.ready = nil
	} else {
		clear(h.ready)
		h.ready = h.ready[:0]
	}
	h.pos = 0
	h.running = false
	if debugVerify {
		h.mustVerify()
	}
}

// verify checks the heap invariants: the tree is strictly ordered by
// (deadline, sequence) and holds only active timers of this heap with
// sequences already handed out; the ready list is empty between runs, and
// during a run only its unvisited part holds due timers, each once.
func (h *Heap) verify() error {
	var err error
	var prev *Entry
	n := 0
	h.tree.Ascend(func(e *Entry) bool {
		switch {
		case e.state != stateTree:
			err = fmt.Errorf("timer in the tree in state %d", e.state)
		case e.heap != h:
			err = errors.New("timer in the tree of another heap")
		case e.seq >= h.seq:
			err = fmt.Errorf("sequence %d not handed out yet (next %d)", e.seq, h.seq)
		case !e.started:
			err = errors.New("timer in the tree was never started")
		case prev != nil && !less(prev, e):
			err = fmt.Errorf("tree out of order: (%d, %d) before (%d, %d)",
				prev.deadline, prev.seq, e.deadline, e.seq)
		}
		prev = e
		n++
		return err == nil
	})
	if err != nil {
		return err
	}
	if n != h.tree.Len() {
		return fmt.Errorf("tree holds %d timers, Len says %d", n, h.tree.Len())
	}
	want := int64(math.MaxInt64)
	if e, ok := h.tree.Min(); ok {
		want = e.deadline
	}
	if h.next != want {
		return fmt.Errorf("cached next deadline %d, the tree's earliest is %d", h.next, want)
	}
	if !h.running {
		if len(h.ready) != 0 || h.pos != 0 {
			return fmt.Errorf("ready list of %d (pos %d) outside a run", len(h.ready), h.pos)
		}
		return nil
	}
	if h.pos > len(h.ready) {
		return fmt.Errorf("ready position %d past its length %d", h.pos, len(h.ready))
	}
	seen := make(map[*Entry]bool)
	for i, e := range h.ready {
		if seen[e] {
			return fmt.Errorf("timer collected twice (ready index %d)", i)
		}
		seen[e] = true
		if e.state != stateDue || e.heap != h {
			continue // stopped, restarted, or moved to another heap
		}
		if i < h.pos {
			return fmt.Errorf("visited ready index %d still due", i)
		}
	}
	return nil
}

// mustVerify panics when an invariant is broken.
func (h *Heap) mustVerify() {
	if err := h.verify(); err != nil {
		panic("timers: broken invariant: " + err.Error())
	}
}

// noCopy lets go vet's copylocks check report copies of an Entry.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
