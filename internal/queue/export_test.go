package queue

// RingSlots returns the ring's backing array, its head index and its length,
// so tests can check that slots outside the live window are zeroed.
func RingSlots[T any](r *Ring[T]) (buf []T, head, n int) { return r.buf, r.head, r.n }

// Verify checks the ring's invariants: a power-of-two (or empty) buffer, a head
// and length inside it, and zero slots outside the live window. isZero tells
// a zero T.
func (r *Ring[T]) Verify(isZero func(T) bool) string {
	size := len(r.buf)
	switch {
	case size&(size-1) != 0:
		return "buffer length is not a power of two"
	case r.n < 0 || r.n > size:
		return "length outside the buffer"
	case size == 0 && r.head != 0, size > 0 && (r.head < 0 || r.head >= size):
		return "head outside the buffer"
	}
	for i := r.n; i < size; i++ {
		if !isZero(r.buf[(r.head+i)&(size-1)]) {
			return "a slot outside the live window is not zeroed"
		}
	}
	return ""
}
