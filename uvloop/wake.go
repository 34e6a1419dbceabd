package uvloop

import (
	"errors"
	"time"

	"github.com/uvgo/uvgo/poller"
)

// This file is how other goroutines wake the loop (Post, Async.Send, work completions, and
// through them remote promise resolution and signal delivery), and how the loop sleeps.
//
// Wakers only queue; a wake-up costs a signal only when the loop sleeps. The loop announces a
// sleep in one state word before its last look at the queues, and takes it back after the
// wait; a waker that finds the loop asleep flips the word to sleepWoken with one
// compare-and-swap, and only that waker signals. Every queue a waker fills is counted by an
// atomic, and Go's atomics are sequentially consistent, so either the loop's last look sees
// what was queued or the waker sees the loop asleep: no wake-up is lost, and a loop that is
// awake (running callbacks, or about to look at the queues) costs a waker one load.
//
// The loop sleeps in the kernel (epoll_wait, kevent) while an fd is registered, and signals
// go through the poller's wake-up (an eventfd, EVFILT_USER or a pipe). With no fd registered
// (only timers, posts, work and promises to wait for, which is what a scheduler or a JS
// runtime embedding has) it sleeps on a channel, and a wake-up is a channel send: a goroutine
// switch instead of two system calls and a thread wake-up.

// The values of Loop.sleep.
const (
	sleepAwake  uint32 = iota // running, or about to look at the queues: wakers only queue
	sleepWoken                // a waker has taken the wake-up of this sleep; others only queue
	sleepChan                 // committed to wait on wakeCh: a waker sends on it
	sleepKernel               // committed to wait in the poller: a waker fires its wake-up
)

// forceKernelWait makes every loop wait in the poller even with no fd registered; tests set it
// (UVGO_KERNEL_WAIT=1) to run the suite on both waits.
var forceKernelWait bool

// wake makes sure the loop looks at its queues soon; it is called after queuing something for
// it. Safe from any goroutine. It returns ErrClosed when the poller is closed under it. While
// the loop is awake it is one load, inlined into the caller.
func (l *Loop) wake() error {
	if l.sleep.Load() < sleepChan { // awake, or woken already
		return nil
	}
	return l.wakeSleeper()
}

// wakeSleeper is wake when the loop was seen asleep: the first waker to flip the state word
// signals it.
func (l *Loop) wakeSleeper() error {
	for {
		s := l.sleep.Load()
		if s < sleepChan {
			return nil
		}
		if l.sleep.CompareAndSwap(s, sleepWoken) {
			return l.signal(s)
		}
	}
}

// signal ends a sleep of kind s; the caller took it over with the compare-and-swap.
func (l *Loop) signal(s uint32) error {
	l.wakeups.Add(1)
	if s == sleepChan {
		l.wakeCh <- struct{}{} // never blocks: the loop leaves no token behind (wokeUp)
		return nil
	}
	if err := l.poller.Wake(); err != nil {
		if errors.Is(err, poller.ErrClosed) {
			return ErrClosed
		}
		return err
	}
	return nil
}

// wakeupsQueued reports whether another goroutine queued something for the loop: a sent
// Async, finished work, a posted function.
func (l *Loop) wakeupsQueued() bool {
	return l.asyncSent.Load() || l.work.done.Len() > 0 || l.posted.Len() > 0
}

// sleepOn announces a sleep of kind s and takes the last look at the queues. It reports
// whether the loop may sleep; if not, the sleep is taken back (and counts for Metrics if a
// waker signalled it meanwhile).
func (l *Loop) sleepOn(s uint32) bool {
	l.sleep.Store(s)
	if l.wakeupsQueued() {
		if l.wokeUp(s) {
			l.metrics.sleeps++ // a waker signalled it: count it, for Wakeups <= Sleeps
		}
		return false
	}
	l.metrics.sleeps++
	return true
}

// wokeUp ends a sleep of kind s that a waker may not have ended (a timeout, I/O, or a sleep
// taken back), and reports whether a waker took it over. Then its signal is consumed: a token on wakeCh is received
// (the waker sends it right after its compare-and-swap, into an empty channel, so the receive
// waits at most for that), so that no token is left to end a later sleep early. A kernel
// wake-up cannot be waited for so cheaply; the poller drains it in a later wait, which then
// returns at once, as a spurious wake-up of libuv's async fd does.
func (l *Loop) wokeUp(s uint32) (signalled bool) {
	if l.sleep.Swap(sleepAwake) != sleepWoken {
		return false
	}
	if s == sleepChan {
		<-l.wakeCh
	}
	return true
}

// chanWait is the poll phase's wait with no fd registered: it sleeps on wakeCh up to timeout
// (-1: until woken), rounded up to whole milliseconds as the kernel wait is, and never returns
// early but when woken.
func (l *Loop) chanWait(timeout time.Duration) {
	if !l.sleepOn(sleepChan) {
		return
	}
	begin := l.waitBegin()
	if timeout < 0 {
		<-l.wakeCh
		l.sleep.Store(sleepAwake)
	} else {
		if d := poller.RoundUpMsec(timeout); l.sleepTimer == nil {
			l.sleepTimer = time.NewTimer(d)
		} else {
			l.sleepTimer.Reset(d)
		}
		select {
		case <-l.wakeCh:
			l.sleepTimer.Stop()
			l.sleep.Store(sleepAwake)
		case <-l.sleepTimer.C:
			l.wokeUp(sleepChan)
		}
	}
	l.UpdateTime()
	l.waitEnd(begin, 0)
}
