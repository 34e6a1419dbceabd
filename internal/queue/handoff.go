package queue

import (
	"sync"
	"sync/atomic"
)

// Handoff carries values from any goroutine to one owner goroutine (the loop),
// which takes them in batches: Put appends under a mutex; Take swaps the
// appended slice for the batch taken last time, and the owner hands the values
// over one by one with Next, without the lock, so values put meanwhile wait for
// the next batch. Both slices are reused, so in steady state neither side
// allocates. Run is the same in one call, with a callback.
//
// Put, Len and Close are safe from any goroutine; Take, Next, End and Run are
// for the owner goroutine only. The zero value is ready to use; a Handoff must
// not be copied after first use.
type Handoff[T any] struct {
	mu     sync.Mutex
	in     []T  // put and not yet taken by Run, oldest first; guarded by mu
	closed bool // guarded by mu

	n     atomic.Int64 // values put and not yet handed over by Next
	batch []T          // the batch taken; owner goroutine only
	pos   int          // batch[pos:] not handed over yet; owner goroutine only
}

// Put appends v. It reports whether v is the first value put since the owner
// last took the values (the owner needs a wake-up for it; later values ride on
// that one), and false for ok, dropping v, after Close.
func (h *Handoff[T]) Put(v T) (first, ok bool) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return false, false
	}
	h.in = append(h.in, v)
	first = len(h.in) == 1
	h.n.Add(1)
	h.mu.Unlock()
	return first, true
}

// Len returns how many values were put and not yet handed over.
func (h *Handoff[T]) Len() int { return int(h.n.Load()) }

// Run calls fn with each value put before it began, in the order they were
// put, and returns how many it handed over. Values put meanwhile, also by fn,
// wait for the next Run.
//
// If fn panics, the panic propagates; the value fn was called with counts as
// handed over, and the rest of the batch goes back in front of the values put
// meanwhile, in order, for the next Run. Then requeued (if not nil) is called,
// so that the owner can make sure to run again (it wakes itself: no Put will).
//
// Run is for the owner goroutine only and is not re-entrant.
func (h *Handoff[T]) Run(fn func(T), requeued func()) int {
	h.Take()
	n := 0
	defer func() {
		if h.End() && requeued != nil {
			requeued()
		}
	}()
	for v, ok := h.Next(); ok; v, ok = h.Next() {
		n++
		fn(v)
	}
	return n
}

// Take takes the values put so far as the batch that Next hands over; values
// put from now on wait for the next batch. Defer End right after it, so that a
// panic while a value is handled does not lose the rest of the batch:
//
//	h.Take()
//	defer func() {
//		if h.End() {
//			wake() // a panic cut the batch short: run again
//		}
//	}()
//	for v, ok := h.Next(); ok; v, ok = h.Next() {
//		handle(v)
//	}
func (h *Handoff[T]) Take() {
	h.mu.Lock()
	h.batch, h.in = h.in, h.batch[:0]
	h.mu.Unlock()
	h.pos = 0
}

// Next returns the next value of the batch, which counts as handed over from
// then on, or false when the batch is done.
func (h *Handoff[T]) Next() (v T, ok bool) {
	if h.pos == len(h.batch) {
		return v, false
	}
	v = h.batch[h.pos]
	h.pos++
	h.n.Add(-1)
	return v, true
}

// End finishes the batch. If Next did not hand over all of it (a panic cut it
// short), the rest goes back in front of the values put since Take, in order,
// for the next batch, and End returns true: the owner must make sure to run
// again, as no Put will wake it. After Close the rest is discarded.
func (h *Handoff[T]) End() (requeued bool) {
	if h.pos == len(h.batch) {
		clear(h.batch)
		return false
	}
	rest := h.batch[h.pos:len(h.batch):len(h.batch)]
	h.batch, h.pos = nil, 0 // rest's array now belongs to in
	h.mu.Lock()
	if requeued = !h.closed; requeued {
		h.in = append(rest, h.in...)
	} else {
		h.n.Add(-int64(len(rest)))
	}
	h.mu.Unlock()
	return requeued
}

// Close discards the values not yet taken and makes every later Put fail; a
// batch being handed over goes on, but what a panic would put back is
// discarded too. It is safe from any goroutine.
func (h *Handoff[T]) Close() {
	h.mu.Lock()
	h.closed = true
	h.n.Add(-int64(len(h.in)))
	h.in = nil
	h.mu.Unlock()
}
