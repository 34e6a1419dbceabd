package nexttick_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/uvgo/uvgo/nexttick"
)

// FuzzDrain runs random trees of callbacks through Queues and through a model of Node's
// processTicksAndRejections on two slices: every callback queues ticks and microtasks from
// the input, some call Drain again (which must do nothing), some panic (the drain stops,
// the rest stays queued in order for the next Drain), and Checkpoint asks for more rounds
// and queues work of its own. The order in which callbacks run must be the model's. (The
// ring under the queues is fuzzed in internal/queue.)
func FuzzDrain(f *testing.F) {
	f.Add([]byte{3, 1, 2, 0, 5, 9, 4, 1, 0, 2})
	f.Add([]byte{1, 0x81, 2, 0x42, 3, 7, 7, 7, 0x20, 1})
	f.Add([]byte("ticks, microtasks, a panic, and a checkpoint that asks for more"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 300 {
			return
		}
		got, want := runQueues(data), runModel(data)
		if !slices.Equal(got, want) {
			t.Fatalf("input %x:\nQueues: %v\nmodel:  %v", data, got, want)
		}
	})
}

// prog hands out the input's bytes as the actions of callbacks, in the order they run; the
// Queues run and the model run read the same sequence as long as they run the same order.
type prog struct {
	data []byte
	i    int
	log  []string
	n    int
}

func (p *prog) next() int {
	if p.i >= len(p.data) {
		return 0
	}
	p.i++
	return int(p.data[p.i-1])
}

// queuer is Queues or the model.
type queuer interface {
	NextTick(func())
	QueueMicrotask(func())
	Drain()
	Pending() bool
}

type panicValue struct{}

// callback returns a callback named name: when it runs it logs, queues what the next byte
// says (up to 2 ticks and 2 microtasks), and the next byte's high bits make it call Drain or
// panic.
func (p *prog) callback(q queuer, name string, depth int) func() {
	return func() {
		p.log = append(p.log, name)
		a := p.next()
		if depth < 6 && p.n < 200 {
			for i := range a & 3 {
				p.n++
				q.NextTick(p.callback(q, fmt.Sprintf("%s.t%d", name, i), depth+1))
			}
			for i := range (a >> 2) & 3 {
				p.n++
				q.QueueMicrotask(p.callback(q, fmt.Sprintf("%s.m%d", name, i), depth+1))
			}
		}
		if a&0x40 != 0 {
			q.Drain() // not re-entrant: does nothing
		}
		if a&0x80 != 0 && a&0x20 != 0 {
			panic(panicValue{})
		}
	}
}

func (p *prog) run(q queuer, setCheckpoint func(func() bool)) []string {
	checks := p.next() % 4
	setCheckpoint(func() bool {
		p.log = append(p.log, "checkpoint")
		if checks == 0 {
			return false
		}
		checks--
		if checks%2 == 0 {
			q.QueueMicrotask(p.callback(q, "cp", 5))
			return false
		}
		return true
	})
	roots := p.next()%4 + 1
	for i := range roots {
		if p.next()%2 == 0 {
			q.NextTick(p.callback(q, fmt.Sprintf("T%d", i), 0))
		} else {
			q.QueueMicrotask(p.callback(q, fmt.Sprintf("M%d", i), 0))
		}
	}
	for round := 0; round < 50; round++ {
		p.log = append(p.log, "drain")
		func() {
			defer func() {
				if v := recover(); v != nil {
					if _, ok := v.(panicValue); !ok {
						panic(v)
					}
					p.log = append(p.log, "panicked")
				}
			}()
			q.Drain()
		}()
		if !q.Pending() {
			break
		}
	}
	return p.log
}

func runQueues(data []byte) []string {
	q := &nexttick.Queues{}
	return (&prog{data: data}).run(q, func(f func() bool) { q.Checkpoint = f })
}

func runModel(data []byte) []string {
	m := &model{}
	return (&prog{data: data}).run(m, func(f func() bool) { m.checkpoint = f })
}

// model is processTicksAndRejections on two slices.
type model struct {
	ticks, micro []func()
	draining     bool
	checkpoint   func() bool
}

func (m *model) NextTick(fn func())       { m.ticks = append(m.ticks, fn) }
func (m *model) QueueMicrotask(fn func()) { m.micro = append(m.micro, fn) }
func (m *model) Pending() bool            { return len(m.ticks)+len(m.micro) > 0 }

func (m *model) Drain() {
	if m.draining {
		return
	}
	m.draining = true
	defer func() { m.draining = false }()
	for {
		for len(m.ticks) > 0 {
			fn := m.ticks[0]
			m.ticks = m.ticks[1:]
			fn()
		}
		for len(m.micro) > 0 {
			fn := m.micro[0]
			m.micro = m.micro[1:]
			fn()
		}
		if len(m.ticks) > 0 {
			continue
		}
		if !m.checkpoint() && !m.Pending() {
			return
		}
	}
}
