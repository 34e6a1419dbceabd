package queue

// Table is an array indexed by small non-negative integers — file descriptors — that grows
// without moving what it holds: it is made of chunks of TableChunk elements, each allocated
// the first time an index in it is asked for with At, like the blocks the Go runtime carves
// its poll descriptors from. A slice that doubles copies itself and leaves each old array
// behind until the garbage collector runs, which a server whose heap is small may not do for
// a long time: a table of 16-byte entries for 5,000 descriptors then holds about twice the
// 80 kB it needs. A Table's growth copies only its chunk index (8 bytes per chunk), and an
// element's address is stable for the Table's life.
//
// The zero value is an empty table, ready to use. A Table is not safe for concurrent use:
// one goroutine owns it.
type Table[T any] struct{ chunks []*[TableChunk]T }

// TableChunk is how many elements one allocation of a Table holds.
const TableChunk = 1 << tableShift

const tableShift = 9

// At returns a pointer to element i, allocating its chunk (zeroed) if need be. i must not be
// negative.
func (t *Table[T]) At(i int) *T {
	c := i >> tableShift
	if c >= len(t.chunks) {
		t.chunks = append(t.chunks, make([]*[TableChunk]T, c+1-len(t.chunks))...)
	}
	if t.chunks[c] == nil {
		t.chunks[c] = new([TableChunk]T)
	}
	return &t.chunks[c][i&(TableChunk-1)]
}

// Get returns a pointer to element i, or nil if its chunk was never allocated (or i is
// negative): an element that was never asked for with At reads as T's zero value.
func (t *Table[T]) Get(i int) *T {
	chunks := t.chunks // a local, so that its length is loaded once
	if c := uint(i) >> tableShift; c < uint(len(chunks)) {
		if ch := chunks[c]; ch != nil {
			return &ch[uint(i)%TableChunk]
		}
	}
	return nil
}

// Load returns element i, or T's zero value if its chunk was never allocated. It is Get
// written out, so that the lookup on the loop's dispatch path tests for nil once.
func (t *Table[T]) Load(i int) T {
	chunks := t.chunks
	if c := uint(i) >> tableShift; c < uint(len(chunks)) {
		if ch := chunks[c]; ch != nil {
			return ch[uint(i)%TableChunk]
		}
	}
	var zero T
	return zero
}

// Len is one past the highest index whose chunk is allocated: every element at or above it
// reads as zero.
func (t *Table[T]) Len() int { return len(t.chunks) << tableShift }

// Reset forgets every element (and every chunk).
func (t *Table[T]) Reset() { t.chunks = nil }
