package queue_test

import (
	"testing"

	"github.com/uvgo/uvgo/internal/queue"
)

func TestSlabDistinctZeroed(t *testing.T) {
	var s queue.Slab[item]
	seen := make(map[*item]bool)
	for i := range 3*queue.SlabSize + 1 {
		p := s.New()
		if seen[p] {
			t.Fatalf("object %d handed out twice", i)
		}
		seen[p] = true
		if *p != (item{}) {
			t.Fatalf("object %d is not zeroed: %v", i, *p)
		}
		*p = mk(i) // scribble, to catch a reuse
	}
}

func TestSlabOneAllocationPerArray(t *testing.T) {
	var s queue.Slab[item]
	allocs := testing.AllocsPerRun(10, func() {
		for range queue.SlabSize {
			s.New()
		}
	})
	if allocs != 1 {
		t.Fatalf("%v allocations per %d objects; want 1", allocs, queue.SlabSize)
	}
}
