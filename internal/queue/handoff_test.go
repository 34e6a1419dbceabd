package queue_test

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/uvgo/uvgo/internal/queue"
)

// runAll runs h once, collecting what fn gets.
func runAll(h *queue.Handoff[int]) []int {
	var got []int
	h.Run(func(v int) { got = append(got, v) }, nil)
	return got
}

func TestHandoffBatches(t *testing.T) {
	var h queue.Handoff[int]
	if n := h.Run(func(int) { t.Fatal("fn called on an empty Handoff") }, nil); n != 0 {
		t.Fatalf("Run on an empty Handoff = %d; want 0", n)
	}
	for i := range 3 {
		first, ok := h.Put(i)
		if !ok || first != (i == 0) {
			t.Fatalf("Put(%d) = %v, %v; want %v, true", i, first, ok, i == 0)
		}
	}
	if h.Len() != 3 {
		t.Fatalf("Len = %d; want 3", h.Len())
	}
	var got []int
	n := h.Run(func(v int) {
		got = append(got, v)
		if want := 2 - v + min(v, 1); h.Len() != want { // the rest of the batch, and 10
			t.Errorf("Len inside fn(%d) = %d; want %d", v, h.Len(), want)
		}
		if v == 0 { // put meanwhile: waits for the next Run
			if first, _ := h.Put(10); !first {
				t.Error("the first Put after Run took the batch is not first")
			}
		}
	}, nil)
	if n != 3 || !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("Run = %d, ran %v; want 3, [0 1 2]", n, got)
	}
	if got := runAll(&h); !slices.Equal(got, []int{10}) {
		t.Fatalf("second Run ran %v; want [10]", got)
	}
	if h.Len() != 0 {
		t.Fatalf("Len = %d; want 0", h.Len())
	}
}

func TestHandoffPanicRequeuesInOrder(t *testing.T) {
	var h queue.Handoff[int]
	for i := range 5 {
		h.Put(i)
	}
	requeued := 0
	func() {
		defer func() {
			if v := recover(); v != "boom" {
				t.Fatalf("recovered %v; want boom", v)
			}
		}()
		h.Run(func(v int) {
			if v == 1 {
				h.Put(100) // put meanwhile: after the rest of the batch
			}
			if v == 2 {
				panic("boom")
			}
		}, func() { requeued++ })
	}()
	if requeued != 1 {
		t.Fatalf("requeued called %d times; want 1", requeued)
	}
	if h.Len() != 3 {
		t.Fatalf("Len after the panic = %d; want 3", h.Len())
	}
	if first, _ := h.Put(101); first {
		t.Error("Put after a requeue reports first")
	}
	if got := runAll(&h); !slices.Equal(got, []int{3, 4, 100, 101}) {
		t.Fatalf("Run after the panic ran %v; want [3 4 100 101]", got)
	}
}

func TestHandoffPanicOnLastValue(t *testing.T) {
	var h queue.Handoff[int]
	h.Put(1)
	func() {
		defer func() { recover() }()
		h.Run(func(int) { panic("boom") }, func() { t.Error("requeued called with nothing to requeue") })
	}()
	if h.Len() != 0 {
		t.Fatalf("Len = %d; want 0", h.Len())
	}
	if first, _ := h.Put(2); !first {
		t.Error("Put after a batch that ended in a panic is not first")
	}
}

func TestHandoffClose(t *testing.T) {
	var h queue.Handoff[int]
	h.Put(1)
	h.Put(2)
	h.Close()
	if h.Len() != 0 {
		t.Fatalf("Len after Close = %d; want 0", h.Len())
	}
	if first, ok := h.Put(3); first || ok {
		t.Fatalf("Put after Close = %v, %v; want false, false", first, ok)
	}
	if got := runAll(&h); len(got) != 0 {
		t.Fatalf("Run after Close ran %v", got)
	}
}

func TestHandoffCloseDuringPanickingRun(t *testing.T) {
	var h queue.Handoff[int]
	for i := range 3 {
		h.Put(i)
	}
	func() {
		defer func() { recover() }()
		h.Run(func(int) {
			h.Close()
			panic("boom")
		}, nil)
	}()
	if h.Len() != 0 {
		t.Fatalf("Len = %d; want 0", h.Len())
	}
	if got := runAll(&h); len(got) != 0 {
		t.Fatalf("Run after Close ran %v", got)
	}
}

// TestHandoffConcurrent puts from several goroutines while the owner runs: every value arrives
// once, and each producer's values arrive in the order it put them.
func TestHandoffConcurrent(t *testing.T) {
	const producers, each = 4, 2000
	var h queue.Handoff[[2]int]
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := range each {
				if _, ok := h.Put([2]int{p, i}); !ok {
					t.Error("Put failed")
					return
				}
			}
		})
	}
	next := make([]int, producers)
	total := 0
	fn := func(v [2]int) {
		if v[1] != next[v[0]] {
			t.Fatalf("producer %d: got %d; want %d", v[0], v[1], next[v[0]])
		}
		next[v[0]]++
		total++
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		h.Run(fn, nil)
	}
	h.Run(fn, nil)
	if total != producers*each || h.Len() != 0 {
		t.Fatalf("ran %d values, Len %d; want %d, 0", total, h.Len(), producers*each)
	}
}

func TestHandoffSteadyStateAllocs(t *testing.T) {
	var h queue.Handoff[func()]
	fn := func() {}
	call := func(f func()) { f() }
	for range 2 { // grow both slices
		h.Put(fn)
		h.Put(fn)
		h.Run(call, nil)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		h.Put(fn)
		h.Put(fn)
		h.Run(call, nil)
	})
	if allocs != 0 {
		t.Fatalf("Put+Run allocates %v times per run; want 0", allocs)
	}
}

// handoffModel runs ops against a Handoff and a slice. Each byte: low two bits 0 or 1 put
// (1 + op>>5) values, 2 runs with fn panicking at the (op>>2)-th value (none if past the
// end), 3 closes (rarely: only if op>>2 == 63).
func handoffModel(t *testing.T, ops []byte) {
	var h queue.Handoff[int]
	var model []int
	closed := false
	next := 0
	for _, op := range ops {
		switch op & 3 {
		case 0, 1:
			for range 1 + int(op>>5) {
				first, ok := h.Put(next)
				if ok == closed || ok && first != (len(model) == 0) {
					t.Fatalf("Put = %v, %v with model %v, closed %v", first, ok, model, closed)
				}
				if ok {
					model = append(model, next)
				}
				next++
			}
		case 2:
			at := int(op >> 2)
			var got []int
			requeued := false
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				h.Run(func(v int) {
					got = append(got, v)
					if len(got)-1 == at {
						panic("boom")
					}
				}, func() { requeued = true })
				return false
			}()
			want := model
			if at < len(model) {
				want = model[:at+1]
			}
			if !slices.Equal(got, want) || panicked != (at < len(model)) ||
				requeued != (at < len(model)-1) {
				t.Fatalf("Run(panic at %d) ran %v, panicked %v, requeued %v; model %v",
					at, got, panicked, requeued, model)
			}
			model = model[len(want):]
		case 3:
			if op>>2 == 63 {
				h.Close()
				closed = true
				model = nil
			}
		}
		if h.Len() != len(model) {
			t.Fatalf("Len = %d; want %d", h.Len(), len(model))
		}
	}
	if got := runAll(&h); !slices.Equal(got, model) && len(got)+len(model) > 0 {
		t.Fatalf("final Run ran %v; want %v", got, model)
	}
}

// TestHandoffModel checks random operation sequences against a slice.
func TestHandoffModel(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		ops := make([]byte, 2000)
		for i := range ops {
			ops[i] = byte(rng.Uint32())
			if ops[i] == 0xff && rng.IntN(4) != 0 { // close late, if at all
				ops[i] = 2
			}
		}
		handoffModel(t, ops)
	}
}

// FuzzHandoff checks operation sequences against a slice.
func FuzzHandoff(f *testing.F) {
	f.Add([]byte{0, 0, 0, 2, 1, 6, 0xe0, 10, 0xff, 0, 2})
	f.Add([]byte{0xe0, 0xe0, 0x0a, 0x06, 0x02, 0x02})
	f.Fuzz(func(t *testing.T, ops []byte) { handoffModel(t, ops) })
}

func BenchmarkHandoffPutRun(b *testing.B) {
	var h queue.Handoff[func()]
	fn := func() {}
	call := func(f func()) { f() }
	b.ReportAllocs()
	for b.Loop() {
		h.Put(fn)
		h.Run(call, nil)
	}
}
