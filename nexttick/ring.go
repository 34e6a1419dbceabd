package nexttick

// Ring is a FIFO of callbacks backed by a power-of-two circular buffer that
// grows (doubling) when full and keeps its storage when it empties, so in
// steady state Push and Pop allocate nothing. Popped slots are zeroed so the
// garbage collector can free whatever the callbacks captured.
//
// The zero value is an empty ring ready to use. A Ring is not safe for
// concurrent use: one goroutine (the loop goroutine) owns it.
type Ring struct {
	buf  []func() // len(buf) is 0 or a power of two; slots outside the live window are nil
	head int      // index of the oldest element; 0 when buf is empty
	n    int      // number of elements, 0 <= n <= len(buf)
}

// minRingSize is the capacity of a ring's first buffer.
const minRingSize = 8

// Push appends fn at the back of the ring. It allocates only when the ring is
// full, doubling its capacity.
func (r *Ring) Push(fn func()) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = fn
	r.n++
}

// Pop removes and returns the callback at the front of the ring. It returns
// nil, false if the ring is empty. The vacated slot is zeroed.
func (r *Ring) Pop() (fn func(), ok bool) {
	if r.n == 0 {
		return nil, false
	}
	fn = r.buf[r.head]
	r.buf[r.head] = nil
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	return fn, true
}

// Len returns the number of callbacks in the ring.
func (r *Ring) Len() int { return r.n }

// grow doubles the buffer (or makes the first one) and moves the elements to
// its front, oldest first.
func (r *Ring) grow() {
	size := 2 * len(r.buf)
	if size == 0 {
		size = minRingSize
	}
	buf := make([]func(), size)
	k := copy(buf, r.buf[r.head:])
	copy(buf[k:], r.buf[:r.head])
	r.buf = buf
	r.head = 0
}
