package queue_test

import (
	"testing"

	"github.com/uvgo/uvgo/internal/queue"
)

func TestTableStableAndZero(t *testing.T) {
	var tb queue.Table[int64]
	if p := tb.Get(0); p != nil || tb.Load(5) != 0 || tb.Len() != 0 {
		t.Fatalf("empty table: Get(0) %v, Load(5) %d, Len %d", p, tb.Load(5), tb.Len())
	}
	if p := tb.Get(-1); p != nil {
		t.Fatal("Get(-1) is not nil")
	}
	first := tb.At(3)
	*first = 33
	far := tb.At(10 * queue.TableChunk) // skips chunks: they stay unallocated
	*far = 7
	if tb.At(3) != first || tb.Get(3) != first {
		t.Fatal("an element moved when the table grew")
	}
	if got := tb.Load(3); got != 33 {
		t.Fatalf("Load(3) = %d, want 33", got)
	}
	if tb.Get(5*queue.TableChunk) != nil {
		t.Fatal("a chunk that was never asked for is allocated")
	}
	if got := tb.Load(10*queue.TableChunk + 1); got != 0 {
		t.Fatalf("a fresh element reads %d", got)
	}
	if tb.Len() != 11*queue.TableChunk {
		t.Fatalf("Len %d, want %d", tb.Len(), 11*queue.TableChunk)
	}
	tb.Reset()
	if tb.Len() != 0 || tb.Get(3) != nil {
		t.Fatal("Reset kept something")
	}
}

// Growing a table allocates one chunk per TableChunk elements (and the chunk index); reading
// allocates nothing.
func TestTableAllocs(t *testing.T) {
	var tb queue.Table[uint64]
	tb.At(0)
	if n := testing.AllocsPerRun(100, func() {
		for i := range queue.TableChunk {
			*tb.At(i)++
			_ = tb.Load(i + queue.TableChunk)
		}
	}); n != 0 {
		t.Fatalf("%v allocations per pass over an allocated chunk", n)
	}
}

// FuzzTable checks At and Load against a map.
func FuzzTable(f *testing.F) {
	f.Add([]byte{0, 1, 2, 200, 7, 9})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var tb queue.Table[uint16]
		model := map[int]uint16{}
		for k, op := range ops {
			i := int(op) * 37 % (4 * queue.TableChunk)
			if k%3 == 0 {
				if got := tb.Load(i); got != model[i] {
					t.Fatalf("op %d: Load(%d) = %d, want %d", k, i, got, model[i])
				}
				continue
			}
			*tb.At(i) = uint16(k)
			model[i] = uint16(k)
		}
		for i, v := range model {
			if got := tb.Load(i); got != v {
				t.Fatalf("Load(%d) = %d, want %d", i, got, v)
			}
		}
	})
}
