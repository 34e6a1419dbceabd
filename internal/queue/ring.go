package queue

// Ring is a FIFO backed by a power-of-two circular buffer that grows (doubling)
// when full and keeps its storage when it empties, so in steady state Push and
// Pop allocate nothing. Popped slots are zeroed, so the garbage collector can
// free whatever the values referenced.
//
// The zero value is an empty ring ready to use. A Ring is not safe for
// concurrent use: one goroutine owns it (or a lock its owner holds guards it).
type Ring[T any] struct {
	buf  []T // len(buf) is 0 or a power of two; slots outside the live window are zero
	head int // index of the oldest element; 0 when buf is empty
	n    int // number of elements, 0 <= n <= len(buf)
}

// minRingSize is the capacity of a ring's first buffer.
const minRingSize = 8

// Push appends v at the back of the ring. It allocates only when the ring is
// full, doubling its capacity.
func (r *Ring[T]) Push(v T) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = v
	r.n++
}

// Pop removes and returns the value at the front of the ring. It returns the
// zero value and false if the ring is empty. The vacated slot is zeroed.
func (r *Ring[T]) Pop() (v T, ok bool) {
	if r.n == 0 {
		return v, false
	}
	p := &r.buf[r.head]
	v = *p
	*p = *new(T)
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	return v, true
}

// Front returns a pointer to the value at the front of the ring, or nil if the
// ring is empty. The value may be changed through it; the pointer is valid
// only until the next Push or Pop.
func (r *Ring[T]) Front() *T {
	if r.n == 0 {
		return nil
	}
	return &r.buf[r.head]
}

// Len returns the number of values in the ring.
func (r *Ring[T]) Len() int { return r.n }

// grow doubles the buffer (or makes the first one) and moves the elements to
// its front, oldest first.
func (r *Ring[T]) grow() {
	buf := make([]T, max(2*len(r.buf), minRingSize))
	k := copy(buf, r.buf[r.head:])
	copy(buf[k:], r.buf[:r.head])
	r.buf = buf
	r.head = 0
}
