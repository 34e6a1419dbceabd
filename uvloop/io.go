package uvloop

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/internal/queue"
	"github.com/uvgo/uvgo/poller"
)

// Events is the portable readiness bit set: Readable, Writable, Hangup, Error.
type Events = poller.Events

// The readiness bits.
const (
	Readable = poller.Readable
	Writable = poller.Writable
	Hangup   = poller.Hangup
	Error    = poller.Error
)

// ioWatcher is the loop's record of interest in one fd (libuv's uv__io_t). Handles that own an
// fd (Poll, TCP, ...) embed one. Loop goroutine only.
type ioWatcher struct {
	fd         int
	tag        uint32 // generation registered with the poller; events with another tag are stale
	want       Events // the interest the handle asked for
	have       Events // the interest the poller has; meaningful while registered
	registered bool
	dirty      bool // queued in ioTable.dirty
	// ready is the owner's dispatch: the events that are ready, or err when the poller
	// refused the fd (then events is Error). nil for a stream's watcher: see st.
	ready func(events Events, err error)
	// st is the stream that embeds the watcher, if one does (set by stream.init): its ioReady
	// is called directly, and what the poller read for it (RecvStart) goes to its onRecv, so
	// that a connection carries no method values (each one a 16-byte allocation).
	st *stream
}

// notify calls the owner's dispatch of events, or of err when the poller refused the fd.
func (w *ioWatcher) notify(events Events, err error) {
	if w.st != nil {
		w.st.ioReady(events, err)
	} else {
		w.ready(events, err)
	}
}

// ioTable maps fds to watchers in a slice indexed by fd, and defers interest changes until
// just before the poller waits, skipping those that cancel out. Loop goroutine only.
type ioTable struct {
	byFd   queue.Table[*ioWatcher] // grows in chunks, never copied: an idle server's GC may not run for long
	dirty  []*ioWatcher
	failed []ioFailure // refused by the poller in the last flush; rare, so not a field of each watcher
	gen    uint32
	nfds   int            // fds registered with the poller
	recvs  int            // streams the poller reads for (RecvStart), listeners it accepts for: they need the kernel wait too
	sends  int            // sends in flight (ring_write.go): they need the kernel wait too
	lost   int            // sends a close could not end (SendForget gave up): the kernel still holds their bytes and socket
	batch  []poller.Event // the batch dispatch runs
	next   int            // batch[next:] is what dispatch has not reached yet (rest)
}

// ioFailure is a watcher the poller refused, and why; its owner hears of it in the poll phase.
type ioFailure struct {
	w   *ioWatcher
	err error
}

// failure returns w's index in failed, or -1.
func (t *ioTable) failure(w *ioWatcher) int {
	for i := range t.failed {
		if t.failed[i].w == w {
			return i
		}
	}
	return -1
}

// attach binds w to fd. It fails if another watcher holds the fd.
func (t *ioTable) attach(w *ioWatcher, fd int, ready func(Events, error)) error {
	if fd < 0 {
		return ErrBadFd
	}
	slot := t.byFd.At(fd)
	if *slot != nil {
		// Both sentinels: libuv's uv_tcp_open, uv_pipe_open and uv_poll_init say EEXIST.
		return fmt.Errorf("%w: fd %d: %w", ErrFdInUse, fd, syscall.EEXIST)
	}
	t.gen++
	*w = ioWatcher{fd: fd, tag: t.gen, ready: ready, st: w.st}
	*slot = w
	return nil
}

// start adds ev to w's interest (uv__io_start); the poller learns of it before the next wait.
func (t *ioTable) start(w *ioWatcher, ev Events) {
	w.want |= ev
	t.touch(w)
}

// stop removes ev from w's interest (uv__io_stop).
func (t *ioTable) stop(w *ioWatcher, ev Events) {
	w.want &^= ev
	t.touch(w)
}

func (t *ioTable) touch(w *ioWatcher) {
	if !w.dirty {
		w.dirty = true
		t.dirty = append(t.dirty, w)
	}
}

// stopNow removes all of w's interest and takes w out of the poller at once, not at the next
// flush, as uv_poll_stop does: the owner may close the fd next, and an io_uring poll request
// holds the file until its removal is submitted. w takes a new generation, so that the events
// of the batch being dispatched that were collected for it are dropped (a Hangup or Error
// would get through the interest mask), as uv_poll_stop invalidates the fd's; the next
// registration carries the new one. A refusal of w not reported yet is dropped too.
func (t *ioTable) stopNow(p *poller.Poller, w *ioWatcher) {
	t.stop(w, Readable|Writable)
	t.remove(p, w)
	t.dropFailure(w)
	t.gen++
	w.tag = t.gen
}

// dropFailure forgets w's refusal by the poller, if one waits to be reported.
func (t *ioTable) dropFailure(w *ioWatcher) {
	if i := t.failure(w); i >= 0 {
		t.failed = slices.Delete(t.failed, i, i+1)
	}
}

// remove takes a registered w out of the poller. Its error is dropped, as libuv drops
// EPOLL_CTL_DEL's: the poller forgets the fd anyway, and an fd that its owner closed first
// (EBADF) has left the kernel's set already.
func (t *ioTable) remove(p *poller.Poller, w *ioWatcher) {
	if w.registered {
		p.Remove(w.fd)
		w.registered = false
		t.nfds--
	}
}

// detach forgets w at once: it leaves the poller now (before its owner closes the fd) and its
// generation retires, so events already collected for it are dropped.
func (t *ioTable) detach(p *poller.Poller, w *ioWatcher) {
	t.remove(p, w)
	if w.dirty {
		t.dirty = deleteWatcher(t.dirty, w)
		w.dirty = false
	}
	t.dropFailure(w)
	if slot := t.byFd.Get(w.fd); slot != nil && *slot == w {
		*slot = nil
	}
	w.want, w.tag = 0, 0
}

func deleteWatcher(ws []*ioWatcher, w *ioWatcher) []*ioWatcher {
	for i, d := range ws {
		if d == w {
			copy(ws[i:], ws[i+1:])
			ws[len(ws)-1] = nil
			return ws[:len(ws)-1]
		}
	}
	return ws
}

// flush hands the recorded interest changes to the poller. A watcher the poller refuses (Add,
// Modify) loses its interest and goes to the failed list, to hear of it in the poll phase; a
// removal cannot fail (remove).
func (t *ioTable) flush(p *poller.Poller) {
	for i, w := range t.dirty {
		t.dirty[i] = nil
		w.dirty = false
		var err error
		switch {
		case w.want == 0 && w.registered:
			t.remove(p, w)
		case w.want != 0 && !w.registered:
			if err = p.Add(w.fd, w.want, w.tag); err == nil {
				w.registered, w.have = true, w.want
				t.nfds++
			}
		case w.want != 0 && w.want != w.have:
			if err = p.Modify(w.fd, w.want, w.tag); err == nil {
				w.have = w.want
			}
		}
		if err != nil && t.failure(w) < 0 {
			w.want = 0
			t.failed = append(t.failed, ioFailure{w, err})
		}
	}
	t.dirty = t.dirty[:0]
}

// rest is the part of the batch being dispatched that dispatch has not reached yet.
func (t *ioTable) rest() []poller.Event { return t.batch[t.next:] }

// reportFailed tells the owners of refused watchers, once each.
func (l *Loop) reportFailed() {
	for len(l.io.failed) > 0 {
		f := l.io.failed[0]
		l.io.failed = slices.Delete(l.io.failed, 0, 1)
		f.w.notify(Error, f.err)
		l.afterCallback()
	}
}

// poll is the poll phase: flush interest, wait up to timeout (-1: forever) for I/O and
// wake-ups, then run the I/O callbacks, the Async callbacks, the after callbacks of finished
// work and the posted functions (those all queued while the I/O callbacks ran wait for the
// next poll phase: see kernelWait). With no fd registered the loop waits on a channel (or not
// at all, for a zero timeout); otherwise in the poller (wake.go). Run enters the phase
// (enterPoll) right before it.
func (l *Loop) poll(timeout time.Duration) {
	late := false
	if len(l.io.dirty) > 0 {
		l.io.flush(l.poller)
	}
	if len(l.io.failed) > 0 || len(l.streams.held) > 0 {
		timeout = 0 // their owners hear of it in this poll phase
	}
	if l.io.nfds > 0 || l.io.recvs > 0 || l.io.sends > 0 || len(l.streams.held) > 0 || l.ringFS.inflight > 0 || forceKernelWait {
		late = l.kernelWait(timeout)
	} else if timeout != 0 {
		l.chanWait(timeout)
	}
	// A batch of ring file completions, and a batch of wake-ups (work done, posts, async
	// sends), each counts as one event, as libuv counts its ring's and its async fd's.
	if l.ringFS.inflight > 0 && l.poller.FilesDone() {
		l.metrics.events++
		l.runRingFS() // as the pool's completions, after the I/O callbacks
	}
	if l.wakeupsQueued() && !late {
		l.metrics.events++
		l.runWakeups()
	}
	if len(l.io.failed) > 0 {
		l.reportFailed()
	}
	l.endPhase()
}

// kernelWait waits for I/O in the poller and runs the I/O callbacks. It looks without
// blocking first: a busy loop finds its events there and neither yields nor sleeps. Only when
// nothing is ready does it yield (an unlocked loop lets the goroutines its callbacks made
// ready run first, rather than leave them queued behind a processor that is blocked in a
// system call until the runtime takes it back), then announce the sleep, look at the queues a
// last time and block. An interrupted wait goes on with the time left.
//
// A loop whose last wait blocked and woke for one event at most (or none: a timer, a wake-up)
// takes its events one at a time, and would find nothing in the look: it goes straight to the
// blocking wait, which comes back at once when something is ready, and saves the look's
// system call on every round trip of a lone connection.
//
// The work other goroutines queue runs after the I/O callbacks of the same poll phase; when
// the yield or the last look found such work, the I/O is looked at once more first, so that
// the work does not overtake I/O that was ready before it was queued.
//
// It reports whether the wake-ups queued now all came while the I/O callbacks ran (late):
// as libuv's async fd and signal pipe, wake-ups queued when the wait ended are in the batch,
// and their callbacks run after its I/O callbacks with those queued meanwhile; wake-ups all
// queued while the I/O callbacks run (a child's exit after a kill made by one of them) wait
// for the next poll phase, which does not block.
func (l *Loop) kernelWait(timeout time.Duration) (late bool) {
	begin := int64(-1) // when the blocking wait began, for IdleTime; -1: it did not block
	var events []poller.Event
	var err error
	if timeout == 0 || !l.slept {
		l.looks++
		events, _, err = l.poller.Wait(0)
	}
	l.slept = false
	if err == nil && len(events) == 0 && timeout != 0 && !l.poller.FilesDone() {
		if !l.lockThread {
			runtime.Gosched()
		}
		if l.wakeupsQueued() || !l.sleepOn(sleepKernel) {
			// Other goroutines queued work meanwhile: look at the I/O again, so that what
			// became ready before the work was queued (a child's output before its exit) is
			// dispatched before it, as when the wake-up came through the kernel queue.
			events, _, err = l.poller.Wait(0)
		} else {
			begin = l.waitBegin()
			events, err = l.kernelSleep(timeout)
			l.wokeUp(sleepKernel)
			l.slept = len(events) <= 1
		}
	}
	if timeout != 0 {
		l.UpdateTime()
	}
	if begin >= 0 {
		l.waitEnd(begin, len(events))
	}
	if err != nil {
		if !errors.Is(err, poller.ErrInterrupted) {
			l.fatal = err
		}
		return false
	}
	l.metrics.events += uint64(len(events))
	late = len(events) > 0 && !l.wakeupsQueued()
	l.dispatch(events)
	return late
}

// kernelSleep is the blocking wait of kernelWait: up to timeout (-1: forever), again after a
// signal interrupted it, with the time left.
func (l *Loop) kernelSleep(timeout time.Duration) ([]poller.Event, error) {
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	for {
		events, _, err := l.poller.Wait(timeout)
		if !errors.Is(err, poller.ErrInterrupted) {
			return events, err
		}
		if timeout > 0 {
			if timeout = time.Until(deadline); timeout <= 0 {
				return nil, nil
			}
		}
	}
}

// dispatch runs the I/O callbacks of one batch of events. An event whose fd was closed (or
// closed and reused) by an earlier callback of the batch carries a retired tag and is dropped.
func (l *Loop) dispatch(events []poller.Event) {
	t := &l.io
	t.batch, t.next = events, 0
	defer func() {
		if rest := t.rest(); len(rest) > 0 {
			l.keepCompletions(rest) // a callback panicked: no completion is lost
		}
		t.batch, t.next = nil, 0
	}()
	if len(l.streams.held) > 0 {
		l.runHeld() // read by the kernel before these events, all still to come (receivedLater)
	}
	for t.next < len(events) {
		ev := &events[t.next]
		t.next++
		if ev.Accepted() {
			l.accepted(ev, false)
			continue
		}
		w := l.io.byFd.Load(int(ev.Fd))
		if w == nil || w.tag != ev.Tag {
			continue
		}
		if ev.Received() {
			if w.st != nil && w.st.ring.on {
				data, err := l.poller.RecvData(ev)
				w.st.onRecv(data, err)
			}
			continue
		}
		if ev.Sent() {
			if w.st != nil && w.st.rw.on {
				n, err := l.poller.SendResult(ev)
				w.st.onSent(n, err, false)
			}
			continue
		}
		// The poller already adds the interest bits when the kernel reports a hangup of both
		// directions or an error (EPOLLHUP, EPOLLERR), so a reader sees the EOF or the error
		// through its read, as libuv does. Hangup alone may be a half-close (EPOLLRDHUP): it
		// says nothing of writability, so no bit is added for it here.
		got := ev.Events & (w.want | Hangup | Error)
		if got == 0 {
			continue
		}
		var err error
		if got&Error != 0 {
			err = ev.Err() // io_uring: the poll request failed (nil on epoll and kqueue)
		}
		if got&(Hangup|Error) != 0 && w.st != nil && w.st.ring.on && !w.st.readsFirst(t.rest(), ev.Fd, ev.Tag) {
			continue // the socket failed, and the read callback closed the stream
		}
		if w.st != nil { // notify, written out: this is the hot path and notify does not inline
			w.st.ioReady(got, err)
		} else {
			w.ready(got, err)
		}
		l.afterCallback()
	}
}

// runWakeups runs what other goroutines sent: Async callbacks, then the after callbacks of
// finished work, then posted functions.
func (l *Loop) runWakeups() {
	if l.asyncSent.Load() {
		l.runAsyncs()
	}
	if l.work.done.Len() > 0 {
		l.runWorkDone()
	}
	if l.posted.Len() > 0 {
		l.runPosted()
	}
}
