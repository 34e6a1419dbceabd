package uvloop

import (
	"errors"
	"runtime"
	"time"

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
	dirty      bool  // queued in ioTable.dirty
	err        error // why the poller refused the fd; delivered in the poll phase
	// ready is the owner's dispatch: the events that are ready, or err when the poller
	// refused the fd (then events is Error).
	ready func(events Events, err error)
}

// ioTable maps fds to watchers in a slice indexed by fd, and defers interest changes until
// just before the poller waits, skipping those that cancel out. Loop goroutine only.
type ioTable struct {
	byFd   []*ioWatcher
	dirty  []*ioWatcher
	failed []*ioWatcher // refused by the poller in the last flush
	gen    uint32
	nfds   int // fds registered with the poller
}

// attach binds w to fd. It fails if another watcher holds the fd.
func (t *ioTable) attach(w *ioWatcher, fd int, ready func(Events, error)) error {
	if fd < 0 {
		return ErrBadFd
	}
	for fd >= len(t.byFd) {
		t.byFd = append(t.byFd, nil)
	}
	if t.byFd[fd] != nil {
		return errorf(ErrFdInUse, "fd %d", fd)
	}
	t.gen++
	*w = ioWatcher{fd: fd, tag: t.gen, ready: ready}
	t.byFd[fd] = w
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

// detach forgets w at once: it leaves the poller now (before its owner closes the fd) and its
// generation retires, so events already collected for it are dropped.
func (t *ioTable) detach(p *poller.Poller, w *ioWatcher) error {
	var err error
	if w.registered {
		err = p.Remove(w.fd)
		w.registered = false
		t.nfds--
	}
	if w.dirty {
		t.dirty = deleteWatcher(t.dirty, w)
		w.dirty = false
	}
	if w.err != nil {
		t.failed = deleteWatcher(t.failed, w)
		w.err = nil
	}
	if w.fd >= 0 && w.fd < len(t.byFd) && t.byFd[w.fd] == w {
		t.byFd[w.fd] = nil
	}
	w.want, w.tag = 0, 0
	return err
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

// flush hands the recorded interest changes to the poller. A watcher the poller refuses loses
// its interest and goes to the failed list, to hear of it in the poll phase.
func (t *ioTable) flush(p *poller.Poller) {
	for i, w := range t.dirty {
		t.dirty[i] = nil
		w.dirty = false
		var err error
		switch {
		case w.want == 0 && w.registered:
			err = p.Remove(w.fd)
			w.registered = false
			t.nfds--
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
		if err != nil && w.err == nil {
			w.err, w.want = err, 0
			t.failed = append(t.failed, w)
		}
	}
	t.dirty = t.dirty[:0]
}

// reportFailed tells the owners of refused watchers, once each.
func (l *Loop) reportFailed() {
	for len(l.io.failed) > 0 {
		w := l.io.failed[0]
		l.io.failed = deleteWatcher(l.io.failed, w)
		err := w.err
		w.err = nil
		w.ready(Error, err)
		l.afterCallback()
	}
}

// poll is the poll phase: flush interest, wait up to timeout (-1: forever) for I/O and
// wake-ups, then run the I/O callbacks, the Async callbacks and the posted functions.
func (l *Loop) poll(timeout time.Duration) {
	l.enterPoll()
	l.io.flush(l.poller)
	if len(l.io.failed) > 0 {
		timeout = 0 // their owners hear of it in this poll phase
	}
	// With nothing registered and no wake-up pending, a zero wait could report nothing: skip
	// the system call.
	if timeout != 0 || l.io.nfds > 0 || l.poller.WakePending() {
		l.wait(timeout)
	}
	l.reportFailed()
}

// wait waits for I/O and wake-ups and runs their callbacks. An interrupted wait goes on with
// the time left.
func (l *Loop) wait(timeout time.Duration) {
	var deadline int64
	if timeout > 0 {
		deadline = l.now + int64(timeout)
	}
	if timeout != 0 {
		// About to sleep in the kernel: first let goroutines this iteration made ready (a
		// sender answered through a channel, say) run, rather than leave them queued behind
		// a processor that is blocked in a system call until the runtime takes it back.
		runtime.Gosched()
	}
	for {
		var begin int64
		if timeout != 0 {
			begin = l.waitBegin()
		}
		events, woke, err := l.poller.Wait(timeout)
		if timeout != 0 {
			l.UpdateTime()
			l.waitEnd(begin, len(events))
		}
		if errors.Is(err, poller.ErrInterrupted) {
			if timeout == 0 {
				return
			}
			if timeout > 0 {
				if timeout = time.Duration(deadline - l.now); timeout <= 0 {
					return
				}
			}
			continue
		}
		if err != nil {
			l.fatal = err
			return
		}
		l.metrics.events += uint64(len(events))
		if woke && len(events) > 0 {
			l.dispatchKeepingWakeup(events)
		} else {
			l.dispatch(events)
		}
		if woke {
			l.runWakeups()
		}
		return
	}
}

// dispatchKeepingWakeup is dispatch for a wait that also consumed a wake-up. If an I/O
// callback panics, it fires the wake-up again: a sent Async stays pending and Send does not
// wake the loop twice, so without it the Async callbacks and posted functions the wake-up
// announced would wait, after Run is called again, for some unrelated wake-up.
func (l *Loop) dispatchKeepingWakeup(events []poller.Event) {
	done := false
	defer func() {
		if !done {
			l.poller.Wake()
		}
	}()
	l.dispatch(events)
	done = true
}

// dispatch runs the I/O callbacks of one batch of events. An event whose fd was closed (or
// closed and reused) by an earlier callback of the batch carries a retired tag and is dropped.
func (l *Loop) dispatch(events []poller.Event) {
	for i := range events {
		ev := &events[i]
		fd := int(ev.Fd)
		if fd >= len(l.io.byFd) {
			continue
		}
		w := l.io.byFd[fd]
		if w == nil || w.tag != ev.Tag {
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
		w.ready(got, nil)
		l.afterCallback()
	}
}

// runWakeups runs what other goroutines sent: Async callbacks, then the after callbacks of
// finished work, then posted functions.
func (l *Loop) runWakeups() {
	l.runAsyncs()
	if l.work.done.Len() > 0 {
		l.runWorkDone()
	}
	if l.posted.Len() > 0 {
		l.runPosted()
	}
}
