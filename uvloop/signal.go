package uvloop

import (
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/uvgo/uvgo/internal/proc"
)

// This file is libuv's signal.c on Go's terms: Go owns the process's signal handlers
// (os/signal), so a Signal handle subscribes to a process-wide hub. The hub keeps one
// os/signal channel and one goroutine per signal number that some loop watches; the
// goroutine counts each delivery into every watching loop and wakes it through an internal
// Async; the loop runs the callbacks of its handles in the poll phase. When the last handle of
// a signal stops, its channel is stopped (Go's default action is back) and its goroutine ends
// before Stop or Close returns. Go's default is not always the system's, which libuv
// restores: SIGHUP, SIGINT and SIGTERM end the process, but SIGUSR1, SIGUSR2, SIGALRM, SIGIO
// and the like are caught by Go's runtime and dropped, where a C program would die of them.

// Signal watches one signal number and runs its callback on the loop when the process gets
// it (uv_signal_t). Several handles, of one loop or of several, may watch the same signal:
// each of them runs once per delivery. Deliveries that arrive while the loop is busy are
// counted and run in its next poll phase; the operating system may merge deliveries of one
// signal that arrive close together, as it does for a C program.
//
// A started Signal is active and keeps the loop alive while ref'd (Unref it for a handler
// that should not, as Node's process.on('SIGINT') does not). Loop goroutine only.
type Signal struct {
	handle
	cb         func(s *Signal, signum syscall.Signal)
	signum     syscall.Signal // 0 when stopped
	oneShot    bool
	dispatched uint64 // deliveries run; loop goroutine only
}

// NewSignal creates a signal handle; cb runs on the loop goroutine, once per delivery, with
// the signal's number. It returns ErrNilCallback if cb is nil and ErrClosed after Close.
func (l *Loop) NewSignal(cb func(s *Signal, signum syscall.Signal)) (*Signal, error) {
	if cb == nil {
		return nil, ErrNilCallback
	}
	if l.closed {
		return nil, ErrClosed
	}
	s := &Signal{cb: cb}
	s.handle.init(l, s, KindSignal)
	return s, nil
}

// errSignal is the error of a signal number out of range or one that cannot be caught.
var errSignal error = os.NewSyscallError("sigaction", syscall.EINVAL)

// validSignal reports whether a handle may watch signum: 1 to NSIG-1, not SIGKILL or SIGSTOP.
func validSignal(signum syscall.Signal) bool {
	return signum > 0 && int(signum) < proc.NSIG && proc.Catchable(int(signum))
}

// Start watches signum (uv_signal_start). Starting a started handle with another number
// moves it; with the same number it stays (and is no longer one-shot). It fails with an
// error wrapping EINVAL for a number out of range, SIGKILL or SIGSTOP, and ErrClosed on a
// closing handle.
func (s *Signal) Start(signum syscall.Signal) error { return s.start(signum, false) }

// StartOneShot is Start for one delivery (uv_signal_start_oneshot): the handle stops before
// its callback runs, so the callback may start it again.
func (s *Signal) StartOneShot(signum syscall.Signal) error { return s.start(signum, true) }

func (s *Signal) start(signum syscall.Signal, oneShot bool) error {
	if err := s.usable(); err != nil {
		return err
	}
	if !validSignal(signum) {
		return errSignal
	}
	s.oneShot = oneShot
	if s.signum == signum {
		return nil
	}
	s.stopWatching()
	s.loop.signals().add(s, signum)
	s.signum = signum
	s.handle.start()
	return nil
}

// Stop stops watching (uv_signal_stop). Idempotent. When it was the last handle of the
// process to watch its signal, Go's default action for the signal is back when Stop
// returns (see the top of this file: for SIGUSR2, say, that is to drop it).
func (s *Signal) Stop() error {
	s.stopWatching()
	return nil
}

// Signum is the signal the handle watches, 0 if it is stopped.
func (s *Signal) Signum() syscall.Signal { return s.signum }

func (s *Signal) stopWatching() {
	if s.signum == 0 {
		return
	}
	s.loop.sig.remove(s, s.signum)
	s.signum = 0
	s.handle.stop()
}

func (s *Signal) closeStart()  { s.stopWatching() }
func (s *Signal) closeFinish() {}

// loopSignals is one loop's part of the signal machinery. The pending counts are written by
// the hub's goroutines (atomic); everything else is the loop goroutine's.
type loopSignals struct {
	loop    *Loop
	pending [proc.NSIG]atomic.Uint32 // deliveries not yet run, per signal; atomic
	wake    *Async                   // internal, unref'd: the hub's way to wake the loop
	handles [proc.NSIG][]*Signal     // started handles per signal, in start order
	run     []*Signal                // the snapshot being dispatched
}

// signals returns the loop's signal state, created with its internal Async on first use.
func (l *Loop) signals() *loopSignals {
	if l.sig == nil {
		ls := &loopSignals{loop: l}
		ls.wake = l.NewAsync(func(*Async) { ls.dispatch() })
		ls.wake.flags |= flagInternal
		ls.wake.Unref()
		l.sig = ls
	}
	return l.sig
}

func (ls *loopSignals) add(s *Signal, signum syscall.Signal) {
	hs := ls.handles[signum]
	ls.handles[signum] = append(hs, s)
	if len(hs) == 0 {
		hub.subscribe(ls, signum)
	}
}

func (ls *loopSignals) remove(s *Signal, signum syscall.Signal) {
	hs := ls.handles[signum]
	for i, h := range hs {
		if h == s {
			copy(hs[i:], hs[i+1:])
			hs[len(hs)-1] = nil
			hs = hs[:len(hs)-1]
			break
		}
	}
	ls.handles[signum] = hs
	if len(hs) == 0 {
		hub.unsubscribe(ls, signum)
		ls.pending[signum].Store(0)
	}
}

// dispatch runs, for every delivery counted since the last one, the callbacks of the handles
// that watch the signal (uv__signal_event). A handle stopped or closed by an earlier callback
// is skipped; one started by a callback waits for the next delivery.
func (ls *loopSignals) dispatch() {
	for signum := 1; signum < proc.NSIG; signum++ {
		if ls.pending[signum].Load() == 0 {
			continue
		}
		n := ls.pending[signum].Swap(0)
		sig := syscall.Signal(signum)
		for ; n > 0; n-- {
			ls.run = append(ls.run[:0], ls.handles[signum]...)
			for i, s := range ls.run {
				ls.run[i] = nil
				if s.signum != sig {
					continue
				}
				s.dispatched++
				if s.oneShot {
					s.stopWatching()
				}
				s.cb(s, sig)
				ls.loop.afterCallback()
			}
		}
	}
}

// hub is the process's one subscriber to os/signal.
var hub signalHub

// signalHub fans signals out to the loops that watch them.
type signalHub struct {
	mu    sync.Mutex                // guards the fields below
	loops [proc.NSIG][]*loopSignals // the loops watching each signal
	feeds [proc.NSIG]*signalFeed    // the running feed of each watched signal
	spare [proc.NSIG]chan os.Signal // a stopped feed's channel, reused
}

// signalFeed is one signal's os/signal channel and the goroutine that drains it.
type signalFeed struct {
	ch   chan os.Signal
	quit chan struct{}
	done chan struct{}
}

func (h *signalHub) subscribe(ls *loopSignals, signum syscall.Signal) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.loops[signum] = append(h.loops[signum], ls)
	if h.feeds[signum] != nil {
		return
	}
	ch := h.spare[signum]
	if ch == nil {
		ch = make(chan os.Signal, 16)
	}
	h.spare[signum] = nil
	f := &signalFeed{ch: ch, quit: make(chan struct{}), done: make(chan struct{})}
	h.feeds[signum] = f
	signal.Notify(ch, signum)
	go h.feed(f, signum)
}

func (h *signalHub) unsubscribe(ls *loopSignals, signum syscall.Signal) {
	h.mu.Lock()
	loops := h.loops[signum]
	for i, x := range loops {
		if x == ls {
			copy(loops[i:], loops[i+1:])
			loops[len(loops)-1] = nil
			loops = loops[:len(loops)-1]
			break
		}
	}
	h.loops[signum] = loops
	var f *signalFeed
	if len(loops) == 0 {
		f = h.feeds[signum]
		h.feeds[signum] = nil
		signal.Stop(f.ch) // the default action is back
		close(f.quit)
	}
	h.mu.Unlock()
	if f != nil {
		<-f.done // the feed may wait for mu to deliver: wait for it outside
		for len(f.ch) > 0 {
			<-f.ch // arrived for the loops that just left
		}
		h.mu.Lock()
		if h.feeds[signum] == nil {
			h.spare[signum] = f.ch
		}
		h.mu.Unlock()
	}
}

// feed is one signal's goroutine: each delivery is counted into every loop watching it.
func (h *signalHub) feed(f *signalFeed, signum syscall.Signal) {
	defer close(f.done)
	for {
		select {
		case <-f.ch:
			h.mu.Lock()
			for _, ls := range h.loops[signum] {
				ls.pending[signum].Add(1)
				ls.wake.Send()
			}
			h.mu.Unlock()
		case <-f.quit:
			return
		}
	}
}

// spawnWithDefaults runs spawn (a fork and exec) so that the child starts with the default
// action of every signal the process ignores, as libuv's child resets each disposition to
// SIG_DFL before its exec: an ignored signal (SIGHUP or SIGINT ignored when the program
// started, one given to signal.Ignore) is inherited through fork and exec, a caught one is
// not. So each ignored signal is caught for the length of the spawn (one that arrives then
// is dropped, as if ignored) and ignored again after it. mu keeps the hub's own Notify and
// Stop calls out of the window; a program that calls os/signal itself meanwhile, on another
// goroutine, races with it.
func (h *signalHub) spawnWithDefaults(spawn func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var ignored []os.Signal
	for i := 1; i < proc.NSIG; i++ {
		if proc.Catchable(i) && signal.Ignored(syscall.Signal(i)) {
			ignored = append(ignored, syscall.Signal(i))
		}
	}
	if len(ignored) == 0 {
		spawn()
		return
	}
	signal.Notify(make(chan os.Signal, 1), ignored...)
	spawn()
	signal.Ignore(ignored...) // ignored again; this also drops the channel's registration
}
