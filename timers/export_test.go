package timers

// Verify checks the heap invariants; see verify.
func (h *Heap) Verify() error { return h.verify() }

// Seq returns e's start sequence.
func (e *Entry) Seq() uint64 { return e.seq }

// Due reports whether e is collected by a run in progress and has not run.
func (e *Entry) Due() bool { return e.state == stateDue }

// SetDeadlineUnsafe overwrites e's key in place, breaking the tree order, so
// that tests can check that Verify notices.
func (e *Entry) SetDeadlineUnsafe(d int64) { e.deadline = d }

// Verify checks the invariants of the lists; see verify.
func (ls *Lists[T]) Verify() error { return ls.verify() }

// BreakOrderUnsafe moves the last list of the heap ahead of the first without
// fixing the heap, so that tests can check that Verify notices. It needs two
// lists.
func (ls *Lists[T]) BreakOrderUnsafe() { ls.queue[len(ls.queue)-1].expiry = ls.queue[0].expiry - 1 }
