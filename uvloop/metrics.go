package uvloop

import (
	"math"
	"runtime/trace"
	"sync/atomic"
	"time"
)

// This file is what the loop counts about itself (uv_metrics_info, uv_metrics_idle_time,
// Node's performance.eventLoopUtilization): counters cheap enough to stay on, the phase they
// were counted in, and what Metrics reads on demand. observe.go has the optional, costlier
// parts (per-phase time, long tasks, runtime/trace).

// Phase names a phase of the loop's iteration, for Metrics, long-task reports and trace
// regions.
type Phase uint8

// The phases, in the order an iteration runs them after its first timers phase.
const (
	PhaseTimers        Phase = iota // due timers: Timer handles and Node's timeouts
	PhasePending                    // callbacks deferred from the last iteration (write completions, connect errors)
	PhaseIdle                       // Idle handles
	PhasePrepare                    // Prepare handles
	PhaseIdleCallbacks              // RequestIdleCallback's callbacks, when poll would block
	PhasePoll                       // I/O callbacks, Async callbacks, work completions, posted functions
	PhaseCheck                      // Check handles, then Node's immediates
	PhaseClose                      // close callbacks
	NumPhases                       // the number of phases
)

var phaseNames = [NumPhases]string{"timers", "pending", "idle", "prepare", "idle-callbacks", "poll", "check", "close"}

// String returns the phase's name: "timers", "pending", ...
func (p Phase) String() string {
	if p < NumPhases {
		return phaseNames[p]
	}
	return "unknown"
}

// PhaseMetrics is what one phase did.
type PhaseMetrics struct {
	// Callbacks counts the callbacks the loop called in the phase, each followed by its
	// nextTick/microtask drain (the ticks and microtasks themselves are not counted).
	Callbacks uint64
	// Time is the time spent in the phase, its callbacks and drains included; for the poll
	// phase, without the time blocked waiting (IdleTime). It stays zero unless the loop was
	// made WithPhaseTiming: it costs a clock read at each phase boundary.
	Time time.Duration
}

// Metrics is what the loop counted (uv_metrics_info and more) and, for the depths, what is
// queued at the moment Metrics is called. It is a plain value: a copy that later work does
// not change.
type Metrics struct {
	Backend   Backend // the kernel mechanism the loop waits with (WithBackend)
	LoopCount uint64  // iterations that reached the poll phase (uv_metrics_info's loop_count)
	// Events counts the I/O events the poller reported, and each batch of wake-ups (work
	// done, posts, async sends) or of ring file completions as one, as libuv counts its
	// async fd and its ring (uv_metrics_info's events).
	Events        uint64
	EventsWaiting uint64        // of those, events reported by a wait that could block (events_waiting)
	IdleTime      time.Duration // time blocked in the poll phase's wait (uv_metrics_idle_time)
	// Sleeps counts the poll phases that slept: nothing was ready and the last look at the
	// queues found nothing from other goroutines, so the loop blocked on the poller or, with
	// no fd registered, on a channel.
	Sleeps uint64
	// Wakeups counts the sleeps that another goroutine ended (Post, Async.Send, finished
	// work): each cost one signal, a write to the poller's wake-up (an eventfd, EVFILT_USER,
	// a pipe) or a channel send. It never exceeds Sleeps: a waker signals only a loop that
	// sleeps, and only one waker per sleep; the others only queue.
	Wakeups uint64

	// Phases is indexed by Phase.
	Phases [NumPhases]PhaseMetrics

	// Queues are the depths at the time of the call.
	Queues QueueDepths
}

// QueueDepths is how much waits in each of the loop's queues.
type QueueDepths struct {
	Ticks         int // nextTick callbacks not yet run
	Microtasks    int // microtasks and promise reactions not yet run
	Immediates    int // immediates queued (SetImmediate)
	Timeouts      int // Node timeouts and intervals set and not yet fired or cleared
	Timers        int // Timer handles armed
	Pending       int // callbacks deferred to the pending phase
	Posted        int // functions posted (Post) and not yet run
	IdleCallbacks int // RequestIdleCallback callbacks not yet run
	PoolQueue     int // work queued on the work pool that no worker has taken yet
	Closing       int // handles waiting for the close phase
}

// metrics is the loop's counters. Loop goroutine only.
type metrics struct {
	loopCount     uint64
	events        uint64
	eventsWaiting uint64
	idle          int64 // ns blocked in the wait
	sleeps        uint64
	loopStart     int64                   // ns since epoch when Run first ran; 0 before
	phase         Phase                   // the phase running now (or last run)
	callbacks     [NumPhases]uint64       // per phase; apart from phases: one scaled index to count one
	phases        [NumPhases]PhaseMetrics // Time only (Callbacks is filled in by Metrics)
	reqs          [numReqKinds]int        // requests in flight by kind; activeReqs is their sum
}

// Metrics returns the loop's counters and queue depths. Loop goroutine only; from another
// goroutine, Post a function that calls it.
func (l *Loop) Metrics() Metrics {
	m := &l.metrics
	out := Metrics{
		Backend:       l.Backend(),
		LoopCount:     m.loopCount,
		Events:        m.events,
		EventsWaiting: m.eventsWaiting,
		IdleTime:      time.Duration(m.idle),
		Sleeps:        m.sleeps,
		Wakeups:       l.wakeups.Load(),
		Phases:        m.phases,
	}
	for p, n := range m.callbacks {
		out.Phases[p].Callbacks = n
	}
	q := &out.Queues
	q.Ticks, q.Microtasks = l.ticks.Lens()
	q.Immediates = l.immediates.Len()
	q.Timeouts = l.node.live
	q.Timers = l.timers.Len()
	if l.node.handle.entry.Active() {
		q.Timers-- // Node's own, counted as its timeouts
	}
	q.Pending = l.pending.Len()
	q.Posted = l.posted.Len()
	q.IdleCallbacks = l.idleCbs.len()
	l.work.mu.Lock()
	q.PoolQueue = l.work.queue.Len()
	l.work.mu.Unlock()
	for h := l.closing; h != nil; h = h.nextClose {
		q.Closing++
	}
	return out
}

// enter marks the start of phase p: the callbacks that follow count for it. With tracing,
// timing or long tasks on, it is also a check (observe.go): it may end the last phase's
// timing and region.
// A phase with nothing to run is not entered (except poll, always entered): the loop's
// bookkeeping there counts with the phase before.
func (l *Loop) enter(p Phase) {
	if atomic.LoadUint32(&l.obs.due) != 0 {
		l.observePhase(p)
	}
	l.metrics.phase = p
}

// observeIteration follows the loop's own clock read at the end of an iteration:
// one comparison, whose slow path, observeLate, runs about once a tick while something is
// observed and once per traceLook otherwise.
func (l *Loop) observeIteration() {
	if l.now >= l.obs.lateAt {
		l.observeLate()
	}
}

// observeLate looks whether an execution trace started or stopped (the next check then takes
// its slow path, which notices), and uses the loop's cached time when the ticker is late:
// while anything is observed (the observer has read the clock: mark is set), if a tick or
// more passed since the observer's last read, that time goes to the phase that ran last,
// with no clock read of its own. So the time of the phases still goes to them when the
// ticker goroutine could not run (a loaded machine) until a phase had ended.
func (l *Loop) observeLate() {
	o := &l.obs
	m := &l.metrics
	if trace.IsEnabled() != o.tracing {
		atomic.StoreUint32(&o.due, 1)
	}
	if o.mark == 0 {
		o.lateAt = l.now + traceLook
		return
	}
	if o.timing {
		m.phases[m.phase%NumPhases].Time += time.Duration(max(l.now-o.mark-(m.idle-o.idleMark), 0))
	}
	o.setMark(l.now, m.idle)
}

// enterTimers enters the timers phase when its first timer fires (Timer.fire): the timers
// phase is entered only when it has something to run, so that runTimers stays one call
// inlined in Run. Every other phase's enter (poll's at least) comes between two timers
// phases, and Run's end sets the phase to none, so the phase is entered again each time.
func (l *Loop) enterTimers() {
	if l.metrics.phase != PhaseTimers {
		l.enterTimersPhase()
	}
}

// enterTimersPhase is enterTimers' rare path, out of line so that enterTimers inlines.
func (l *Loop) enterTimersPhase() { l.enter(PhaseTimers) }

// countCallback counts a callback of the current phase.
func (l *Loop) countCallback() { l.metrics.callbacks[l.metrics.phase%NumPhases]++ }

// waitBegin is called before a wait that may block; it returns the time for waitEnd.
func (l *Loop) waitBegin() int64 {
	if t := l.obs.ticker; t != nil {
		t.asleep.Store(true) // no ticks while blocked: the ticker parks
	}
	return int64(time.Since(l.epoch))
}

// waitEnd is called after a wait that may block, with the loop time already updated.
func (l *Loop) waitEnd(begin int64, events int) {
	m := &l.metrics
	if d := l.now - begin; d > 0 {
		m.idle += d
	}
	m.eventsWaiting += uint64(events)
	if t := l.obs.ticker; t != nil {
		t.asleep.Store(false)
		t.wake()
	}
}

// startMetrics records the start of the first Run (Node's loopStart) and starts (or wakes)
// the ticker of WithPhaseTiming and WithLongTasks.
func (l *Loop) startMetrics() {
	if l.metrics.loopStart == 0 {
		l.metrics.loopStart = max(int64(time.Since(l.epoch)), 1)
		l.metrics.phase = NumPhases // none yet: the first timers phase is entered (enterTimers)
	}
	t := trace.IsEnabled()
	if t != l.obs.tracing {
		atomic.StoreUint32(&l.obs.due, 1) // the first check notices it
	}
	if l.obs.tick > 0 {
		l.startTicker()
	}
	if l.obs.tick > 0 || t {
		l.obs.setMark(max(int64(time.Since(l.epoch)), 1), l.metrics.idle)
	}
}

// ELU is an event-loop utilization sample, the shape of Node's
// performance.eventLoopUtilization(): the time the loop was idle (blocked in the poll
// phase's wait), the time it was active (the rest since Run first ran), and
// Active/(Idle+Active).
type ELU struct {
	Idle        time.Duration
	Active      time.Duration
	Utilization float64
}

// EventLoopUtilization returns the loop's utilization since Run first ran, as Node's
// performance.eventLoopUtilization() does: all zero before the first Run. The time is read
// fresh, not the cached loop time. Loop goroutine only.
func (l *Loop) EventLoopUtilization() ELU {
	m := &l.metrics
	if m.loopStart == 0 {
		return ELU{}
	}
	idle := time.Duration(m.idle)
	active := time.Since(l.epoch) - time.Duration(m.loopStart) - idle
	return newELU(idle, active)
}

// Sub returns the utilization between prev and e (Node's eventLoopUtilization(e, prev)): the
// idle and active time that passed, and their ratio. With nothing between them the ratio is
// NaN, as in Node.
func (e ELU) Sub(prev ELU) ELU { return newELU(e.Idle-prev.Idle, e.Active-prev.Active) }

func newELU(idle, active time.Duration) ELU {
	u := math.NaN()
	if idle+active != 0 {
		u = float64(active) / float64(idle+active)
	}
	return ELU{Idle: idle, Active: active, Utilization: u}
}

// ReqKind tells the kinds of request apart, as uv_req_type does.
type ReqKind uint8

// The kinds of request.
const (
	ReqOther       ReqKind = iota // a request of no kind below
	ReqWork                       // QueueWork, and the file system and DNS work on the pool
	ReqGetAddrInfo                // a DNS lookup, waiting for a slot of the pool or running
	ReqWrite                      // a stream write
	ReqShutdown                   // a stream shutdown
	ReqConnect                    // a TCP or pipe connect
	ReqUDPSend                    // a UDP send
	numReqKinds
)

var reqKindNames = [numReqKinds]string{"other", "work", "getaddrinfo", "write", "shutdown", "connect", "udp_send"}

// String returns the kind's name: "work", "write", ...
func (k ReqKind) String() string {
	if k < numReqKinds {
		return reqKindNames[k]
	}
	return reqKindNames[0]
}

// reqStart counts a request of kind k in flight.
func (l *Loop) reqStart(k ReqKind) {
	l.activeReqs++
	l.metrics.reqs[k]++
}

// reqDone counts a request of kind k done.
func (l *Loop) reqDone(k ReqKind) {
	l.activeReqs--
	l.metrics.reqs[k]--
}

// Resources is what keeps the loop alive, by kind (Node's
// process.getActiveResourcesInfo, libuv's uv_walk with uv_is_active).
type Resources struct {
	Handles  map[HandleKind]int // active handles by kind, the loop's own not counted
	Refed    int                // of those, the ref'd ones: they keep the loop alive
	Requests map[ReqKind]int    // requests in flight by kind (a DNS lookup on the pool counts as getaddrinfo and work)
}

// ActiveResources counts the active handles and the requests in flight, by kind. It walks
// the loop's handles: it is for a look now and then, not for every iteration. Loop goroutine
// only.
func (l *Loop) ActiveResources() Resources {
	r := Resources{Handles: map[HandleKind]int{}, Requests: map[ReqKind]int{}}
	for h := l.handles.head; h != nil; h = h.next {
		if h.flags&flagInternal != 0 || h.flags&flagActive == 0 {
			continue
		}
		r.Handles[h.kind]++
		if h.flags&flagRef != 0 {
			r.Refed++
		}
	}
	known := 0
	for k, n := range l.metrics.reqs {
		if n > 0 {
			r.Requests[ReqKind(k)] += n
		}
		if k != int(ReqOther) {
			known += n
		}
	}
	if other := l.activeReqs - known; other > 0 { // counted by code that names no kind
		r.Requests[ReqOther] = other
	}
	return r
}
