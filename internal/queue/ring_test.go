package queue_test

import (
	"math/rand/v2"
	"testing"

	"github.com/uvgo/uvgo/internal/queue"
)

// item is a value with a pointer in it, so that zeroing matters to the garbage collector.
type item struct {
	id  int
	ref *int
}

func mk(id int) item { return item{id: id, ref: new(int)} }

func isZeroItem(v item) bool { return v == item{} }

// verify fails the test if r's invariants are broken.
func verify(t *testing.T, r *queue.Ring[item]) {
	t.Helper()
	if msg := r.Verify(isZeroItem); msg != "" {
		buf, head, n := queue.RingSlots(r)
		t.Fatalf("%s (head %d, len %d, cap %d)", msg, head, n, len(buf))
	}
}

func TestRingEmpty(t *testing.T) {
	var r queue.Ring[item]
	if v, ok := r.Pop(); ok || v != (item{}) {
		t.Fatalf("Pop on a zero Ring = %v, %v; want zero, false", v, ok)
	}
	if r.Front() != nil {
		t.Fatal("Front on a zero Ring is not nil")
	}
	r.Push(mk(1))
	r.Pop()
	if v, ok := r.Pop(); ok || v != (item{}) {
		t.Fatalf("Pop on an emptied Ring = %v, %v; want zero, false", v, ok)
	}
	if r.Len() != 0 || r.Front() != nil {
		t.Fatalf("emptied Ring: Len = %d, Front = %v; want 0, nil", r.Len(), r.Front())
	}
	verify(t, &r)
}

func TestRingFIFOAcrossGrowthAndWrap(t *testing.T) {
	tests := []struct {
		name        string
		prefill     int // pushed and popped first, to move head off zero
		push, pop   int // per round
		rounds      int
		wantMaxSize int // the buffer never exceeds this
	}{
		{name: "grow from empty", push: 100, pop: 100, rounds: 1, wantMaxSize: 128},
		{name: "wrap without growth", prefill: 5, push: 6, pop: 6, rounds: 50, wantMaxSize: 8},
		{name: "grow while wrapped", prefill: 6, push: 3, pop: 1, rounds: 40, wantMaxSize: 128},
		{name: "exactly full", push: 8, pop: 8, rounds: 10, wantMaxSize: 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r queue.Ring[item]
			for range tt.prefill {
				r.Push(mk(-1))
			}
			for range tt.prefill {
				r.Pop()
			}
			next, want := 0, 0
			pop := func() {
				if f := r.Front(); f == nil || f.id != want {
					t.Fatalf("Front = %v; want id %d", f, want)
				}
				v, ok := r.Pop()
				if !ok || v.id != want {
					t.Fatalf("Pop = %v, %v; want id %d", v, ok, want)
				}
				want++
			}
			for range tt.rounds {
				for range tt.push {
					r.Push(mk(next))
					next++
				}
				for range tt.pop {
					pop()
				}
				verify(t, &r)
				if r.Len() != next-want {
					t.Fatalf("Len = %d; want %d", r.Len(), next-want)
				}
			}
			for r.Len() > 0 {
				pop()
			}
			verify(t, &r)
			if buf, _, _ := queue.RingSlots(&r); len(buf) > tt.wantMaxSize {
				t.Errorf("buffer grew to %d; want at most %d", len(buf), tt.wantMaxSize)
			}
		})
	}
}

func TestRingFrontChangesInPlace(t *testing.T) {
	var r queue.Ring[item]
	r.Push(mk(1))
	r.Push(mk(2))
	r.Front().id = 10
	if v, _ := r.Pop(); v.id != 10 {
		t.Fatalf("popped id %d; want 10", v.id)
	}
	if f := r.Front(); f == nil || f.id != 2 {
		t.Fatalf("Front = %v; want id 2", f)
	}
}

func TestRingPopZeroesSlot(t *testing.T) {
	var r queue.Ring[item]
	for i := range 3 {
		r.Push(mk(i))
	}
	r.Pop()
	buf, head, _ := queue.RingSlots(&r)
	if buf[(head+len(buf)-1)%len(buf)] != (item{}) {
		t.Fatal("popped slot still holds the value")
	}
	verify(t, &r)
}

func TestRingSteadyStateAllocs(t *testing.T) {
	var r queue.Ring[func()]
	fn := func() {}
	r.Push(fn) // allocate the first buffer
	r.Pop()
	allocs := testing.AllocsPerRun(1000, func() {
		r.Push(fn)
		r.Push(fn)
		r.Pop()
		r.Pop()
	})
	if allocs != 0 {
		t.Fatalf("Push+Pop allocates %v times per run; want 0", allocs)
	}
}

// ringModel runs ops against a Ring and a slice: each byte pushes (even), pops (odd, low bit
// of the next bit clear) or edits the front in place.
func ringModel(t *testing.T, ops []byte) {
	var r queue.Ring[item]
	var model []item
	next := 0
	for _, op := range ops {
		switch {
		case op%2 == 0:
			for range 1 + int(op>>5) { // bursts of 1 to 8, to grow and wrap
				v := mk(next)
				next++
				r.Push(v)
				model = append(model, v)
			}
		case op&2 == 0:
			v, ok := r.Pop()
			if ok != (len(model) > 0) {
				t.Fatalf("Pop ok = %v with model length %d", ok, len(model))
			}
			if ok {
				if v != model[0] {
					t.Fatalf("popped %v; want %v", v, model[0])
				}
				model = model[1:]
			}
		default:
			f := r.Front()
			if (f != nil) != (len(model) > 0) {
				t.Fatalf("Front = %v with model length %d", f, len(model))
			}
			if f != nil {
				if *f != model[0] {
					t.Fatalf("Front = %v; want %v", *f, model[0])
				}
				f.id = -f.id - 1
				model[0].id = f.id
			}
		}
		if r.Len() != len(model) {
			t.Fatalf("Len = %d; want %d", r.Len(), len(model))
		}
		verify(t, &r)
	}
	for _, want := range model {
		if v, ok := r.Pop(); !ok || v != want {
			t.Fatalf("draining: Pop = %v, %v; want %v", v, ok, want)
		}
	}
}

// TestRingModel checks random operation sequences against a slice.
func TestRingModel(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 0))
		ops := make([]byte, 3000)
		for i := range ops {
			ops[i] = byte(rng.Uint32())
		}
		ringModel(t, ops)
	}
}

// FuzzRing checks operation sequences against a slice.
func FuzzRing(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 3, 1, 1, 1})
	f.Add([]byte{0xe0, 0xe0, 1, 3, 0xe0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, ops []byte) { ringModel(t, ops) })
}

func BenchmarkRingPushPop(b *testing.B) {
	var r queue.Ring[func()]
	fn := func() {}
	b.ReportAllocs()
	for b.Loop() {
		r.Push(fn)
		r.Pop()
	}
}

func BenchmarkRingBurst1024(b *testing.B) {
	var r queue.Ring[func()]
	fn := func() {}
	b.ReportAllocs()
	for b.Loop() {
		for range 1024 {
			r.Push(fn)
		}
		for range 1024 {
			r.Pop()
		}
	}
}
