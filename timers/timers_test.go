package timers_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/timers"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// harness is a heap with n entries whose Fn records the entry's index in
// fired and then calls onFire[i], if set.
type harness struct {
	t      *testing.T
	h      *timers.Heap
	e      []*timers.Entry
	onFire []func()
	fired  []int
}

func newHarness(t *testing.T, n int) *harness {
	t.Helper()
	hs := &harness{t: t, h: timers.New(), onFire: make([]func(), n)}
	for i := range n {
		e := new(timers.Entry)
		e.Fn = func() {
			hs.fired = append(hs.fired, i)
			if f := hs.onFire[i]; f != nil {
				f()
			}
		}
		hs.e = append(hs.e, e)
	}
	return hs
}

func (hs *harness) start(i int, now, timeout, repeat int64) {
	hs.t.Helper()
	if err := hs.h.Start(hs.e[i], now, timeout, repeat); err != nil {
		hs.t.Fatalf("Start(e%d, %d, %d, %d): %v", i, now, timeout, repeat, err)
	}
	hs.verify()
}

// run calls RunExpired and returns what fired in it.
func (hs *harness) run(now int64) []int {
	hs.t.Helper()
	hs.fired = nil
	n := hs.h.RunExpired(now)
	hs.verify()
	if n != len(hs.fired) {
		hs.t.Errorf("RunExpired(%d) = %d, but %d Fn calls were made", now, n, len(hs.fired))
	}
	return hs.fired
}

func (hs *harness) verify() {
	hs.t.Helper()
	if err := hs.h.Verify(); err != nil {
		hs.t.Fatalf("Verify: %v", err)
	}
}

func (hs *harness) active() []int {
	var out []int
	for i, e := range hs.e {
		if e.Active() {
			out = append(out, i)
		}
	}
	return out
}

// start is one Start call in a table.
type start struct {
	id                   int
	now, timeout, repeat int64
}

// sameDeadline starts n timers that share deadline 100, from varied nows.
func sameDeadline(n int) []start {
	s := make([]start, n)
	for i := range s {
		now := int64(i % 50)
		s[i] = start{id: i, now: now, timeout: 100 - now}
	}
	return s
}

func upTo(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestRunOrder(t *testing.T) {
	tests := []struct {
		name     string
		entries  int
		starts   []start
		stops    []int
		runAt    int64
		want     []int
		wantLen  int
		wantNext int64 // when wantLen > 0
	}{
		{
			name:    "by deadline",
			entries: 3,
			starts:  []start{{id: 0, timeout: 30}, {id: 1, timeout: 10}, {id: 2, timeout: 20}},
			runAt:   30,
			want:    []int{1, 2, 0},
		},
		{
			name:     "only due timers",
			entries:  3,
			starts:   []start{{id: 0, timeout: 30}, {id: 1, timeout: 10}, {id: 2, timeout: 20}},
			runAt:    20,
			want:     []int{1, 2},
			wantLen:  1,
			wantNext: 30,
		},
		{
			name:     "nothing due",
			entries:  2,
			starts:   []start{{id: 0, timeout: 30}, {id: 1, timeout: 10}},
			runAt:    9,
			wantLen:  2,
			wantNext: 10,
		},
		{
			name:    "deadline equal to now is due",
			entries: 1,
			starts:  []start{{id: 0, now: 7, timeout: 0}},
			runAt:   7,
			want:    []int{0},
		},
		{
			name:    "equal deadlines fire in start order",
			entries: 4,
			starts: []start{
				{id: 2, now: 0, timeout: 10}, {id: 0, now: 5, timeout: 5},
				{id: 3, now: 9, timeout: 1}, {id: 1, now: 1, timeout: 9},
			},
			runAt: 10,
			want:  []int{2, 0, 3, 1},
		},
		{
			name:    "many timers share one deadline, none lost",
			entries: 1000,
			starts:  sameDeadline(1000),
			runAt:   100,
			want:    upTo(1000),
		},
		{
			name:    "restart moves to the back of its deadline group",
			entries: 3,
			starts: []start{
				{id: 0, timeout: 10}, {id: 1, timeout: 10}, {id: 2, timeout: 10},
				{id: 0, now: 4, timeout: 6},
			},
			runAt: 10,
			want:  []int{1, 2, 0},
		},
		{
			name:     "restart moves to a new deadline",
			entries:  2,
			starts:   []start{{id: 0, timeout: 10}, {id: 1, timeout: 20}, {id: 0, timeout: 30}},
			runAt:    25,
			want:     []int{1},
			wantLen:  1,
			wantNext: 30,
		},
		{
			name:    "stopped timers do not fire",
			entries: 4,
			starts:  []start{{id: 0, timeout: 1}, {id: 1, timeout: 2}, {id: 2, timeout: 3}, {id: 3, timeout: 4}},
			stops:   []int{1, 3},
			runAt:   10,
			want:    []int{0, 2},
		},
		{
			name:    "repeating timers fire once per run",
			entries: 2,
			starts:  []start{{id: 0, timeout: 0, repeat: 1}, {id: 1, timeout: 5, repeat: 0}},
			runAt:   100,
			want:    []int{0, 1},
			// e0 re-armed at 100+1.
			wantLen:  1,
			wantNext: 101,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, tt.entries)
			for _, s := range tt.starts {
				hs.start(s.id, s.now, s.timeout, s.repeat)
			}
			for _, i := range tt.stops {
				if !hs.h.Stop(hs.e[i]) {
					t.Errorf("Stop(e%d) = false, want true", i)
				}
			}
			if got := hs.run(tt.runAt); !slices.Equal(got, tt.want) {
				t.Errorf("fired %v, want %v", got, tt.want)
			}
			if got := hs.h.Len(); got != tt.wantLen {
				t.Errorf("Len = %d, want %d", got, tt.wantLen)
			}
			next, ok := hs.h.Next()
			if ok != (tt.wantLen > 0) || (ok && next != tt.wantNext) {
				t.Errorf("Next = %d, %v; want %d, %v", next, ok, tt.wantNext, tt.wantLen > 0)
			}
		})
	}
}

func TestStop(t *testing.T) {
	tests := []struct {
		name       string
		setup      func(hs *harness) // on e0, e1; e0 is stopped
		want       bool
		wantActive bool
		wantLen    int
	}{
		{
			name:    "active",
			setup:   func(hs *harness) { hs.start(0, 0, 10, 0); hs.start(1, 0, 10, 0) },
			want:    true,
			wantLen: 1,
		},
		{
			name:    "active repeating",
			setup:   func(hs *harness) { hs.start(0, 0, 10, 5) },
			want:    true,
			wantLen: 0,
		},
		{
			name: "already stopped",
			setup: func(hs *harness) {
				hs.start(0, 0, 10, 0)
				hs.h.Stop(hs.e[0])
			},
			want: false,
		},
		{
			name:  "never started",
			setup: func(hs *harness) { hs.start(1, 0, 10, 0) },
			want:  false, wantLen: 1,
		},
		{
			name: "fired one-shot",
			setup: func(hs *harness) {
				hs.start(0, 0, 10, 0)
				hs.run(10)
			},
			want: false,
		},
		{
			name: "started on another heap",
			setup: func(hs *harness) {
				if err := timers.New().Start(hs.e[0], 0, 10, 0); err != nil {
					hs.t.Fatal(err)
				}
			},
			want:       false,
			wantActive: true, // still waiting in the other heap
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, 2)
			tt.setup(hs)
			if got := hs.h.Stop(hs.e[0]); got != tt.want {
				t.Errorf("Stop = %v, want %v", got, tt.want)
			}
			hs.verify()
			if got := hs.e[0].Active(); got != tt.wantActive {
				t.Errorf("Active after Stop = %v, want %v", got, tt.wantActive)
			}
			if got := hs.h.Stop(hs.e[0]); got {
				t.Errorf("second Stop = true, want false")
			}
			if got := hs.h.Len(); got != tt.wantLen {
				t.Errorf("Len = %d, want %d", got, tt.wantLen)
			}
			if got := hs.run(math.MaxInt64); slices.Contains(got, 0) {
				t.Errorf("stopped e0 fired: %v", got)
			}
		})
	}
}

func TestAgain(t *testing.T) {
	tests := []struct {
		name         string
		setup        func(hs *harness)
		now          int64
		wantErr      error
		wantActive   bool
		wantDeadline int64
		wantFired    []int // RunExpired(wantDeadline) after Again
	}{
		{
			name:    "never started",
			setup:   func(hs *harness) {},
			now:     5,
			wantErr: timers.ErrNeverStarted,
		},
		{
			name:    "never started with a repeat set",
			setup:   func(hs *harness) { hs.e[0].SetRepeat(10) },
			now:     5,
			wantErr: timers.ErrNeverStarted,
		},
		{
			name:         "repeat 0 on an active timer does nothing",
			setup:        func(hs *harness) { hs.start(0, 0, 10, 0) },
			now:          5,
			wantActive:   true,
			wantDeadline: 10,
			wantFired:    []int{0},
		},
		{
			name: "repeat 0 on a stopped timer does nothing",
			setup: func(hs *harness) {
				hs.start(0, 0, 10, 0)
				hs.h.Stop(hs.e[0])
			},
			now:          5,
			wantDeadline: 10,
		},
		{
			name:         "repeat re-arms an active timer",
			setup:        func(hs *harness) { hs.start(0, 0, 100, 7) },
			now:          5,
			wantActive:   true,
			wantDeadline: 12,
			wantFired:    []int{0},
		},
		{
			name: "repeat re-arms a stopped timer",
			setup: func(hs *harness) {
				hs.start(0, 0, 100, 7)
				hs.h.Stop(hs.e[0])
			},
			now:          5,
			wantActive:   true,
			wantDeadline: 12,
			wantFired:    []int{0},
		},
		{
			name: "repeat re-arms to the back of its deadline group",
			setup: func(hs *harness) {
				hs.start(0, 0, 1, 7)
				hs.start(1, 0, 12, 0)
			},
			now:          5,
			wantActive:   true,
			wantDeadline: 12,
			wantFired:    []int{1, 0},
		},
		{
			name: "repeat set by SetRepeat after a one-shot start",
			setup: func(hs *harness) {
				hs.start(0, 0, 100, 0)
				hs.e[0].SetRepeat(3)
			},
			now:          5,
			wantActive:   true,
			wantDeadline: 8,
			wantFired:    []int{0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, 2)
			tt.setup(hs)
			if err := hs.h.Again(hs.e[0], tt.now); !errors.Is(err, tt.wantErr) {
				t.Fatalf("Again = %v, want %v", err, tt.wantErr)
			}
			hs.verify()
			e := hs.e[0]
			if e.Active() != tt.wantActive || e.Deadline() != tt.wantDeadline {
				t.Errorf("after Again: Active %v Deadline %d, want %v %d",
					e.Active(), e.Deadline(), tt.wantActive, tt.wantDeadline)
			}
			if got := hs.run(tt.wantDeadline); !slices.Equal(got, tt.wantFired) {
				t.Errorf("fired %v, want %v", got, tt.wantFired)
			}
		})
	}
}

func TestSetRepeat(t *testing.T) {
	tests := []struct {
		name          string
		timeout       int64
		repeat        int64
		set           int64
		runs          []int64 // RunExpired nows
		wantFired     int
		wantRepeat    int64
		wantDeadlines []int64 // Deadline after each run
	}{
		{
			name: "does not move a waiting timer", timeout: 10, repeat: 0, set: 5,
			runs: []int64{9, 10, 15}, wantFired: 2, wantRepeat: 5,
			wantDeadlines: []int64{10, 15, 20},
		},
		{
			name: "0 ends a repeating timer after its next fire", timeout: 10, repeat: 5, set: 0,
			runs: []int64{10, 100}, wantFired: 1, wantRepeat: 0,
			wantDeadlines: []int64{10, 10},
		},
		{
			name: "changes the period at the next re-arm", timeout: 10, repeat: 5, set: 20,
			runs: []int64{10, 15, 30}, wantFired: 2, wantRepeat: 20,
			wantDeadlines: []int64{30, 30, 50},
		},
		{
			name: "negative is ignored", timeout: 10, repeat: 5, set: -1,
			runs: []int64{10, 15}, wantFired: 2, wantRepeat: 5,
			wantDeadlines: []int64{15, 20},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, 1)
			hs.start(0, 0, tt.timeout, tt.repeat)
			hs.e[0].SetRepeat(tt.set)
			if got := hs.e[0].Deadline(); got != tt.timeout {
				t.Errorf("Deadline after SetRepeat = %d, want %d", got, tt.timeout)
			}
			fired := 0
			var deadlines []int64
			for _, now := range tt.runs {
				fired += len(hs.run(now))
				deadlines = append(deadlines, hs.e[0].Deadline())
			}
			if fired != tt.wantFired {
				t.Errorf("fired %d times, want %d", fired, tt.wantFired)
			}
			if got := hs.e[0].Repeat(); got != tt.wantRepeat {
				t.Errorf("Repeat = %d, want %d", got, tt.wantRepeat)
			}
			if !slices.Equal(deadlines, tt.wantDeadlines) {
				t.Errorf("deadlines %v, want %v", deadlines, tt.wantDeadlines)
			}
		})
	}
}

func TestHugeTimeouts(t *testing.T) {
	const maxI = math.MaxInt64
	tests := []struct {
		name         string
		now, timeout int64
		wantDeadline int64
	}{
		{name: "MaxInt64 from 0", now: 0, timeout: maxI, wantDeadline: maxI},
		{name: "MaxInt64 from 1 saturates", now: 1, timeout: maxI, wantDeadline: maxI},
		{name: "MaxInt64 from MaxInt64", now: maxI, timeout: maxI, wantDeadline: maxI},
		{name: "just fits", now: maxI - 10, timeout: 10, wantDeadline: maxI},
		{name: "one past saturates", now: maxI - 10, timeout: 11, wantDeadline: maxI},
		{name: "0 at MaxInt64", now: maxI, timeout: 0, wantDeadline: maxI},
		{name: "negative now", now: -100, timeout: maxI, wantDeadline: maxI - 100},
		{name: "MinInt64 now", now: math.MinInt64, timeout: 5, wantDeadline: math.MinInt64 + 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, 1)
			hs.start(0, tt.now, tt.timeout, 0)
			if got := hs.e[0].Deadline(); got != tt.wantDeadline {
				t.Errorf("Deadline = %d, want %d", got, tt.wantDeadline)
			}
			if next, ok := hs.h.Next(); !ok || next != tt.wantDeadline {
				t.Errorf("Next = %d, %v; want %d, true", next, ok, tt.wantDeadline)
			}
			if tt.wantDeadline > math.MinInt64 {
				if got := hs.run(tt.wantDeadline - 1); len(got) != 0 {
					t.Errorf("fired %v before the deadline", got)
				}
			}
			if got := hs.run(tt.wantDeadline); !slices.Equal(got, []int{0}) {
				t.Errorf("fired %v at the deadline, want [0]", got)
			}
		})
	}

	t.Run("saturated timers keep start order", func(t *testing.T) {
		hs := newHarness(t, 4)
		hs.start(2, 5, maxI, 0)
		hs.start(0, maxI, maxI, 0)
		hs.start(3, 0, maxI, 0)
		hs.start(1, maxI-1, 2, 0)
		if got, want := hs.run(maxI), []int{2, 0, 3, 1}; !slices.Equal(got, want) {
			t.Errorf("fired %v, want %v", got, want)
		}
	})
	t.Run("repeating at MaxInt64", func(t *testing.T) {
		hs := newHarness(t, 1)
		hs.start(0, maxI-1, 1, maxI)
		for range 3 {
			if got := hs.run(maxI); !slices.Equal(got, []int{0}) {
				t.Fatalf("fired %v, want [0]", got)
			}
			if !hs.e[0].Active() || hs.e[0].Deadline() != maxI {
				t.Fatalf("after run: Active %v Deadline %d", hs.e[0].Active(), hs.e[0].Deadline())
			}
		}
	})
}

func TestNegative(t *testing.T) {
	tests := []struct {
		name            string
		started         bool
		timeout, repeat int64
	}{
		{name: "timeout, never started", timeout: -1},
		{name: "repeat, never started", timeout: 5, repeat: -1},
		{name: "MinInt64 timeout, active", started: true, timeout: math.MinInt64},
		{name: "repeat, active", started: true, timeout: 0, repeat: -5},
		{name: "both, active", started: true, timeout: -2, repeat: -3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, 2)
			hs.start(1, 0, 10, 0)
			if tt.started {
				hs.start(0, 0, 10, 3)
			}
			e := hs.e[0]
			active, deadline, repeat, seq := e.Active(), e.Deadline(), e.Repeat(), e.Seq()
			if err := hs.h.Start(e, 1, tt.timeout, tt.repeat); !errors.Is(err, timers.ErrNegative) {
				t.Fatalf("Start = %v, want ErrNegative", err)
			}
			hs.verify()
			if e.Active() != active || e.Deadline() != deadline || e.Repeat() != repeat || e.Seq() != seq {
				t.Errorf("entry changed: Active %v Deadline %d Repeat %d Seq %d; was %v %d %d %d",
					e.Active(), e.Deadline(), e.Repeat(), e.Seq(), active, deadline, repeat, seq)
			}
			if err := hs.h.Again(e, 1); tt.started != (err == nil) {
				t.Errorf("Again after a rejected Start = %v (started %v)", err, tt.started)
			}
		})
	}
}

func TestNext(t *testing.T) {
	hs := newHarness(t, 3)
	if d, ok := hs.h.Next(); ok || d != 0 {
		t.Errorf("Next on a new heap = %d, %v; want 0, false", d, ok)
	}
	if hs.h.Len() != 0 {
		t.Errorf("Len on a new heap = %d", hs.h.Len())
	}
	hs.start(0, 0, 30, 0)
	hs.start(1, 0, 20, 0)
	hs.start(2, 0, 40, 0)
	if d, ok := hs.h.Next(); !ok || d != 20 {
		t.Errorf("Next = %d, %v; want 20, true", d, ok)
	}
	hs.h.Stop(hs.e[1])
	if d, ok := hs.h.Next(); !ok || d != 30 {
		t.Errorf("Next after Stop = %d, %v; want 30, true", d, ok)
	}
	hs.run(30)
	if d, ok := hs.h.Next(); !ok || d != 40 {
		t.Errorf("Next after a run = %d, %v; want 40, true", d, ok)
	}
	hs.h.Stop(hs.e[2])
	if d, ok := hs.h.Next(); ok {
		t.Errorf("Next after stopping all = %d, %v; want false", d, ok)
	}
	hs.start(0, 0, 5, 0)
	hs.run(5)
	if d, ok := hs.h.Next(); ok {
		t.Errorf("Next after firing all = %d, %v; want false", d, ok)
	}
}

func TestRunExpiredCallbacks(t *testing.T) {
	tests := []struct {
		name string
		// setup starts timers and sets callbacks; the first run is at 10.
		setup     func(hs *harness)
		want      []int // fired at 10
		wantAfter []int // fired by a second run at 10
		check     func(hs *harness)
	}{
		{
			name: "timers started during the run with timeout 0 wait",
			setup: func(hs *harness) {
				hs.start(0, 0, 10, 0)
				hs.onFire[0] = func() {
					hs.start(1, 10, 0, 0)
					hs.start(2, 0, 0, 0) // deadline 0: earlier than every collected one
				}
			},
			want:      []int{0},
			wantAfter: []int{2, 1},
		},
		{
			name: "collects all due timers before the first callback",
			setup: func(hs *harness) {
				hs.start(0, 0, 5, 0)
				hs.start(1, 0, 10, 0)
				hs.start(2, 0, 11, 0)
				hs.onFire[0] = func() {
					if hs.h.Len() != 1 || hs.e[1].Active() || !hs.e[1].Due() || !hs.e[2].Active() {
						hs.t.Errorf("in callback: Len %d, e1 active %v due %v, e2 active %v",
							hs.h.Len(), hs.e[1].Active(), hs.e[1].Due(), hs.e[2].Active())
					}
					if d, _ := hs.h.Next(); d != 11 {
						hs.t.Errorf("in callback: Next = %d, want 11", d)
					}
				}
			},
			want: []int{0, 1},
		},
		{
			name: "a callback stopping a later due timer prevents it",
			setup: func(hs *harness) {
				hs.start(0, 0, 5, 0)
				hs.start(1, 0, 6, 0)
				hs.start(2, 0, 7, 5)
				hs.onFire[0] = func() {
					if hs.h.Stop(hs.e[2]) {
						hs.t.Error("Stop of a collected timer = true, want false (not active)")
					}
				}
			},
			want: []int{0, 1},
			check: func(hs *harness) {
				if hs.e[2].Active() {
					hs.t.Error("stopped repeating timer was re-armed")
				}
			},
		},
		{
			name: "a callback restarting a later due timer defers it",
			setup: func(hs *harness) {
				hs.start(0, 0, 5, 0)
				hs.start(1, 0, 6, 0)
				hs.start(2, 0, 7, 0)
				hs.onFire[0] = func() { hs.start(2, 10, 0, 0) }
			},
			want:      []int{0, 1},
			wantAfter: []int{2},
		},
		{
			name: "Again on a later due repeating timer defers it",
			setup: func(hs *harness) {
				hs.start(0, 0, 5, 0)
				hs.start(1, 0, 6, 0)
				hs.onFire[0] = func() {
					hs.e[1].SetRepeat(1)
					if err := hs.h.Again(hs.e[1], 9); err != nil {
						hs.t.Error(err)
					}
				}
			},
			want:      []int{0},
			wantAfter: []int{1},
		},
		{
			name: "a callback restarting itself waits for the next run",
			setup: func(hs *harness) {
				hs.start(0, 0, 10, 0)
				hs.onFire[0] = func() {
					if hs.e[0].Active() {
						hs.t.Error("one-shot timer active in its callback")
					}
					hs.start(0, 10, 0, 0)
				}
			},
			want:      []int{0},
			wantAfter: []int{0},
		},
		{
			name: "a repeating timer is re-armed before its callback",
			setup: func(hs *harness) {
				hs.start(0, 0, 4, 3)
				want := int64(13) // first run at 10
				hs.onFire[0] = func() {
					if !hs.e[0].Active() || hs.e[0].Deadline() != want {
						hs.t.Errorf("in callback: Active %v Deadline %d, want true %d",
							hs.e[0].Active(), hs.e[0].Deadline(), want)
					}
					want += 3
				}
			},
			want: []int{0},
			check: func(hs *harness) {
				if got := hs.run(13); !slices.Equal(got, []int{0}) {
					hs.t.Errorf("fired %v at 13, want [0]", got)
				}
			},
		},
		{
			name: "a repeating timer can stop itself in its callback",
			setup: func(hs *harness) {
				hs.start(0, 0, 4, 3)
				hs.onFire[0] = func() {
					if !hs.h.Stop(hs.e[0]) {
						hs.t.Error("Stop of the re-armed timer = false, want true")
					}
				}
			},
			want: []int{0},
			check: func(hs *harness) {
				if hs.e[0].Active() || hs.h.Len() != 0 || len(hs.run(math.MaxInt64)) != 0 {
					hs.t.Error("stopped repeating timer is still armed")
				}
			},
		},
		{
			name: "a late run re-arms from the run's now, without catching up",
			setup: func(hs *harness) {
				hs.start(0, 0, 1, 3) // due at 1, 4, 7, 10: one fire at 10
			},
			want: []int{0},
			check: func(hs *harness) {
				if d := hs.e[0].Deadline(); d != 13 {
					hs.t.Errorf("Deadline = %d, want 13", d)
				}
			},
		},
		{
			name: "a long callback does not move the re-arm",
			setup: func(hs *harness) {
				hs.start(0, 0, 10, 5)
				// The callback "takes" until 100: the caller's clock moves on,
				// but the heap only knows the run's now.
			},
			want: []int{0},
			check: func(hs *harness) {
				if d := hs.e[0].Deadline(); d != 15 {
					hs.t.Errorf("Deadline = %d, want 15 (run's now + repeat)", d)
				}
				if got := hs.run(100); !slices.Equal(got, []int{0}) {
					hs.t.Errorf("fired %v at 100, want [0] (no catch-up)", got)
				}
				if d := hs.e[0].Deadline(); d != 105 {
					hs.t.Errorf("Deadline = %d, want 105", d)
				}
			},
		},
		{
			name: "repeating and one-shot timers in one run",
			setup: func(hs *harness) {
				hs.start(0, 0, 10, 1)
				hs.start(1, 0, 10, 0)
				hs.start(2, 0, 10, 1)
			},
			want: []int{0, 1, 2},
			check: func(hs *harness) {
				if got, want := hs.active(), []int{0, 2}; !slices.Equal(got, want) {
					hs.t.Errorf("active %v, want %v", got, want)
				}
				if got, want := hs.run(11), []int{0, 2}; !slices.Equal(got, want) {
					hs.t.Errorf("fired %v at 11, want %v", got, want)
				}
			},
		},
		{
			name: "a callback stopping an earlier, already run timer",
			setup: func(hs *harness) {
				hs.start(0, 0, 5, 2)
				hs.start(1, 0, 6, 0)
				hs.onFire[1] = func() {
					if !hs.h.Stop(hs.e[0]) {
						hs.t.Error("Stop of re-armed e0 = false")
					}
				}
			},
			want: []int{0, 1},
			check: func(hs *harness) {
				if hs.h.Len() != 0 {
					hs.t.Errorf("Len = %d, want 0", hs.h.Len())
				}
			},
		},
		{
			name: "RunExpired from a callback does nothing",
			setup: func(hs *harness) {
				hs.start(0, 0, 5, 0)
				hs.start(1, 0, 6, 0)
				hs.onFire[0] = func() {
					hs.start(2, 0, 0, 0)
					if n := hs.h.RunExpired(10); n != 0 {
						hs.t.Errorf("nested RunExpired = %d, want 0", n)
					}
				}
			},
			want:      []int{0, 1},
			wantAfter: []int{2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, 3)
			tt.setup(hs)
			if got := hs.run(10); !slices.Equal(got, tt.want) {
				t.Errorf("first run fired %v, want %v", got, tt.want)
			}
			if tt.check != nil {
				tt.check(hs)
			}
			if tt.wantAfter != nil {
				if got := hs.run(10); !slices.Equal(got, tt.wantAfter) {
					t.Errorf("second run fired %v, want %v", got, tt.wantAfter)
				}
			}
		})
	}
}

func TestMoveToAnotherHeap(t *testing.T) {
	h, other := timers.New(), timers.New()
	var fired []string
	var a, b timers.Entry
	a.Fn = func() {
		fired = append(fired, "a")
		// b is collected by h's run; starting it on other takes it away.
		if err := other.Start(&b, 10, 0, 0); err != nil {
			t.Error(err)
		}
		if n := other.RunExpired(10); n != 1 {
			t.Errorf("other.RunExpired = %d, want 1", n)
		}
	}
	b.Fn = func() { fired = append(fired, "b") }
	for _, e := range []*timers.Entry{&a, &b} {
		if err := h.Start(e, 0, 5, 0); err != nil {
			t.Fatal(err)
		}
	}
	if n := h.RunExpired(10); n != 1 {
		t.Errorf("h.RunExpired = %d, want 1 (b fired by the other heap)", n)
	}
	if want := []string{"a", "b"}; !slices.Equal(fired, want) {
		t.Errorf("fired %v, want %v", fired, want)
	}
	// An active timer started on another heap leaves the first one.
	if err := h.Start(&a, 10, 5, 0); err != nil {
		t.Fatal(err)
	}
	if err := other.Start(&a, 10, 7, 0); err != nil {
		t.Fatal(err)
	}
	if h.Len() != 0 || other.Len() != 1 || h.Stop(&a) {
		t.Errorf("after the move: h.Len %d, other.Len %d", h.Len(), other.Len())
	}
	for _, x := range []*timers.Heap{h, other} {
		if err := x.Verify(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestNilFn(t *testing.T) {
	h := timers.New()
	var a, b timers.Entry
	called := 0
	b.Fn = func() { called++ }
	if err := h.Start(&a, 0, 1, 2); err != nil {
		t.Fatal(err)
	}
	if err := h.Start(&b, 0, 1, 0); err != nil {
		t.Fatal(err)
	}
	if n := h.RunExpired(1); n != 1 || called != 1 {
		t.Errorf("RunExpired = %d (called %d), want 1", n, called)
	}
	if !a.Active() || a.Deadline() != 3 {
		t.Errorf("nil-Fn repeating timer: Active %v Deadline %d, want true 3", a.Active(), a.Deadline())
	}
}

type testPanic struct{ id int }

func TestPanic(t *testing.T) {
	tests := []struct {
		name      string
		starts    []start
		panicker  int
		want      []int // fired by the panicking run
		wantLen   int   // right after it
		wantAfter []int // fired by the next run at 10
	}{
		{
			name:      "first of many",
			starts:    []start{{id: 0, timeout: 1}, {id: 1, timeout: 2}, {id: 2, timeout: 3}, {id: 3, timeout: 20}},
			panicker:  0,
			want:      []int{0},
			wantLen:   3,
			wantAfter: []int{1, 2},
		},
		{
			name:      "middle, equal deadlines keep their order",
			starts:    []start{{id: 0, timeout: 5}, {id: 1, timeout: 5}, {id: 2, timeout: 5}, {id: 3, timeout: 5}},
			panicker:  1,
			want:      []int{0, 1},
			wantLen:   2,
			wantAfter: []int{2, 3},
		},
		{
			name:      "last",
			starts:    []start{{id: 0, timeout: 1}, {id: 1, timeout: 2}},
			panicker:  1,
			want:      []int{0, 1},
			wantLen:   0,
			wantAfter: nil,
		},
		{
			name:      "repeating panicker stays armed",
			starts:    []start{{id: 0, timeout: 1, repeat: 100}, {id: 1, timeout: 2, repeat: 0}},
			panicker:  0,
			want:      []int{0},
			wantLen:   2, // e0 re-armed at 110, e1 back in the tree
			wantAfter: []int{1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := newHarness(t, 4)
			for _, s := range tt.starts {
				hs.start(s.id, s.now, s.timeout, s.repeat)
			}
			hs.onFire[tt.panicker] = func() { panic(testPanic{tt.panicker}) }
			hs.fired = nil
			func() {
				defer func() {
					if r := recover(); r != (testPanic{tt.panicker}) {
						t.Errorf("recovered %v, want the Fn's panic", r)
					}
				}()
				hs.h.RunExpired(10)
				t.Error("RunExpired returned normally")
			}()
			hs.verify()
			if !slices.Equal(hs.fired, tt.want) {
				t.Errorf("panicking run fired %v, want %v", hs.fired, tt.want)
			}
			if got := hs.h.Len(); got != tt.wantLen {
				t.Errorf("Len after the panic = %d, want %d", got, tt.wantLen)
			}
			for _, i := range tt.wantAfter {
				if !hs.e[i].Active() {
					t.Errorf("e%d not active after the panic", i)
				}
			}
			hs.onFire[tt.panicker] = nil
			if got := hs.run(10); !slices.Equal(got, tt.wantAfter) {
				t.Errorf("next run fired %v, want %v", got, tt.wantAfter)
			}
		})
	}

	t.Run("timer stopped by a callback before the panic stays stopped", func(t *testing.T) {
		hs := newHarness(t, 3)
		hs.start(0, 0, 1, 0)
		hs.start(1, 0, 2, 0)
		hs.start(2, 0, 3, 0)
		hs.onFire[0] = func() {
			hs.h.Stop(hs.e[2])
			panic(testPanic{0})
		}
		func() {
			defer func() { _ = recover() }()
			hs.h.RunExpired(10)
		}()
		hs.verify()
		if got, want := hs.active(), []int{1}; !slices.Equal(got, want) {
			t.Errorf("active %v, want %v", got, want)
		}
	})
}

func TestVerifyDetectsCorruption(t *testing.T) {
	hs := newHarness(t, 3)
	for i := range 3 {
		hs.start(i, 0, int64(10*(i+1)), 0)
	}
	hs.e[0].SetDeadlineUnsafe(25)
	if err := hs.h.Verify(); err == nil {
		t.Error("Verify accepted a tree out of order")
	}
	hs.e[0].SetDeadlineUnsafe(10)
	if err := hs.h.Verify(); err != nil {
		t.Errorf("Verify after repair: %v", err)
	}
}

func TestAllocs(t *testing.T) {
	// Background timers so that the tree has several levels.
	newHeap := func() (*timers.Heap, *timers.Entry) {
		h := timers.New()
		for i := range 500 {
			if err := h.Start(&timers.Entry{Fn: func() {}}, 0, int64(1_000_000+i%37), 0); err != nil {
				t.Fatal(err)
			}
		}
		e := &timers.Entry{Fn: func() {}}
		if err := h.Start(e, 0, 500, 0); err != nil {
			t.Fatal(err)
		}
		return h, e
	}
	tests := []struct {
		name string
		op   func(h *timers.Heap, e *timers.Entry, now int64)
	}{
		{
			name: "restart an active timer",
			op: func(h *timers.Heap, e *timers.Entry, now int64) {
				_ = h.Start(e, now, 1_000_000+now%50, 0)
			},
		},
		{
			name: "Start and RunExpired firing it",
			op: func(h *timers.Heap, e *timers.Entry, now int64) {
				_ = h.Start(e, now, 0, 0)
				if h.RunExpired(now) != 1 {
					panic("did not fire")
				}
			},
		},
		{
			name: "Stop and Start",
			op: func(h *timers.Heap, e *timers.Entry, now int64) {
				h.Stop(e)
				_ = h.Start(e, now, 1_000_000+now%50, 0)
			},
		},
		{
			name: "repeating timer fired by RunExpired",
			op: func(h *timers.Heap, e *timers.Entry, now int64) {
				if now == 0 {
					_ = h.Start(e, 0, 0, 1)
				}
				if h.RunExpired(now) != 1 {
					panic("did not fire")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, e := newHeap()
			var now int64
			tt.op(h, e, now) // warm up
			now = 0
			allocs := testing.AllocsPerRun(1000, func() {
				tt.op(h, e, now)
				now++
			})
			if allocs != 0 {
				t.Errorf("%v allocations per op, want 0", allocs)
			}
			if err := h.Verify(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// countingOwner is an Entry's owner that fires through Handler.
type countingOwner struct {
	e     timers.Entry
	fired int
}

func (o *countingOwner) OnTimer() { o.fired++ }

// TestHandler: with Fn nil, RunExpired calls the Handler (and counts it); Fn, when set, wins.
func TestHandler(t *testing.T) {
	h := timers.New()
	o := &countingOwner{}
	o.e.Handler = o
	if err := h.Start(&o.e, 0, 10, 10); err != nil {
		t.Fatal(err)
	}
	if n := h.RunExpired(25); n != 1 || o.fired != 1 {
		t.Fatalf("RunExpired made %d calls, OnTimer ran %d times; want 1, 1", n, o.fired)
	}
	fn := 0
	o.e.Fn = func() { fn++ }
	if n := h.RunExpired(40); n != 1 || fn != 1 || o.fired != 1 {
		t.Fatalf("with Fn set: %d calls, Fn %d, OnTimer %d; want 1, 1, 1", n, fn, o.fired)
	}
	if allocs := testing.AllocsPerRun(100, func() {
		o.e.Fn = nil
		h.Start(&o.e, 0, 0, 0)
		h.RunExpired(0)
	}); allocs != 0 {
		t.Errorf("%v allocations per start and fire through Handler", allocs)
	}
}
