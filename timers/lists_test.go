package timers_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/timers"
)

// The fuzz test drives Lists and a reference model with the same operations
// and compares them after every one. The model keeps a map of lists by
// duration, each a slice of entries, and finds the first list by scanning for
// the least (expiry, id); it follows the documented algorithm step by step.

const listEntries = 16

// listDurations are the durations the fuzz test uses: few, so lists are shared.
var listDurations = [...]int64{1, 2, 3, 5}

type mList struct {
	d, expiry int64
	id        uint64
	items     []int
}

type listModel struct {
	lists  map[int64]*mList
	nextID uint64
	in     [listEntries]*mList // the list each entry is in
	start  [listEntries]int64
}

func (m *listModel) detach(i int) *mList {
	l := m.in[i]
	if l != nil {
		l.items = slices.DeleteFunc(l.items, func(j int) bool { return j == i })
		m.in[i] = nil
	}
	return l
}

func (m *listModel) insert(i int, d, start int64) (int64, bool) {
	if old := m.detach(i); old != nil && len(old.items) == 0 && old.d != d {
		delete(m.lists, old.d)
	}
	m.start[i] = start
	l, created := m.lists[d], false
	if l == nil {
		l = &mList{d: d, expiry: start + d, id: m.nextID}
		m.nextID++
		m.lists[d] = l
		created = true
	}
	l.items = append(l.items, i)
	m.in[i] = l
	return l.expiry, created
}

func (m *listModel) remove(i int) {
	if l := m.detach(i); l != nil && len(l.items) == 0 {
		delete(m.lists, l.d)
	}
}

func (m *listModel) removeAll() {
	clear(m.lists)
	m.in = [listEntries]*mList{}
}

func (m *listModel) first() *mList {
	var best *mList
	for _, l := range m.lists {
		if best == nil || l.expiry < best.expiry || l.expiry == best.expiry && l.id < best.id {
			best = l
		}
	}
	return best
}

func (m *listModel) next() (int64, bool) {
	if l := m.first(); l != nil {
		return l.expiry, true
	}
	return 0, false
}

func (m *listModel) popDue(now int64) (int, bool) {
	for {
		l := m.first()
		if l == nil || l.expiry > now {
			return -1, false
		}
		if len(l.items) == 0 {
			delete(m.lists, l.d)
			continue
		}
		i := l.items[0]
		if now-m.start[i] < l.d {
			l.expiry = max(m.start[i]+l.d, now+1)
			l.id = m.nextID
			m.nextID++
			continue
		}
		l.items = l.items[1:]
		m.in[i] = nil
		return i, true
	}
}

type listFuzzer struct {
	t   *testing.T
	ls  timers.Lists[int]
	e   [listEntries]timers.ListEntry[int]
	m   listModel
	now int64
}

func newListFuzzer(t *testing.T) *listFuzzer {
	f := &listFuzzer{t: t, m: listModel{lists: make(map[int64]*mList)}}
	for i := range f.e {
		f.e[i].Value = i
	}
	return f
}

// check compares the lists with the model and verifies their invariants.
func (f *listFuzzer) check(op string) {
	f.t.Helper()
	if err := f.ls.Verify(); err != nil {
		f.t.Fatalf("after %s: %v", op, err)
	}
	for i := range f.e {
		if f.e[i].Listed() != (f.m.in[i] != nil) {
			f.t.Fatalf("after %s: entry %d Listed %v, model %v", op, i, f.e[i].Listed(), f.m.in[i] != nil)
		}
		if f.e[i].Listed() && f.e[i].Start() != f.m.start[i] {
			f.t.Fatalf("after %s: entry %d Start %d, model %d", op, i, f.e[i].Start(), f.m.start[i])
		}
	}
	ge, gok := f.ls.Next()
	we, wok := f.m.next()
	if ge != we || gok != wok {
		f.t.Fatalf("after %s: Next = %d, %v; model %d, %v", op, ge, gok, we, wok)
	}
}

// step applies one operation taken from op and arg.
func (f *listFuzzer) step(op, arg byte) {
	f.t.Helper()
	i := int(arg) % listEntries
	var name string
	switch op % 6 {
	case 0, 1: // Insert, at now or a little before (an interval re-armed from before its callback)
		d := listDurations[int(op/5)%len(listDurations)]
		start := f.now - int64(arg/listEntries)%3
		ge, gc := f.ls.Insert(&f.e[i], d, start)
		we, wc := f.m.insert(i, d, start)
		name = fmt.Sprintf("Insert(%d, d=%d, start=%d)", i, d, start)
		if ge != we || gc != wc {
			f.t.Fatalf("%s = %d, %v; model %d, %v", name, ge, gc, we, wc)
		}
	case 2:
		f.ls.Remove(&f.e[i])
		f.m.remove(i)
		name = fmt.Sprintf("Remove(%d)", i)
	case 3:
		f.now += int64(arg % 8)
		name = fmt.Sprintf("advance to %d", f.now)
	case 4:
		name = fmt.Sprintf("Run(%d, action %d)", f.now, arg)
		f.run(arg)
	case 5:
		if arg%8 != 0 { // rarely: it empties everything
			return
		}
		name = "RemoveAll"
		var got []int
		f.ls.RemoveAll(func(v int) {
			if f.e[v].Listed() {
				f.t.Fatalf("RemoveAll called back with %d still listed", v)
			}
			got = append(got, v)
			f.ls.Remove(&f.e[v]) // as Loop.Close's callback does: nothing
		})
		var want []int
		for i, l := range f.m.in {
			if l != nil {
				want = append(want, i)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			f.t.Fatalf("RemoveAll called back with %v; model %v", got, want)
		}
		f.m.removeAll()
	}
	f.check(name)
}

// run runs the due entries; each callback checks that it is the model's next due entry and
// then acts, on the lists and the model alike, as arg says: nothing, re-insert itself (an
// interval), insert or remove another entry, or panic (the first callback only).
func (f *listFuzzer) run(arg byte) {
	f.t.Helper()
	other := int(arg/8) % listEntries
	d := listDurations[int(arg/4)%len(listDurations)]
	panicked := false
	defer func() {
		if v := recover(); v != nil {
			if v != "boom" {
				panic(v)
			}
			panicked = true
		}
		if !panicked {
			if wv, wok := f.m.popDue(f.now); wok {
				f.t.Fatalf("Run(%d) returned; the model still has %d due", f.now, wv)
			}
		}
	}()
	f.ls.Run(f.now, func(v int) {
		wv, wok := f.m.popDue(f.now)
		if !wok || wv != v {
			f.t.Fatalf("Run(%d) called back with %d; model %d, %v", f.now, v, wv, wok)
		}
		f.check(fmt.Sprintf("taking %d", v))
		switch arg % 8 {
		case 1, 2: // an interval, re-armed from the start of its callback (the clock may have moved)
			start := f.now + int64(arg%2)
			f.ls.Insert(&f.e[v], d, start)
			f.m.insert(v, d, start)
		case 3, 4:
			f.ls.Insert(&f.e[other], d, f.now)
			f.m.insert(other, d, f.now)
		case 5:
			f.ls.Remove(&f.e[other])
			f.m.remove(other)
		case 7:
			panic("boom")
		}
		f.check(fmt.Sprintf("the callback of %d", v))
	})
}

func fuzzLists(t *testing.T, data []byte) {
	f := newListFuzzer(t)
	for k := 0; k+1 < len(data); k += 2 {
		f.step(data[k], data[k+1])
	}
	// Run everything out: each entry comes back exactly once.
	f.now += 1 << 20
	f.run(0)
	for i := range f.e {
		if f.e[i].Listed() {
			t.Fatalf("entry %d is still listed after the final run", i)
		}
	}
	f.check("the final run")
}

func FuzzLists(f *testing.F) {
	f.Add([]byte{0, 1, 5, 2, 10, 3, 3, 2, 4, 3, 3, 7, 4, 3})
	f.Add([]byte{0, 0, 0, 1, 5, 2, 3, 1, 4, 0, 0, 0, 3, 5, 4, 3, 2, 1, 4, 3})
	f.Add([]byte{15, 1, 10, 2, 5, 3, 0, 4, 3, 7, 4, 1, 2, 2, 4, 3, 3, 7, 4, 3})
	f.Fuzz(fuzzLists)
}

// TestListsModel runs the fuzz body on pseudo-random inputs, so that plain go test covers it.
func TestListsModel(t *testing.T) {
	for seed := range 50 {
		data := make([]byte, 600)
		x := uint32(seed*2654435761 + 1)
		for i := range data {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			data[i] = byte(x)
		}
		fuzzLists(t, data)
	}
}

// TestListsNodeOrder pins the orderings that set Node's lists apart from the heap's (deadline,
// start order). The first two were checked with node v20: setTimeout calls at those times
// (ms), with the loop kept busy until now.
func TestListsNodeOrder(t *testing.T) {
	type ins struct {
		name     string
		d, start int64
	}
	tests := []struct {
		name string
		ins  []ins
		now  int64
		want string
	}{
		{
			// A 2ms timeout set at 0 and a 1ms one set at 1 expire together: the list made
			// first (the 2ms one) runs first.
			name: "equal expiry: list made first runs first",
			ins:  []ins{{"a", 2, 0}, {"b", 1, 1}},
			now:  2, want: "a b",
		},
		{
			// Every due timeout of a list runs before the next list, though the other
			// list's timeout is due earlier: a(1ms at 0), c(1ms at 2) share a list whose
			// expiry is 1; b(2ms at 0) expires at 2.
			name: "a list runs out before the next",
			ins:  []ins{{"a", 1, 0}, {"b", 2, 0}, {"c", 1, 2}},
			now:  3, want: "a c b",
		},
		{
			name: "not due yet: the list is rescheduled",
			ins:  []ins{{"a", 5, 0}, {"b", 5, 4}},
			now:  6, want: "a",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ls timers.Lists[string]
			entries := make([]timers.ListEntry[string], len(tt.ins))
			for i, in := range tt.ins {
				entries[i].Value = in.name
				ls.Insert(&entries[i], in.d, in.start)
			}
			var got []string
			ls.Run(tt.now, func(v string) { got = append(got, v) })
			if s := strings.Join(got, " "); s != tt.want {
				t.Fatalf("ran %q, want %q", s, tt.want)
			}
			if err := ls.Verify(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestListsInsertedDuringRunWaits(t *testing.T) {
	var ls timers.Lists[int]
	var a, b timers.ListEntry[int]
	a.Value, b.Value = 1, 2
	ls.Insert(&a, 1, 0)
	var got []int
	ls.Run(1, func(v int) {
		got = append(got, v)
		ls.Insert(&b, 1, 1) // a callback sets a 1ms timeout at now
		ls.Insert(&a, 1, 0) // a re-armed as from 0 would be due, but waits behind b in the list
	})
	if !slices.Equal(got, []int{1}) {
		t.Fatalf("Run ran %v; want [1]", got)
	}
	if e, ok := ls.Next(); !ok || e != 2 {
		t.Fatalf("Next = %d, %v; want 2, true", e, ok)
	}
}

func TestListsRemoveDropsEmptyList(t *testing.T) {
	var ls timers.Lists[int]
	var a timers.ListEntry[int]
	if _, created := ls.Insert(&a, 3, 0); !created {
		t.Fatal("first Insert did not make a list")
	}
	ls.Remove(&a)
	ls.Remove(&a) // twice: nothing
	if _, ok := ls.Next(); ok || a.Listed() {
		t.Fatalf("after Remove: Next ok %v, Listed %v", ok, a.Listed())
	}
	if _, created := ls.Insert(&a, 3, 0); !created {
		t.Fatal("Insert after the list was dropped did not make one")
	}
	allocs := testing.AllocsPerRun(100, func() {
		ls.Remove(&a)
		ls.Insert(&a, 3, 0)
	})
	if allocs != 0 {
		t.Fatalf("Remove+Insert allocates %v times; want 0", allocs)
	}
}

func TestListsVerifyNoticesBrokenOrder(t *testing.T) {
	var ls timers.Lists[int]
	var a, b timers.ListEntry[int]
	ls.Insert(&a, 1, 0)
	ls.Insert(&b, 2, 0)
	if err := ls.Verify(); err != nil {
		t.Fatal(err)
	}
	ls.BreakOrderUnsafe()
	if err := ls.Verify(); err == nil {
		t.Fatal("Verify accepted a heap out of order")
	}
}
