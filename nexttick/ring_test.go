package nexttick_test

import (
	"math/rand/v2"
	"testing"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/nexttick"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tagged returns a callback that appends id to *log when called.
func tagged(log *[]int, id int) func() { return func() { *log = append(*log, id) } }

// checkZeroed fails the test if a slot outside the ring's live window is not nil.
func checkZeroed(t *testing.T, r *nexttick.Ring) {
	t.Helper()
	buf, head, n := nexttick.RingSlots(r)
	if len(buf)&(len(buf)-1) != 0 {
		t.Fatalf("buffer length %d is not a power of two", len(buf))
	}
	for i := n; i < len(buf); i++ {
		if j := (head + i) % len(buf); buf[j] != nil {
			t.Fatalf("slot %d (head %d, len %d, cap %d) is not zeroed", j, head, n, len(buf))
		}
	}
}

func TestRingEmpty(t *testing.T) {
	var r nexttick.Ring
	if fn, ok := r.Pop(); ok || fn != nil {
		t.Fatalf("Pop on a zero Ring = %p, %v; want nil, false", fn, ok)
	}
	r.Push(func() {})
	r.Pop()
	if fn, ok := r.Pop(); ok || fn != nil {
		t.Fatalf("Pop on an emptied Ring = %p, %v; want nil, false", fn, ok)
	}
	if r.Len() != 0 {
		t.Fatalf("Len = %d; want 0", r.Len())
	}
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
			var r nexttick.Ring
			var log []int
			next, want := 0, 0
			for range tt.prefill {
				r.Push(tagged(&log, -1))
			}
			for range tt.prefill {
				fn, _ := r.Pop()
				fn()
			}
			log = log[:0]
			pop := func() {
				fn, ok := r.Pop()
				if !ok {
					t.Fatalf("Pop failed with %d elements expected", next-want)
				}
				fn()
				if got := log[len(log)-1]; got != want {
					t.Fatalf("popped %d; want %d", got, want)
				}
				want++
			}
			for range tt.rounds {
				for range tt.push {
					r.Push(tagged(&log, next))
					next++
				}
				for range tt.pop {
					pop()
				}
				checkZeroed(t, &r)
				if r.Len() != next-want {
					t.Fatalf("Len = %d; want %d", r.Len(), next-want)
				}
			}
			for r.Len() > 0 {
				pop()
			}
			checkZeroed(t, &r)
			if buf, _, _ := nexttick.RingSlots(&r); len(buf) > tt.wantMaxSize {
				t.Errorf("buffer grew to %d; want at most %d", len(buf), tt.wantMaxSize)
			}
		})
	}
}

// TestRingModel checks random Push/Pop sequences against a slice.
func TestRingModel(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 0))
		var r nexttick.Ring
		var model []int
		var log []int
		for i := range 5000 {
			if rng.IntN(100) < 55 {
				r.Push(tagged(&log, i))
				model = append(model, i)
			} else {
				fn, ok := r.Pop()
				if ok != (len(model) > 0) {
					t.Fatalf("seed %d: Pop ok = %v with model length %d", seed, ok, len(model))
				}
				if ok {
					fn()
					if got := log[len(log)-1]; got != model[0] {
						t.Fatalf("seed %d: popped %d; want %d", seed, got, model[0])
					}
					model = model[1:]
				}
			}
			if r.Len() != len(model) {
				t.Fatalf("seed %d: Len = %d; want %d", seed, r.Len(), len(model))
			}
		}
		checkZeroed(t, &r)
	}
}

func TestRingPopZeroesSlot(t *testing.T) {
	var r nexttick.Ring
	for range 3 {
		r.Push(func() {})
	}
	r.Pop()
	buf, head, _ := nexttick.RingSlots(&r)
	if buf[(head+len(buf)-1)%len(buf)] != nil {
		t.Fatal("popped slot still holds the callback")
	}
	checkZeroed(t, &r)
}

func TestRingSteadyStateAllocs(t *testing.T) {
	var r nexttick.Ring
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

func BenchmarkRingPushPop(b *testing.B) {
	var r nexttick.Ring
	fn := func() {}
	b.ReportAllocs()
	for b.Loop() {
		r.Push(fn)
		r.Pop()
	}
}

func BenchmarkRingBurst1024(b *testing.B) {
	var r nexttick.Ring
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
