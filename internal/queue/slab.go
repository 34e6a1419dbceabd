package queue

// Slab hands out zeroed objects carved from arrays of SlabSize, one allocation
// per array: code that makes an object per call (a Node-style Timeout or
// Immediate, a work item) costs the allocator and the garbage collector less
// with fewer, larger allocations. The price is that an array stays in memory
// while any of its objects is referenced (at most SlabSize-1 objects kept alive
// by one). Objects are never returned to a Slab; the garbage collector frees
// them.
//
// The zero value is ready to use. A Slab is not safe for concurrent use: one
// goroutine owns it.
type Slab[T any] struct{ free []T }

// SlabSize is how many objects one allocation of a Slab makes.
const SlabSize = 64

// New returns a pointer to a zeroed T.
func (s *Slab[T]) New() *T {
	if len(s.free) == 0 {
		s.free = make([]T, SlabSize)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}
