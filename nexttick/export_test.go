package nexttick

// RingSlots returns the ring's backing array, its head index and its length,
// so tests can check that slots outside the live window are zeroed.
func RingSlots(r *Ring) (buf []func(), head, n int) { return r.buf, r.head, r.n }
