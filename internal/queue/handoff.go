package queue

import (
	"sync"
	"sync/atomic"
)

// Handoff carries values from any goroutine to one owner goroutine (the loop),
// which takes them in batches: Put appends under a mutex, Run swaps the
// appended slice for the batch it ran last time and runs the values without
// the lock, so values put meanwhile wait for the next Run. Both slices are
// reused, so in steady state neither side allocates.
//
// Put, Len and Close are safe from any goroutine; Run is for the owner
// goroutine only. The zero value is ready to use; a Handoff must not be copied
// after first use.
type Handoff[T any] struct {
	mu     sync.Mutex
	in     []T  // put and not yet taken by Run, oldest first; guarded by mu
	closed bool // guarded by mu

	n     atomic.Int64 // values put and not yet handed to Run's fn
	batch []T          // the batch Run is running; owner goroutine only
}

// Put appends v. It reports whether v is the first value put since the last
// Run took the values (the owner needs a wake-up for it; later values ride on
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

// Len returns how many values were put and not yet handed to Run's fn.
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
	h.mu.Lock()
	h.batch, h.in = h.in, h.batch[:0]
	h.mu.Unlock()
	i := 0
	defer func() {
		if i == len(h.batch) {
			clear(h.batch)
			return
		}
		rest := h.batch[i:len(h.batch):len(h.batch)]
		h.batch = nil // rest's array now belongs to in
		h.mu.Lock()
		if h.closed {
			h.n.Add(-int64(len(rest)))
		} else {
			h.in = append(rest, h.in...)
		}
		h.mu.Unlock()
		if requeued != nil {
			requeued()
		}
	}()
	for i < len(h.batch) {
		v := h.batch[i]
		i++
		h.n.Add(-1)
		fn(v)
	}
	return i
}

// Close discards the values not yet taken and makes every later Put fail; a
// batch that Run is running goes on, but what a panic would put back is
// discarded too. It is safe from any goroutine.
func (h *Handoff[T]) Close() {
	h.mu.Lock()
	h.closed = true
	h.n.Add(-int64(len(h.in)))
	h.in = nil
	h.mu.Unlock()
}
