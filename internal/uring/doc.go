// Package uring is a small io_uring ring over golang.org/x/sys/unix: io_uring_setup, the
// mmap'd submission and completion rings, io_uring_enter and io_uring_register. It knows
// submission queue entries (SQE) and completion queue entries (CQE), nothing of what they
// carry: the poller and the loop fill them in.
//
// # Layout
//
// Setup maps two regions shared with the kernel: the submission and completion rings in
// one mapping (head, tail, mask, flags and the index array; head, tail, mask, overflow and
// the CQE array), which needs IORING_FEAT_SINGLE_MMAP (Setup refuses a kernel without it,
// as without NODROP and EXT_ARG), and the SQE array. The index array is filled with the identity once, so SQE i is always
// submitted from slot i: the ring hands out SQEs in tail order and the kernel consumes them
// in the same order.
//
// Indices are free-running uint32 counters masked on use, so they wrap at 2^32 without a
// special case. The application owns the submission tail and the completion head; the kernel
// owns the submission head and the completion tail. Each side reads the other's index with an
// acquire load and publishes its own with a release store (sync/atomic, which is sequentially
// consistent and so at least as strong).
//
// # Concurrency
//
// A Ring belongs to one goroutine: none of its methods may be called concurrently. The kernel
// may bind a ring created with IORING_SETUP_SINGLE_ISSUER or IORING_SETUP_DEFER_TASKRUN to the
// OS thread that created it (io_uring_enter from another thread fails with EEXIST); a Go
// goroutine moves between threads unless it is locked to one, so ask for those flags only on
// a goroutine that runtime.LockOSThread keeps on one thread for the life of the ring.
//
// On systems other than Linux the package is empty.
package uring
