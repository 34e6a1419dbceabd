// Package immediate is the check-phase queue of Node's setImmediate, with
// snapshot semantics: a Run runs the immediates queued before it started, and
// those their callbacks queue wait for the next Run.
//
// The queue is an intrusive doubly linked list threaded through the
// Immediates themselves, so Push and Remove are O(1) and allocate nothing.
// Queue keeps two lists and an index saying which one Push appends to. Run
// takes its snapshot in O(1) by flipping the index: the list that was being
// appended to becomes the running list and the other (empty) one takes new
// pushes. Each Immediate points at the list it is in, so Remove finds it
// whether it is waiting or later in the running snapshot.
//
// If a callback panics, the rest of the snapshot stays in the running list
// (Node's "outstanding queue"): the next Run runs it, and only it, before
// taking a new snapshot. Element and ref counts are kept per list and updated
// on every link and unlink, so they stay right through a panic.
//
// The package makes no system calls and knows no loop; it is not safe for
// concurrent use.
package immediate

import "fmt"

// Immediate is one queued callback, Node's setImmediate object. The loop
// allocates one per SetImmediate and hands it to the user as the handle for
// ClearImmediate; it may be pushed again after it has run or been removed.
//
// An Immediate belongs to the loop goroutine, like the Queue it is pushed on.
type Immediate struct {
	// Fn is called by Queue.Run. Set it before Push; it must not be nil.
	Fn func()

	prev, next *Immediate // links in *in; nil when not queued
	in         *list      // the list holding it, one of its Queue's two; nil when not queued
	ref        bool       // counted in its list's refs; false when not queued
}

// Queued reports whether im is waiting in a Queue or in the snapshot a Run is
// running (or left by a panic). An Immediate is unlinked just before its Fn
// is called, so inside its own callback it is not queued.
func (im *Immediate) Queued() bool { return im.in != nil }

// HasRef reports whether im is queued and ref'd, that is whether it keeps the
// loop alive. As in Node, it is false once im has run or been removed.
func (im *Immediate) HasRef() bool { return im.ref }

// list is a FIFO of Immediates with its counts.
type list struct {
	head, tail *Immediate
	n          int // number of Immediates in the list
	refs       int // how many of them are ref'd
}

// pushBack appends im, which must not be queued, with the given ref flag.
func (l *list) pushBack(im *Immediate, ref bool) {
	im.in = l
	im.ref = ref
	im.prev = l.tail
	if l.tail == nil {
		l.head = im
	} else {
		l.tail.next = im
	}
	l.tail = im
	l.n++
	if ref {
		l.refs++
	}
}

// remove unlinks im, which must be in l, and clears its links and flags.
func (l *list) remove(im *Immediate) {
	if im.prev == nil {
		l.head = im.next
	} else {
		im.prev.next = im.next
	}
	if im.next == nil {
		l.tail = im.prev
	} else {
		im.next.prev = im.prev
	}
	l.n--
	if im.ref {
		l.refs--
	}
	im.prev, im.next, im.in, im.ref = nil, nil, nil, false
}

// verifyQueue turns on an invariant check after every operation that changes
// a Queue; tests call verify directly.
const verifyQueue = false

// Queue is the check-phase queue of Immediates with snapshot semantics. The
// zero value is an empty queue ready to use. A Queue must not be copied after
// first use (its Immediates point into it).
//
// Queue is not safe for concurrent use: it and the Immediates pushed on it
// belong to the loop goroutine.
type Queue struct {
	lists   [2]list // lists[cur] takes pushes; lists[cur^1] is the running snapshot, or the outstanding rest of one after a panic
	cur     uint8   // 0 or 1
	running bool    // a Run is in progress
}

// owns reports whether im is queued on q.
func (q *Queue) owns(im *Immediate) bool {
	return im.in != nil && (im.in == &q.lists[0] || im.in == &q.lists[1])
}

// Push appends im to the queue, ref'd or not. If im is already queued (on
// this or another Queue) Push does nothing. Pushed while Run is running, im
// waits for the next Run.
func (q *Queue) Push(im *Immediate, ref bool) {
	if im.in != nil {
		return
	}
	q.lists[q.cur].pushBack(im, ref)
	if verifyQueue {
		q.mustVerify()
	}
}

// Remove drops im if it is queued on q: waiting, or later in the snapshot that
// Run is running now. It reports whether im was queued. Removing the
// Immediate whose Fn is running has no effect and returns false, since Run
// unlinks it before calling Fn.
func (q *Queue) Remove(im *Immediate) bool {
	if !q.owns(im) {
		return false
	}
	im.in.remove(im)
	if verifyQueue {
		q.mustVerify()
	}
	return true
}

// Clear drops every queued Immediate, waiting or outstanding, as Remove would, and returns
// how many it dropped. The loop calls it when it closes.
func (q *Queue) Clear() int {
	n := 0
	for i := range q.lists {
		for l := &q.lists[i]; l.head != nil; n++ {
			l.remove(l.head)
		}
	}
	if verifyQueue {
		q.mustVerify()
	}
	return n
}

// Len returns the number of queued Immediates: those waiting plus those of
// the running (or outstanding) snapshot not yet run.
func (q *Queue) Len() int { return q.lists[0].n + q.lists[1].n }

// RefCount returns how many of the queued Immediates are ref'd. While it is
// not zero the immediates keep the loop alive.
func (q *Queue) RefCount() int { return q.lists[0].refs + q.lists[1].refs }

// Outstanding returns how many Immediates of the snapshot being run, or of
// one interrupted by a panic, have not run yet. After a panic the next Run
// runs these, and only these, as Node does with its outstanding queue; a loop
// that recovers from the panic can call Run again while Outstanding is not
// zero to finish the check phase, as Node does.
func (q *Queue) Outstanding() int { return q.lists[q.cur^1].n }

// SetRef is Node's immediate.ref() and unref(): it marks im ref'd or not and
// updates RefCount. If im is not queued on q it does nothing, as Node ignores
// ref() and unref() on an immediate that has run or been cleared.
func (q *Queue) SetRef(im *Immediate, ref bool) {
	if !q.owns(im) || im.ref == ref {
		return
	}
	im.ref = ref
	if ref {
		im.in.refs++
	} else {
		im.in.refs--
	}
	if verifyQueue {
		q.mustVerify()
	}
}

// Run runs the immediates queued before it started. It takes the snapshot
// (unless a panic left one outstanding, which it runs instead), then for each
// Immediate still in it, in order, unlinks it, calls its Fn, then calls after
// (the loop passes its tick and microtask drain; after may be nil). Immediates
// pushed meanwhile wait for the next Run; those removed meanwhile do not run.
// It returns how many ran, and allocates nothing.
//
// Run is not re-entrant: called from Fn or after, it returns 0 at once.
//
// If Fn or after panics, the panic propagates; the Immediate whose Fn was
// called counts as run, and the rest of the snapshot stays outstanding, ahead
// of everything pushed meanwhile: the next Run runs it first, and only it (as
// Node's processImmediate does with its outstanding queue); the Run after that
// takes a new snapshot. Len, RefCount and Outstanding count it throughout.
func (q *Queue) Run(after func()) int {
	if after == nil {
		return q.RunEach(nil)
	}
	return q.RunEach(func(*Immediate) { after() })
}

// RunEach is Run with an after that is told which Immediate just ran (its Fn
// is still set), so that the caller can name the callback, as the loop's
// long-task reports do.
func (q *Queue) RunEach(after func(*Immediate)) int {
	if q.running {
		return 0
	}
	run := &q.lists[q.cur^1]
	if run.head == nil {
		q.cur ^= 1 // the waiting list becomes the snapshot; pushes go to the empty one
		run = &q.lists[q.cur^1]
		if run.head == nil {
			return 0
		}
	}
	q.running = true
	defer q.endRun()
	ran := 0
	for run.head != nil {
		im := run.head
		run.remove(im)
		ran++
		im.Fn()
		if after != nil {
			after(im)
		}
	}
	return ran
}

// endRun clears the running flag, also when a callback panics.
func (q *Queue) endRun() {
	q.running = false
	if verifyQueue {
		q.mustVerify()
	}
}

// mustVerify panics with verify's error, if any.
func (q *Queue) mustVerify() {
	if err := q.verify(); err != nil {
		panic(err)
	}
}

// verify checks the links and counts of both lists.
func (q *Queue) verify() error {
	if q.cur > 1 {
		return fmt.Errorf("immediate: list index %d", q.cur)
	}
	for i := range q.lists {
		l := &q.lists[i]
		n, refs := 0, 0
		var prev *Immediate
		for im := l.head; im != nil; im = im.next {
			if im.in != l {
				return fmt.Errorf("immediate: list %d: element %d points at another list", i, n)
			}
			if im.prev != prev {
				return fmt.Errorf("immediate: list %d: element %d has a broken prev link", i, n)
			}
			n++
			if im.ref {
				refs++
			}
			prev = im
		}
		if l.tail != prev {
			return fmt.Errorf("immediate: list %d: tail is not the last element", i)
		}
		if n != l.n || refs != l.refs {
			return fmt.Errorf("immediate: list %d: counts n=%d refs=%d, want n=%d refs=%d", i, l.n, l.refs, n, refs)
		}
	}
	return nil
}
