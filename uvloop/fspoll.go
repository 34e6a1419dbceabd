package uvloop

import (
	"errors"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/timers"
)

// FSPoll watches a path by stat'ing it every interval on the work pool (uv_fs_poll_t): it
// works where FSEvent cannot (network file systems) and for paths that do not exist yet.
// The callback runs on the loop when the stat result changes (prev is what it was, curr what
// it is now) or when the stat starts failing, with err wrapping the errno — once per kind of
// failure, curr zero — as libuv's. The first stat after Start only sets the baseline unless
// it fails. Comparisons use ctime, mtime, birth time, size, mode, owner, inode and device.
//
// An active FSPoll keeps the loop alive unless unref'd (and a stat in flight does, as any
// request). Stop drops a stat in flight: its result is not reported. Close waits for it, as
// libuv's does: the close callback runs once the stat has completed (unreported). The
// interval is measured from the start of each stat, as libuv's is. Loop goroutine only.
type FSPoll struct {
	handle
	entry    timers.Entry
	req      *FSReq // the stat whose result counts, or nil
	own      FSReq  // the request stats use when no older one is still in flight
	inFlight int    // stats started and not completed, reported or not
	path     string
	interval int64 // ns
	started  int64 // loop time of the current stat's start
	state    int   // 0: no stat yet; 1: the last stat succeeded; -1: it failed with lastErr
	lastErr  syscall.Errno
	stat     Stat
	cb       func(p *FSPoll, err error, prev, curr Stat)
	statted  func(*FSReq) // p.done, bound once
}

// NewFSPoll creates a stat-polling handle (uv_fs_poll_init); Start begins polling.
func (l *Loop) NewFSPoll() *FSPoll {
	p := &FSPoll{}
	p.handle.init(l, p, KindFSPoll)
	p.entry.Fn = p.tick
	p.statted = p.done
	return p
}

// Start polls path every interval (uv_fs_poll_start), beginning with a stat now. Starting an
// active handle does nothing, as in libuv. An interval below 1 ms is 1 ms. It fails with
// ErrNilCallback without a callback and ErrClosed on a closing handle.
func (p *FSPoll) Start(path string, interval time.Duration, cb func(p *FSPoll, err error, prev, curr Stat)) error {
	if err := p.usable(); err != nil {
		return err
	}
	if cb == nil {
		return ErrNilCallback
	}
	if p.IsActive() {
		return nil
	}
	p.path, p.cb = path, cb
	p.interval = max(int64(interval), int64(time.Millisecond))
	p.state, p.lastErr, p.stat = 0, 0, Stat{}
	p.handle.start()
	p.statNow()
	return nil
}

// Stop stops polling (uv_fs_poll_stop).
func (p *FSPoll) Stop() error {
	p.stopPoll()
	return nil
}

// Path returns the polled path, "" when not polling (uv_fs_poll_getpath).
func (p *FSPoll) Path() string {
	if !p.IsActive() {
		return ""
	}
	return p.path
}

// closeStart stops polling; with a stat in flight the close waits for its completion.
func (p *FSPoll) closeStart() {
	p.stopPoll()
	if p.inFlight > 0 {
		p.flags |= flagDeferred
	}
}

func (p *FSPoll) closeFinish() {}

func (p *FSPoll) stopPoll() {
	p.loop.timers.Stop(&p.entry)
	p.req = nil // its completion is dropped
	p.handle.stop()
}

func (p *FSPoll) tick() { p.statNow() }

func (p *FSPoll) statNow() {
	p.started = p.loop.now
	req := &p.own
	if req.InFlight() { // a stat from before a Stop is still out
		req = new(FSReq)
	}
	if err := p.loop.FSStat(req, p.path, p.statted); err != nil {
		p.req = nil
		return
	}
	p.req = req
	p.inFlight++
}

func (p *FSPoll) done(r *FSReq) {
	p.inFlight--
	if p.req != r { // stopped (or restarted) since
		if p.inFlight == 0 && p.flags&flagDeferred != 0 {
			p.closePending()
		}
		return
	}
	p.req = nil
	if err := r.Err(); err != nil {
		var errno syscall.Errno
		errors.As(err, &errno)
		if p.state != -1 || p.lastErr != errno {
			p.state, p.lastErr = -1, errno
			p.cb(p, err, p.stat, Stat{})
		}
	} else {
		curr := r.Stat()
		if p.state == -1 || p.state == 1 && !statEqual(&p.stat, &curr) {
			p.cb(p, nil, p.stat, curr)
		}
		p.stat, p.state = curr, 1
	}
	if !p.IsActive() || p.req != nil { // the callback stopped or restarted it
		return
	}
	next := p.interval - (p.loop.now-p.started)%p.interval
	p.loop.timers.Start(&p.entry, p.loop.now, next, 0)
}

func statEqual(a, b *Stat) bool {
	return a.Ctime == b.Ctime && a.Mtime == b.Mtime && a.Birthtime == b.Birthtime &&
		a.Size == b.Size && a.Mode == b.Mode && a.UID == b.UID && a.GID == b.GID &&
		a.Ino == b.Ino && a.Dev == b.Dev && a.Flags == b.Flags && a.Gen == b.Gen
}
