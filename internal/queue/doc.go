// Package queue holds the generic containers under the loop: Ring, a FIFO over
// a reused circular buffer; Slab, which carves objects from arrays; Table, an
// array indexed by file descriptor that grows in chunks, without copying; and
// Handoff, which carries values from any goroutine to the loop goroutine in
// batches.
//
// Ring, Slab and Table are not safe for concurrent use: one goroutine owns each.
// Handoff is the one type here meant for several goroutines; its doc says which
// methods are for whom.
//
// The package imports nothing of this module.
package queue
