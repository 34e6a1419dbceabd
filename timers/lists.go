package timers

import (
	"errors"
	"fmt"
)

// This file is Node's timer lists (lib/internal/timers.js), which order
// setTimeout and setInterval differently from the Heap's libuv order: the
// timeouts of one duration wait in one list, in insertion order, and the
// lists wait in a binary heap by (expiry, id), where id is taken from a
// counter each time a list is made or rescheduled. Every due timeout of a
// list runs before the next list. The loop that owns the Lists runs them from
// one internal timer of its own.

// ListEntry is one timeout in Lists (the list links of Node's Timeout). Keep
// it in the timeout it stands for, with Value pointing back at that timeout:
// Run passes Value to its callback. The zero value is an entry in no list.
//
// A ListEntry belongs to the goroutine that owns its Lists.
type ListEntry[T any] struct {
	Value T // what Run passes on for this entry; set by the owner

	start      int64 // when it was last inserted (Node's _idleStart)
	list       *timerList[T]
	prev, next *ListEntry[T]
}

// Listed reports whether e is in a list: inserted, and neither removed nor
// taken out by Run since.
func (e *ListEntry[T]) Listed() bool { return e.list != nil }

// Start returns the time e was last inserted at.
func (e *ListEntry[T]) Start() int64 { return e.start }

// timerList holds the entries of one duration in insertion order (Node's
// TimersList).
type timerList[T any] struct {
	d          int64  // the duration of its entries
	expiry     int64  // when its first entry is due, as last computed
	id         uint64 // breaks ties of expiry: lists made or rescheduled earlier first
	head, tail *ListEntry[T]
	pos        int // index in Lists.queue
}

func (l *timerList[T]) append(e *ListEntry[T]) {
	e.list, e.prev, e.next = l, l.tail, nil
	if l.tail != nil {
		l.tail.next = e
	} else {
		l.head = e
	}
	l.tail = e
}

func (l *timerList[T]) remove(e *ListEntry[T]) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		l.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		l.tail = e.prev
	}
	e.list, e.prev, e.next = nil, nil, nil
}

// Lists is Node's timer lists: one list per duration, each in insertion
// order, and the lists in a heap by (expiry, id). Times and durations are
// int64 on the owner's clock (the loop uses ns, with durations in whole
// milliseconds as Node's are).
//
// The zero value is empty and ready to use. Lists is not safe for concurrent
// use: one goroutine (the loop's) owns it and its entries. In steady state
// Insert, Remove and Run allocate nothing: emptied lists are kept for
// reuse.
type Lists[T any] struct {
	byDur  map[int64]*timerList[T] // every list, by duration; the same lists as queue
	queue  []*timerList[T]         // binary min-heap by (expiry, id)
	nextID uint64
	free   []*timerList[T] // dropped lists, for reuse
	last   *timerList[T]   // the list made last, to skip the map when Insert asks for it again; nil once dropped
}

// Insert appends e to the list of duration d (d > 0), as inserted at start;
// an entry already in a list leaves it first (Node's insert, as Refresh and
// an interval's re-arm use it). If e makes a new list, Insert reports that
// list's expiry, start+d, with created true: the owner arms its timer earlier
// if that expiry is. An entry joining an existing list does not move the
// list, however long it waits: Run reschedules the list when its first
// entry is not due.
func (ls *Lists[T]) Insert(e *ListEntry[T], d, start int64) (expiry int64, created bool) {
	if old := e.list; old != nil {
		old.remove(e)
		if old.head == nil && old.d != d {
			ls.drop(old)
		}
	}
	e.start = start
	l := ls.last
	if l == nil || l.d != d {
		if l = ls.byDur[d]; l == nil {
			l = ls.newList(d, start+d)
			created = true
		}
	}
	l.append(e)
	if debugVerify {
		ls.mustVerify()
	}
	return l.expiry, created
}

// Remove takes e out of its list, dropping the list if it is left empty
// (Node's unenroll). It does nothing if e is in no list.
func (ls *Lists[T]) Remove(e *ListEntry[T]) {
	l := e.list
	if l == nil {
		return
	}
	l.remove(e)
	if l.head == nil {
		ls.drop(l)
	}
	if debugVerify {
		ls.mustVerify()
	}
}

// RemoveAll takes every entry out of its list and calls fn (if not nil) with
// its Value, the first list by (expiry, id) first and each list in order,
// then forgets the lists (Loop.Close cancels the timeouts still set so). fn
// may remove entries but must not insert any.
func (ls *Lists[T]) RemoveAll(fn func(T)) {
	for len(ls.queue) > 0 {
		l := ls.queue[0]
		for e := l.head; e != nil; e = l.head {
			l.remove(e)
			if fn != nil {
				fn(e.Value)
			}
		}
		if l.pos >= 0 { // fn did not drop it by removing its last entry
			ls.drop(l)
		}
	}
	if debugVerify {
		ls.mustVerify()
	}
}

// Next returns the expiry of the first list by (expiry, id), and false if
// there is no list. A list that a run left empty (a callback panicked after
// Run took its last entry) still counts until a Run drops it.
func (ls *Lists[T]) Next() (expiry int64, ok bool) {
	if len(ls.queue) == 0 {
		return 0, false
	}
	return ls.queue[0].expiry, true
}

// Run takes the entries due at now out of their lists and calls fn with the
// Value of each, in Node's order (processTimers and listOnTimeout): the first
// list by (expiry, id), if its expiry is not after now, gives its entries in
// insertion order while they are due (now-start >= d). When the first entry
// of that list is not due yet, the list is rescheduled to expiry
// max(start+d, now+1) with a fresh id and the next list is looked at; an
// emptied list is dropped. Run returns when no list is due at now.
//
// fn may insert and remove entries, the one it got included (an interval
// re-arms itself so). What it inserts with a start not before now waits until
// it is due: a new list expires after now, and such an entry is not due at
// now. (An entry inserted with an earlier start may be due at once, and
// handed to fn again in this Run.)
//
// If fn panics, the panic propagates; the entry fn got is out of its list,
// and everything else stays in order for the next Run.
func (ls *Lists[T]) Run(now int64, fn func(T)) {
	for len(ls.queue) > 0 {
		l := ls.queue[0]
		if l.expiry > now {
			break
		}
		e := l.head
		if e == nil || now-e.start < l.d {
			ls.settle(l, now)
			continue
		}
		l.remove(e)
		if debugVerify {
			ls.mustVerify()
		}
		fn(e.Value)
	}
	if debugVerify {
		ls.mustVerify()
	}
}

// settle deals with the first list when its first entry is not due at now: an
// empty list is dropped; otherwise the rest of the list waits in the heap for
// its first entry, with a fresh id.
func (ls *Lists[T]) settle(l *timerList[T], now int64) {
	e := l.head
	if e == nil {
		ls.drop(l)
		return
	}
	l.expiry = max(e.start+l.d, now+1)
	l.id = ls.nextID
	ls.nextID++
	ls.down(0)
}

func (ls *Lists[T]) newList(d, expiry int64) *timerList[T] {
	var l *timerList[T]
	if k := len(ls.free); k > 0 {
		l, ls.free = ls.free[k-1], ls.free[:k-1]
	} else {
		l = new(timerList[T])
	}
	*l = timerList[T]{d: d, expiry: expiry, id: ls.nextID}
	ls.nextID++
	if ls.byDur == nil {
		ls.byDur = make(map[int64]*timerList[T])
	}
	ls.byDur[d] = l
	ls.last = l
	l.pos = len(ls.queue)
	ls.queue = append(ls.queue, l)
	ls.up(l.pos)
	return l
}

// drop forgets an empty list.
func (ls *Lists[T]) drop(l *timerList[T]) {
	delete(ls.byDur, l.d)
	ls.removeAt(l.pos)
	l.pos = -1
	if ls.last == l {
		ls.last = nil
	}
	ls.free = append(ls.free, l)
}

// The list heap.

func listLess[T any](a, b *timerList[T]) bool {
	return a.expiry < b.expiry || a.expiry == b.expiry && a.id < b.id
}

func (ls *Lists[T]) removeAt(i int) {
	last := len(ls.queue) - 1
	if i != last {
		ls.swap(i, last)
	}
	ls.queue[last] = nil
	ls.queue = ls.queue[:last]
	if i != last {
		ls.down(i)
		ls.up(i)
	}
}

func (ls *Lists[T]) swap(i, j int) {
	q := ls.queue
	q[i], q[j] = q[j], q[i]
	q[i].pos, q[j].pos = i, j
}

func (ls *Lists[T]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !listLess(ls.queue[i], ls.queue[parent]) {
			return
		}
		ls.swap(i, parent)
		i = parent
	}
}

func (ls *Lists[T]) down(i int) {
	for {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(ls.queue) && listLess(ls.queue[l], ls.queue[least]) {
			least = l
		}
		if r < len(ls.queue) && listLess(ls.queue[r], ls.queue[least]) {
			least = r
		}
		if least == i {
			return
		}
		ls.swap(i, least)
		i = least
	}
}

// verify checks the invariants of the lists: the heap and the map hold the
// same lists, one per duration, and the last list made is one of them; each list knows its heap position, the heap
// is ordered by (expiry, id) with ids unique and already handed out; every
// list's links are consistent and its entries point at it; the kept lists
// are out of the heap and empty.
func (ls *Lists[T]) verify() error {
	if len(ls.byDur) != len(ls.queue) {
		return fmt.Errorf("%d lists by duration, %d in the heap", len(ls.byDur), len(ls.queue))
	}
	if l := ls.last; l != nil && ls.byDur[l.d] != l {
		return fmt.Errorf("the last list made (duration %d) is not the map's", l.d)
	}
	ids := make(map[uint64]bool, len(ls.queue))
	for i, l := range ls.queue {
		switch {
		case l.pos != i:
			return fmt.Errorf("list at heap index %d says %d", i, l.pos)
		case ls.byDur[l.d] != l:
			return fmt.Errorf("list of duration %d in the heap is not the map's", l.d)
		case l.d <= 0:
			return fmt.Errorf("list of duration %d", l.d)
		case l.id >= ls.nextID:
			return fmt.Errorf("list id %d not handed out yet (next %d)", l.id, ls.nextID)
		case ids[l.id]:
			return fmt.Errorf("list id %d used twice", l.id)
		case i > 0 && listLess(l, ls.queue[(i-1)/2]):
			return fmt.Errorf("heap out of order at index %d: (%d, %d) under (%d, %d)",
				i, l.expiry, l.id, ls.queue[(i-1)/2].expiry, ls.queue[(i-1)/2].id)
		}
		ids[l.id] = true
		var prev *ListEntry[T]
		for e := l.head; e != nil; e = e.next {
			if e.list != l {
				return fmt.Errorf("entry of the list of duration %d points at another list", l.d)
			}
			if e.prev != prev {
				return fmt.Errorf("broken prev link in the list of duration %d", l.d)
			}
			prev = e
		}
		if l.tail != prev {
			return fmt.Errorf("tail of the list of duration %d is not its last entry", l.d)
		}
	}
	for _, l := range ls.free {
		if l.pos != -1 || l.head != nil || l.tail != nil {
			return errors.New("a kept list is in the heap or not empty")
		}
	}
	return nil
}

// mustVerify panics when an invariant is broken.
func (ls *Lists[T]) mustVerify() {
	if err := ls.verify(); err != nil {
		panic("timers: broken list invariant: " + err.Error())
	}
}
