package immediate_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/uvgo/uvgo/immediate"
)

// The model test runs a program of bytes against a Queue and against a model
// made of two slices (waiting and the running snapshot) and compares them
// after every step, including steps taken from inside callbacks.

const modelImmediates = 8

var errModelPanic = errors.New("model panic")

type modelRun struct {
	t       *testing.T
	prog    []byte
	q       immediate.Queue
	ims     [modelImmediates]*immediate.Immediate
	waiting []int        // model: pushed, waiting for the next snapshot
	running []int        // model: the snapshot (or outstanding rest) not yet run
	ref     map[int]bool // model: ref flag of queued immediates
	ran     []int        // ids in the order their Fn was called
	depth   int          // > 0 inside a callback
}

// next returns the next byte of the program, or ok false at its end.
func (m *modelRun) next() (b byte, ok bool) {
	if len(m.prog) == 0 {
		return 0, false
	}
	b, m.prog = m.prog[0], m.prog[1:]
	return b, true
}

func (m *modelRun) queued(id int) bool {
	return slices.Contains(m.waiting, id) || slices.Contains(m.running, id)
}

func (m *modelRun) refs() int {
	n := 0
	for _, r := range m.ref {
		if r {
			n++
		}
	}
	return n
}

func (m *modelRun) compare(where string) {
	t := m.t
	t.Helper()
	if err := immediate.Verify(&m.q); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if got, want := m.q.Len(), len(m.waiting)+len(m.running); got != want {
		t.Fatalf("%s: Len = %d; want %d", where, got, want)
	}
	if got, want := m.q.RefCount(), m.refs(); got != want {
		t.Fatalf("%s: RefCount = %d; want %d", where, got, want)
	}
	if got, want := m.q.Outstanding(), len(m.running); got != want {
		t.Fatalf("%s: Outstanding = %d; want %d", where, got, want)
	}
	for id, im := range m.ims {
		if im.Queued() != m.queued(id) || im.HasRef() != m.ref[id] {
			t.Fatalf("%s: immediate %d: Queued, HasRef = %v, %v; want %v, %v",
				where, id, im.Queued(), im.HasRef(), m.queued(id), m.ref[id])
		}
	}
}

// fn is the callback of immediate id: it checks that the model expected id
// next, then runs a few steps of the program, and may panic.
func (m *modelRun) fn(id int) {
	if len(m.running) == 0 || m.running[0] != id {
		m.t.Fatalf("Run called %d; the model expected %v", id, m.running)
	}
	m.running = m.running[1:]
	delete(m.ref, id)
	m.ran = append(m.ran, id)
	m.compare("callback start")
	m.depth++
	defer func() { m.depth-- }()
	b, _ := m.next()
	for range b % 4 {
		if !m.step() {
			return
		}
	}
}

// after is Run's after hook: it compares, and panics on some program bytes.
func (m *modelRun) after() {
	m.compare("after")
	if b, ok := m.next(); ok && b%16 == 0 {
		panic(errModelPanic)
	}
}

// step runs one operation of the program. It returns false at the end.
func (m *modelRun) step() bool {
	op, ok := m.next()
	if !ok {
		return false
	}
	arg, _ := m.next()
	id, ref := int(arg)%modelImmediates, arg&0x80 != 0
	im := m.ims[id]
	switch op % 8 {
	case 0, 1: // Push
		m.q.Push(im, ref)
		if !m.queued(id) {
			m.waiting = append(m.waiting, id)
			m.ref[id] = ref
		}
	case 2, 3: // Remove
		want := m.queued(id)
		if i := slices.Index(m.waiting, id); i >= 0 {
			m.waiting = slices.Delete(m.waiting, i, i+1)
		}
		if i := slices.Index(m.running, id); i >= 0 {
			m.running = slices.Delete(m.running, i, i+1)
		}
		delete(m.ref, id)
		if got := m.q.Remove(im); got != want {
			m.t.Fatalf("Remove(%d) = %v; want %v", id, got, want)
		}
	case 4: // SetRef
		m.q.SetRef(im, ref)
		if m.queued(id) {
			m.ref[id] = ref
		}
	case 5, 6: // Run
		m.run()
	case 7: // panic, inside a callback
		if m.depth > 0 {
			panic(errModelPanic)
		}
	}
	m.compare("step")
	return true
}

func (m *modelRun) run() {
	if m.depth > 0 {
		if n := m.q.Run(m.after); n != 0 {
			m.t.Fatalf("nested Run = %d; want 0", n)
		}
		return
	}
	if len(m.running) == 0 {
		m.running, m.waiting = m.waiting, nil
	}
	before := len(m.ran)
	n, v := runRecover(&m.q, m.after)
	if v != nil {
		if v != errModelPanic {
			panic(v)
		}
		return
	}
	if len(m.running) != 0 {
		m.t.Fatalf("Run returned with %v of the snapshot not run", m.running)
	}
	if want := len(m.ran) - before; n != want {
		m.t.Fatalf("Run = %d; want %d", n, want)
	}
}

func runModel(t *testing.T, prog []byte) {
	if len(prog) > 4096 {
		prog = prog[:4096]
	}
	m := &modelRun{t: t, prog: prog, ref: map[int]bool{}}
	for id := range m.ims {
		m.ims[id] = &immediate.Immediate{Fn: func() { m.fn(id) }}
	}
	for m.step() {
	}
	// Run until both the model and the queue are empty.
	for range 3 {
		m.run()
	}
	m.compare("end")
	if m.q.Len() != 0 {
		t.Fatalf("Len = %d at the end", m.q.Len())
	}
}

func TestQueueModel(t *testing.T) {
	for seed := range uint64(500) {
		rng := rand.New(rand.NewPCG(seed, 1))
		prog := make([]byte, 50+rng.IntN(400))
		for i := range prog {
			prog[i] = byte(rng.Uint32())
		}
		runModel(t, prog)
	}
}

func FuzzQueue(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0, 0x83, 5, 0})
	f.Add([]byte{0, 1, 0, 2, 0, 3, 5, 0, 3, 2, 2, 7, 0})
	f.Add([]byte{0, 1, 0, 2, 0, 3, 5, 0, 1, 7, 0, 5, 0})
	f.Fuzz(runModel)
}
