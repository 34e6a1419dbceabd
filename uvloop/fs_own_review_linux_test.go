package uvloop_test

// Differential scenarios from review rev5-fsown: file requests, FSEvent/FSPoll, signals, a
// TTY, timers, the work pool and lookups on a loop of its own thread (WithOwnThread), on both
// backends. Each scenario runs the same program on epoll (the reference, no thread option),
// epoll-own, io_uring and io_uring-own, records its callback log with results and errors, and
// compares the log of each mode with the reference's.

import (
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

var rev5ModeNames = []string{"epoll", "epoll-own", "io_uring", "io_uring-own"}

// rev5Diff runs f in each mode and compares each mode's log with the reference's (epoll
// without a thread of its own).
func rev5Diff(t *testing.T, f func(t *testing.T, opts ...uvloop.Option) []string) {
	t.Setenv(uvloop.OwnThreadEnv, "0")
	var ref []string
	for _, m := range rev5ModeNames {
		t.Run(m, func(t *testing.T) {
			got := f(t, modeOpts(t, m)...)
			if m == "epoll" {
				t.Logf("reference log:\n%s", strings.Join(got, "\n"))
				ref = got
				return
			}
			if ref == nil {
				t.Skip("no reference log")
			}
			if a, b := strings.Join(ref, "\n"), strings.Join(got, "\n"); a != b {
				t.Errorf("log differs from epoll's\n--- epoll:\n%s\n--- %s:\n%s", a, m, b)
			}
		})
	}
}

// rev5Err is an error as the log shows it: the errno's name, or nil.
func rev5Err(err error) string {
	if err == nil {
		return "nil"
	}
	var en syscall.Errno
	if errors.As(err, &en) {
		return en.Error()
	}
	if errors.Is(err, uvloop.ErrBusy) {
		return "ErrBusy"
	}
	return err.Error()
}

// rev5FS awaits one file request started by start.
func rev5FS(l *uvloop.Loop, start func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error) *promise.Promise[*uvloop.FSReq] {
	return promise.New(l, func(resolve func(*uvloop.FSReq), reject func(error)) {
		r := new(uvloop.FSReq)
		if err := start(r, func(r *uvloop.FSReq) { resolve(r) }); err != nil {
			reject(err)
		}
	})
}

// File requests started from Async bodies and awaited, several bodies at once (so that on
// io_uring the reads, writes, opens, stats and closes go on the ring), with errors.
func TestRev5FSPromiseBodies(t *testing.T) {
	dir := t.TempDir()
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		logs := make([][]string, 4)
		for i := range logs {
			i := i
			promise.Async(l, func() (int, error) {
				lg := func(f string, a ...any) { logs[i] = append(logs[i], fmt.Sprintf(f, a...)) }
				path := filepath.Join(dir, fmt.Sprintf("f%d", i))
				r, _ := promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
					return l.FSOpen(r, path, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o644, cb)
				}))
				lg("open %s", rev5Err(r.Err()))
				fd := int(r.Result())
				data := []byte(strings.Repeat(fmt.Sprintf("body%d-", i), 1000))
				r, _ = promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
					return l.FSWrite(r, fd, data, 0, cb)
				}))
				lg("write %d %s", r.Result(), rev5Err(r.Err()))
				r, _ = promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFstat(r, fd, cb) }))
				lg("fstat size %d %s", r.Stat().Size, rev5Err(r.Err()))
				buf := make([]byte, 4096)
				r, _ = promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
					return l.FSRead(r, fd, buf, int64(len(data)-10), cb)
				}))
				lg("read %d %q %s", r.Result(), buf[:max(r.Result(), 0)], rev5Err(r.Err()))
				r, _ = promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFsync(r, fd, cb) }))
				lg("fsync %s", rev5Err(r.Err()))
				r, _ = promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSClose(r, fd, cb) }))
				lg("close %s", rev5Err(r.Err()))
				r, _ = promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRead(r, fd, buf, 0, cb) }))
				lg("read closed %d %s", r.Result(), rev5Err(r.Err()))
				r, _ = promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSUnlink(r, path, cb) }))
				lg("unlink %s", rev5Err(r.Err()))
				r, _ = promise.Await(rev5FS(l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, path, cb) }))
				lg("stat %s", rev5Err(r.Err()))
				// a synchronous request, from the body
				sr := new(uvloop.FSReq)
				lg("sync stat dir %s dir=%v", rev5Err(l.FSStat(sr, dir, nil)), sr.Stat().IsDir())
				return i, nil
			})
		}
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
		var out []string
		for i, lg := range logs {
			for _, s := range lg {
				out = append(out, fmt.Sprintf("%d: %s", i, s))
			}
		}
		return out
	})
}

// Requests in flight (on the ring where the backend has one) when the owner stops the loop
// between runs and then closes it: Run returns at once, Close fails with ErrBusy and changes
// nothing, the next Run runs every callback, and Close then succeeds.
func TestRev5FSInFlightStopClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	mustOK(t, os.WriteFile(path, []byte(strings.Repeat("x", 1<<16)), 0o644))
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		uvloop.FSOnRing(l, true)
		var out []string
		f, err := os.Open(path)
		mustOK(t, err)
		defer f.Close()
		n := 0
		bufs := make([][]byte, 40)
		for i := range bufs {
			bufs[i] = make([]byte, 1000)
			mustOK(t, l.FSRead(nil, int(f.Fd()), bufs[i], int64(i*1000), func(r *uvloop.FSReq) {
				n++
				if r.Result() != 1000 || r.Err() != nil {
					out = append(out, fmt.Sprintf("read %d %s", r.Result(), rev5Err(r.Err())))
				}
			}))
			mustOK(t, l.FSStat(nil, path, func(r *uvloop.FSReq) { n++ }))
		}
		l.Stop()
		alive, err := l.Run(uvloop.RunDefault)
		out = append(out, fmt.Sprintf("stopped run: alive %v err %v callbacks %d", alive, err, n))
		out = append(out, fmt.Sprintf("close in flight: %s", rev5Err(l.Close())))
		alive, err = l.Run(uvloop.RunDefault)
		out = append(out, fmt.Sprintf("run: alive %v err %v callbacks %d", alive, err, n))
		out = append(out, fmt.Sprintf("close: %s", rev5Err(l.Close())))
		return out
	})
}

// Stop from the first callback of many requests in flight: Run returns after that iteration;
// the rest complete in later runs (RunNoWait spins, then RunOnce), none lost or run twice.
func TestRev5FSStopFromCallback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	mustOK(t, os.WriteFile(path, []byte(strings.Repeat("y", 1<<16)), 0o644))
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		uvloop.FSOnRing(l, true)
		f, err := os.Open(path)
		mustOK(t, err)
		defer f.Close()
		seen := make([]int, 64)
		for i := range seen {
			i := i
			buf := make([]byte, 512)
			mustOK(t, l.FSRead(nil, int(f.Fd()), buf, int64(i*512), func(r *uvloop.FSReq) {
				seen[i]++
				if i%7 == 0 {
					l.Stop()
				}
			}))
		}
		for alive := true; alive; {
			a, err := l.Run(uvloop.RunNoWait)
			mustOK(t, err)
			alive = a
		}
		var out []string
		for i, c := range seen {
			if c != 1 {
				out = append(out, fmt.Sprintf("req %d ran %d times", i, c))
			}
		}
		out = append(out, fmt.Sprintf("close: %s", rev5Err(l.Close())))
		return out
	})
}

// Cancel, from a callback and from the owner between runs, of requests queued behind a
// worker that is busy: those that stay on the pool (scandir, access, realpath) on every
// backend get ECANCELED, and Close fails with ErrBusy until their callbacks ran.
func TestRev5FSCancel(t *testing.T) {
	dir := t.TempDir()
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, append(opts, uvloop.WithWorkers(1))...)
		var out []string
		gate := make(chan struct{})
		_, err := l.QueueWork(func() { <-gate }, func(err error) { out = append(out, "work "+rev5Err(err)) })
		mustOK(t, err)
		reqs := make([]*uvloop.FSReq, 6)
		for i := range reqs {
			i := i
			reqs[i] = new(uvloop.FSReq)
			cb := func(r *uvloop.FSReq) {
				out = append(out, fmt.Sprintf("req %d %s %s", i, r.Op(), rev5Err(r.Err())))
				if i == 1 { // the cancelled request's callback cancels another and lets the pool go on
					out = append(out, "cancel 4 (callback): "+rev5Err(reqs[4].Cancel()))
					close(gate)
				}
			}
			switch i % 3 {
			case 0:
				mustOK(t, l.FSScandir(reqs[i], dir, cb))
			case 1:
				mustOK(t, l.FSAccess(reqs[i], dir, uvloop.AccessRead, cb))
			case 2:
				mustOK(t, l.FSRealpath(reqs[i], dir, cb))
			}
		}
		out = append(out, "cancel 1 (owner): "+rev5Err(reqs[1].Cancel()))
		out = append(out, "cancel 1 again: "+rev5Err(reqs[1].Cancel()))
		out = append(out, "close: "+rev5Err(l.Close()))
		mustRunMode(t, l, uvloop.RunDefault)
		out = append(out, "cancel 0 after: "+rev5Err(reqs[0].Cancel()))
		out = append(out, "close: "+rev5Err(l.Close()))
		return out
	})
}

// Chained reads of a big file, 4 chains at once (so that on io_uring the reads go on the
// ring), each read starting the next from its callback, by the default policy.
func TestRev5FSChainedBigRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	data := make([]byte, 6<<20+123)
	for i := range data {
		data[i] = byte(i*7 + i>>11)
	}
	mustOK(t, os.WriteFile(path, data, 0o644))
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		var out []string
		for c := 0; c < 4; c++ {
			c := c
			mustOK(t, l.FSOpen(nil, path, os.O_RDONLY, 0, func(r *uvloop.FSReq) {
				fd := int(r.Result())
				h := crc32.NewIEEE()
				buf := make([]byte, 64<<10+c*1000)
				var off int64
				var next func(r *uvloop.FSReq)
				reads := 0
				next = func(r *uvloop.FSReq) {
					if err := r.Err(); err != nil || r.Result() == 0 {
						out = append(out, fmt.Sprintf("chain %d: %d bytes crc %08x, end %s", c, off, h.Sum32(), rev5Err(err)))
						mustOK(t, l.FSClose(r, fd, func(r *uvloop.FSReq) {
							out = append(out, fmt.Sprintf("chain %d closed %s", c, rev5Err(r.Err())))
						}))
						return
					}
					h.Write(buf[:r.Result()])
					off += r.Result()
					reads++
					mustOK(t, l.FSRead(r, fd, buf, off, next))
				}
				mustOK(t, l.FSRead(r, fd, buf, 0, next))
			}))
		}
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
		// the chains end in any order: sort by chain
		sortStrings(out)
		return out
	})
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// More requests than the ring has entries, started by the owner between runs and then from
// a callback on the loop's thread: on io_uring the ring fills and the poller enters the kernel
// to make room (handed to the loop's thread when the caller is the owner).
func TestRev5FSFloodFromOwner(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	mustOK(t, os.WriteFile(path, []byte("0123456789"), 0o644))
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		uvloop.FSOnRing(l, true)
		f, err := os.Open(path)
		mustOK(t, err)
		defer f.Close()
		fd := int(f.Fd())
		var out []string
		ok, bad := 0, 0
		cb := func(r *uvloop.FSReq) {
			if r.Err() == nil && r.Stat().Size == 10 {
				ok++
			} else {
				bad++
			}
		}
		const n = 3000
		for i := 0; i < n; i++ {
			mustOK(t, l.FSFstat(nil, fd, cb))
		}
		out = append(out, fmt.Sprintf("owner: started %d", n))
		l.SetTimeout(func() {
			for i := 0; i < n; i++ {
				mustOK(t, l.FSFstat(nil, fd, cb))
			}
		}, 0)
		mustRunMode(t, l, uvloop.RunDefault)
		out = append(out, fmt.Sprintf("ok %d bad %d", ok, bad))
		closeLoop(t, l)
		return out
	})
}

// Post and Async.Send from other goroutines while the loop sleeps in the kernel (an FSEvent
// keeps an fd registered) or on its channel: every posted function runs once, in order per
// goroutine, and the sends coalesce but the last one is seen.
func TestRev5PostAsyncWhileSleeping(t *testing.T) {
	dir := t.TempDir()
	for _, kernel := range []bool{true, false} {
		t.Run(fmt.Sprintf("kernel=%v", kernel), func(t *testing.T) {
			rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
				l := newLoopWith(t, opts...)
				var ev *uvloop.FSEvent
				if kernel {
					ev = l.NewFSEvent()
					mustOK(t, ev.Start(dir, func(*uvloop.FSEvent, string, int, error) {}))
				}
				const G, N = 4, 500
				last := make([]int, G)
				bad := 0
				var sends sync.WaitGroup
				sent := 0
				var a *uvloop.Async
				a = l.NewAsync(func(*uvloop.Async) {
					sent++
				})
				var wg sync.WaitGroup
				for g := 0; g < G; g++ {
					wg.Add(1)
					go func(g int) {
						defer wg.Done()
						for i := 1; i <= N; i++ {
							i := i
							if err := l.Post(func() {
								if last[g] != i-1 {
									bad++
								}
								last[g] = i
							}); err != nil {
								panic(err)
							}
							if i%50 == 0 {
								a.Send()
								time.Sleep(50 * time.Microsecond)
							}
						}
					}(g)
				}
				sends.Add(1)
				go func() {
					defer sends.Done()
					wg.Wait()
					l.Post(func() {
						a.Close(nil)
						if ev != nil {
							ev.Close(nil)
						}
					})
				}()
				mustRunMode(t, l, uvloop.RunDefault)
				sends.Wait()
				closeLoop(t, l)
				return []string{fmt.Sprintf("last %v bad %d async>0 %v", last, bad, sent > 0)}
			})
		})
	}
}

// Timers are never early in loop time, with RunDefault, RunOnce and
// RunNoWait spins, when started from callbacks, from Async bodies and by the owner.
func TestRev5TimersNeverEarly(t *testing.T) {
	for _, mode := range []uvloop.RunMode{uvloop.RunDefault, uvloop.RunOnce, uvloop.RunNoWait} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
				l := newLoopWith(t, opts...)
				early := []string{}
				fired := 0
				arm := func(who string, d time.Duration) {
					at := l.Now()
					tm := l.NewTimer(func(tm *uvloop.Timer) {
						fired++
						if l.Now()-at < d {
							early = append(early, fmt.Sprintf("%s %v: loop time %v", who, d, l.Now()-at))
						}
						tm.Close(nil)
					})
					mustOK(t, tm.Start(d, 0))
				}
				for d := time.Duration(0); d < 8*time.Millisecond; d += 700 * time.Microsecond {
					arm("owner", d)
				}
				l.SetTimeout(func() {
					for d := time.Duration(0); d < 5*time.Millisecond; d += 300 * time.Microsecond {
						arm("callback", d)
					}
				}, 2*time.Millisecond)
				promise.Async(l, func() (int, error) {
					p, res := promise.WithResolvers[int](l)
					l.SetTimeout(func() { res.Resolve(1) }, time.Millisecond)
					promise.Await(p)
					for d := time.Duration(0); d < 5*time.Millisecond; d += 900 * time.Microsecond {
						arm("body", d)
					}
					return 0, nil
				})
				for alive := true; alive; {
					a, err := l.Run(mode)
					mustOK(t, err)
					alive = a
				}
				closeLoop(t, l)
				return append(early, fmt.Sprintf("fired %d", fired))
			})
		})
	}
}

// rev5Log appends s unless it repeats the last entry (inotify merges repeated events when
// its reader is late, which depends on timing).
func rev5Log(out *[]string, f string, a ...any) {
	s := fmt.Sprintf(f, a...)
	if n := len(*out); n > 0 && (*out)[n-1] == s {
		return
	}
	*out = append(*out, s)
}

// FSEvent and FSPoll handles started by the owner between runs, stopped, closed and started
// again from their callbacks, each step's change made by the callback that saw the last.
func TestRev5FSWatchFromCallbacks(t *testing.T) {
	base := t.TempDir()
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		dir, err := os.MkdirTemp(base, "w")
		mustOK(t, err)
		l := newLoopWith(t, opts...)
		var out []string
		e1, e2, e3 := l.NewFSEvent(), l.NewFSEvent(), l.NewFSEvent()
		poll := l.NewFSPoll()
		pollCb := func(p *uvloop.FSPoll, err error, prev, curr uvloop.Stat) {
			// a write updates the mtime before the size: a stat between sees a change of
			// size 1 -> 1 first; only the end is logged
			if err != nil || curr.Size == 3 {
				rev5Log(&out, "poll %s size -> %d", rev5Err(err), curr.Size)
			}
			if curr.Size == 3 {
				p.Close(func() { rev5Log(&out, "poll closed") })
			}
		}
		e3cb := func(e *uvloop.FSEvent, name string, ev int, err error) {
			rev5Log(&out, "e3 %s %d %s", name, ev, rev5Err(err))
			if ev&uvloop.FSChange != 0 {
				e.Close(func() { rev5Log(&out, "e3 closed") })
				mustOK(t, poll.Start(filepath.Join(dir, "a"), time.Millisecond, pollCb))
				l.SetTimeout(func() { // one write: the poll sees the size go from 1 to 3
					f, err := os.OpenFile(filepath.Join(dir, "a"), os.O_WRONLY, 0)
					mustOK(t, err)
					_, err = f.WriteAt([]byte("abc"), 0)
					mustOK(t, err)
					mustOK(t, f.Close())
				}, 20*time.Millisecond)
			}
		}
		e1cb := func(e *uvloop.FSEvent, name string, ev int, err error) {
			rev5Log(&out, "e1 %s %d %s", name, ev, rev5Err(err))
			if name == "a" {
				mustOK(t, e.Stop())
				mustOK(t, os.WriteFile(filepath.Join(dir, "b"), nil, 0o644))
			}
		}
		e2cb := func(e *uvloop.FSEvent, name string, ev int, err error) {
			rev5Log(&out, "e2 %s %d %s", name, ev, rev5Err(err))
			if name == "b" && e.IsActive() {
				e.Close(func() { rev5Log(&out, "e2 closed") })
				mustOK(t, e3.Start(filepath.Join(dir, "a"), e3cb))
				mustOK(t, os.WriteFile(filepath.Join(dir, "a"), []byte("x"), 0o644))
			}
		}
		mustOK(t, e1.Start(dir, e1cb))
		mustOK(t, e2.Start(dir, e2cb))
		mustOK(t, os.WriteFile(filepath.Join(dir, "a"), nil, 0o644))
		mustRunMode(t, l, uvloop.RunOnce)
		rev5Log(&out, "-- after RunOnce")
		mustRunMode(t, l, uvloop.RunNoWait)
		rev5Log(&out, "-- e1 active %v", e1.IsActive())
		e1.Close(nil) // the last handle keeps the loop alive: close it from the owner
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
		return out
	})
}

// A Signal handle on each of two loops watching SIGUSR1, both loops running at once on their
// goroutines: each delivery runs each handle once; Stop in the callback of one; the other is
// closed from its callback; then SIGUSR1 is watched again (one-shot) on a loop that is
// started anew.
func TestRev5SignalTwoLoops(t *testing.T) {
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		la, lb := newLoopWith(t, opts...), newLoopWith(t, opts...)
		var mu sync.Mutex
		var out []string
		lg := func(f string, a ...any) { mu.Lock(); out = append(out, fmt.Sprintf(f, a...)); mu.Unlock() }
		var ready sync.WaitGroup
		ready.Add(2)
		// each loop keeps a timer that tells the test it is running, then waits for the signal
		sa, err := la.NewSignal(func(s *uvloop.Signal, sig syscall.Signal) {
			lg("a got %v", sig)
			mustOK(t, s.Stop())
			s.Close(nil)
		})
		mustOK(t, err)
		sb, err := lb.NewSignal(func(s *uvloop.Signal, sig syscall.Signal) {
			lg("b got %v", sig)
			s.Close(nil)
		})
		mustOK(t, err)
		mustOK(t, sa.Start(syscall.SIGUSR1))
		mustOK(t, sb.Start(syscall.SIGUSR1))
		la.SetTimeout(func() { ready.Done() }, 0)
		lb.SetTimeout(func() { ready.Done() }, 0)
		var runs sync.WaitGroup
		for _, l := range []*uvloop.Loop{la, lb} {
			runs.Add(1)
			go func(l *uvloop.Loop) {
				defer runs.Done()
				if _, err := l.Run(uvloop.RunDefault); err != nil {
					t.Error(err)
				}
			}(l)
		}
		ready.Wait()
		mustOK(t, syscall.Kill(os.Getpid(), syscall.SIGUSR1))
		runs.Wait()
		sortStrings(out)
		// again, one-shot, on one loop
		s2, err := la.NewSignal(func(s *uvloop.Signal, sig syscall.Signal) {
			lg("a2 got %v, signum now %d", sig, s.Signum())
			s.Close(nil)
		})
		mustOK(t, err)
		mustOK(t, s2.StartOneShot(syscall.SIGUSR1))
		la.SetTimeout(func() { mustOK(t, syscall.Kill(os.Getpid(), syscall.SIGUSR1)) }, 0)
		mustRunMode(t, la, uvloop.RunDefault)
		closeLoop(t, la)
		closeLoop(t, lb)
		return out
	})
}

// A TTY on a pty's slave, made by the owner between runs: what the master writes is read;
// what the handle writes reaches the master; a write of 256 KiB completes whole (the master
// is drained by another goroutine); Close from a callback.
func TestRev5TTYPty(t *testing.T) {
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		master, slave := openPty(t)
		l := newLoopWith(t, opts...)
		var out []string
		in, err := l.NewTTY(slave, true)
		mustOK(t, err)
		outH, err := l.NewTTY(slave, false)
		mustOK(t, err)
		mustOK(t, in.SetMode(uvloop.TTYModeRaw))
		var got []byte
		drained := make(chan int)
		big := make([]byte, 256<<10)
		for i := range big {
			big[i] = 'a' + byte(i%26)
		}
		mustOK(t, in.ReadStart(func(data []byte, err error) {
			if err != nil {
				rev5Log(&out, "read err %s", rev5Err(err))
				return
			}
			got = append(got, data...)
			if strings.HasSuffix(string(got), "end") {
				rev5Log(&out, "read %q", got)
				mustOK(t, in.ReadStop())
				go func() {
					n, buf := 0, make([]byte, 4096)
					for n < len(big)+5 {
						k, err := unix.Read(master, buf)
						if err != nil {
							break
						}
						n += k
					}
					drained <- n
				}()
				mustOK(t, outH.Write(big, func(err error) { rev5Log(&out, "big write %s", rev5Err(err)) }))
				mustOK(t, outH.Write([]byte("done!"), func(err error) {
					rev5Log(&out, "write %s", rev5Err(err))
					in.Close(nil)
					outH.Close(func() { rev5Log(&out, "closed") })
				}))
			}
		}))
		_, err = unix.Write(master, []byte("hello "))
		mustOK(t, err)
		l.SetTimeout(func() { unix.Write(master, []byte("end")) }, 5*time.Millisecond)
		mustRunMode(t, l, uvloop.RunDefault)
		rev5Log(&out, "master read %d", <-drained)
		mustOK(t, l.Close())
		return out
	})
}

// Lookups of localhost from an Async body and from a callback, one cancelled by the owner
// between runs.
func TestRev5GetAddrInfo(t *testing.T) {
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		var out []string
		hints := &uvloop.AddrInfoHints{Family: uvloop.AFInet, SockType: syscall.SOCK_STREAM}
		show := func(who string, res []uvloop.AddrInfo, err error) {
			var as []string
			for _, a := range res {
				as = append(as, a.Addr.String())
			}
			rev5Log(&out, "%s: %v %s", who, as, rev5Err(err))
		}
		promise.Async(l, func() (int, error) {
			p := promise.New(l, func(resolve func([]uvloop.AddrInfo), reject func(error)) {
				_, err := l.GetAddrInfo("localhost", "80", hints, func(res []uvloop.AddrInfo, err error) {
					if err != nil {
						reject(err)
						return
					}
					resolve(res)
				})
				if err != nil {
					reject(err)
				}
			})
			res, err := promise.Await(p)
			show("body", res, err)
			_, err = l.GetAddrInfo("127.0.0.1", "http", hints, func(res []uvloop.AddrInfo, err error) { show("cb in body", res, err) })
			mustOK(t, err)
			return 0, nil
		})
		gate := make(chan struct{})
		var ws []*uvloop.Work
		for i := 0; i < uvloop.DefaultWorkers; i++ {
			w, err := l.QueueWork(func() { <-gate }, func(error) {})
			mustOK(t, err)
			ws = append(ws, w)
		}
		r, err := l.GetAddrInfo("localhost", "", hints, func(res []uvloop.AddrInfo, err error) { show("cancelled", res, err) })
		mustOK(t, err)
		rev5Log(&out, "cancel: %s", rev5Err(r.Cancel()))
		close(gate)
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
		sortStrings(out) // the body's first lookup and the cancelled one complete in either order
		return out
	})
}

// The after callbacks of work run after the I/O callbacks of the same poll phase, in the
// order the work finished; work finished while the loop is stopped waits for the next run.
func TestRev5WorkAfterOrder(t *testing.T) {
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		var out []string
		p := pipeFds(t, true)
		defer syscall.Close(p[0])
		defer syscall.Close(p[1])
		ph, err := l.NewPoll(p[0], func(h *uvloop.Poll, ev uvloop.Events, err error) {
			var b [16]byte
			n, _ := syscall.Read(p[0], b[:])
			rev5Log(&out, "io %q", b[:max(n, 0)])
		})
		mustOK(t, err)
		mustOK(t, ph.Start(uvloop.Readable))
		// one channel per work, so that work i is the i-th to finish (with one channel for
		// all, any waiting worker could take the i-th send)
		var steps [3]chan struct{}
		for i := range steps {
			steps[i] = make(chan struct{})
			_, err := l.QueueWork(func() { <-steps[i] }, func(err error) { rev5Log(&out, "after %d %s", i, rev5Err(err)) })
			mustOK(t, err)
		}
		// all three finished and the pipe readable before the loop runs: I/O first, then the
		// work in the order it finished
		for i := range steps {
			steps[i] <- struct{}{}
			for uvloop.WorkDoneQueued(l) < i+1 {
				time.Sleep(time.Millisecond)
			}
		}
		syscall.Write(p[1], []byte("x"))
		mustRunMode(t, l, uvloop.RunNoWait)
		rev5Log(&out, "-- first")
		_, err = l.QueueWork(func() {}, func(err error) { rev5Log(&out, "after 3 %s", rev5Err(err)) })
		mustOK(t, err)
		for uvloop.WorkDoneQueued(l) < 1 {
			time.Sleep(time.Millisecond)
		}
		syscall.Write(p[1], []byte("y"))
		l.Stop()
		mustRunMode(t, l, uvloop.RunDefault)
		rev5Log(&out, "-- stopped")
		mustRunMode(t, l, uvloop.RunNoWait)
		rev5Log(&out, "-- nowait")
		ph.Close(nil)
		mustRunMode(t, l, uvloop.RunDefault)
		closeLoop(t, l)
		return out
	})
}

// A panic in the callback of one of many file requests in flight (on the ring where the
// backend has one, and on the pool): Run returns the *PanicError; the next runs complete the
// rest, each once; Close then succeeds.
func TestRev5FSPanicInCallback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	mustOK(t, os.WriteFile(path, []byte(strings.Repeat("z", 1<<15)), 0o644))
	for _, onRing := range []bool{true, false} {
		t.Run(fmt.Sprintf("ring=%v", onRing), func(t *testing.T) {
			rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
				l := newLoopWith(t, opts...)
				uvloop.FSOnRing(l, onRing)
				f, err := os.Open(path)
				mustOK(t, err)
				defer f.Close()
				var out []string
				seen := make([]int, 32)
				for i := range seen {
					i := i
					buf := make([]byte, 256)
					mustOK(t, l.FSRead(nil, int(f.Fd()), buf, int64(i*256), func(r *uvloop.FSReq) {
						seen[i]++
						if i%10 == 3 {
							panic(fmt.Sprintf("boom %d", i))
						}
					}))
				}
				panics := 0
				for alive := true; alive; {
					a, err := l.Run(uvloop.RunDefault)
					var pe *uvloop.PanicError
					if errors.As(err, &pe) {
						panics++
					} else {
						mustOK(t, err)
					}
					alive = a
				}
				for i, c := range seen {
					if c != 1 {
						out = append(out, fmt.Sprintf("req %d ran %d times", i, c))
					}
				}
				out = append(out, fmt.Sprintf("panics %d, close %s", panics, rev5Err(l.Close())))
				return out
			})
		})
	}
}

// Handles made, started, stopped and closed by the owner between runs with no run between
// (FSEvent, Poll, Signal, TTY, FSPoll, Timer, Idle/Check/Prepare), then one run to close.
func TestRev5HandlesBetweenRuns(t *testing.T) {
	dir := t.TempDir()
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		var out []string
		closed := 0
		onClose := func() { closed++ }
		for round := 0; round < 3; round++ {
			e := l.NewFSEvent()
			mustOK(t, e.Start(dir, func(*uvloop.FSEvent, string, int, error) { out = append(out, "fsevent cb") }))
			mustOK(t, e.Stop())
			mustOK(t, e.Start(dir, func(*uvloop.FSEvent, string, int, error) { out = append(out, "fsevent cb") }))
			e.Close(onClose)
			p := pipeFds(t, true)
			ph, err := l.NewPoll(p[0], func(*uvloop.Poll, uvloop.Events, error) { out = append(out, "poll cb") })
			mustOK(t, err)
			mustOK(t, ph.Start(uvloop.Readable))
			mustOK(t, ph.Stop())
			mustOK(t, ph.Start(uvloop.Readable))
			ph.Close(onClose)
			syscall.Close(p[0])
			syscall.Close(p[1])
			s, err := l.NewSignal(func(*uvloop.Signal, syscall.Signal) { out = append(out, "signal cb") })
			mustOK(t, err)
			mustOK(t, s.Start(syscall.SIGUSR2))
			mustOK(t, s.Stop())
			mustOK(t, s.Start(syscall.SIGUSR2))
			s.Close(onClose)
			master, slave := openPty(t)
			_ = master
			tt, err := l.NewTTY(slave, true)
			mustOK(t, err)
			mustOK(t, tt.ReadStart(func([]byte, error) { out = append(out, "tty cb") }))
			mustOK(t, tt.ReadStop())
			tt.Close(onClose)
			fp := l.NewFSPoll()
			mustOK(t, fp.Start(dir, time.Millisecond, func(*uvloop.FSPoll, error, uvloop.Stat, uvloop.Stat) { out = append(out, "fspoll cb") }))
			fp.Close(onClose)
			tm := l.NewTimer(func(*uvloop.Timer) { out = append(out, "timer cb") })
			mustOK(t, tm.Start(time.Hour, 0))
			tm.Close(onClose)
			id := l.NewIdle(func(*uvloop.Idle) { out = append(out, "idle cb") })
			mustOK(t, id.Start())
			id.Close(onClose)
			ck := l.NewCheck(func(*uvloop.Check) { out = append(out, "check cb") })
			mustOK(t, ck.Start())
			ck.Close(onClose)
			pr := l.NewPrepare(func(*uvloop.Prepare) { out = append(out, "prepare cb") })
			mustOK(t, pr.Start())
			pr.Close(onClose)
		}
		out = append(out, "close before run: "+rev5Err(l.Close()))
		mustRunMode(t, l, uvloop.RunDefault)
		out = append(out, fmt.Sprintf("closed %d", closed))
		out = append(out, "close: "+rev5Err(l.Close()))
		return out
	})
}

// runtime.Goexit (a test's t.FailNow) in the callback of a file request (on the ring where
// the backend has one), of a timer and of work: it ends the caller of Run; the loop then
// runs again from another goroutine, every other callback runs once, and Close succeeds.
// In a child process per mode, as a fault here may be fatal.
func TestRev5GoexitInFSCallback(t *testing.T) {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("rev5-goexit-%d", os.Getpid()))
	if os.Getenv("REV4_CHILD") == "" {
		mustOK(t, os.WriteFile(path, []byte(strings.Repeat("g", 1<<14)), 0o644))
		defer os.Remove(path)
	} else {
		path = os.Getenv("REV5_FILE")
	}
	t.Setenv("REV5_FILE", path)
	rev4InChild(t, func(t *testing.T, opts ...uvloop.Option) {
		l := newLoopWith(t, opts...)
		uvloop.FSOnRing(l, true)
		f, err := os.Open(path)
		mustOK(t, err)
		defer f.Close()
		seen := make([]int, 20)
		for i := range seen {
			i := i
			buf := make([]byte, 128)
			mustOK(t, l.FSRead(nil, int(f.Fd()), buf, int64(i*128), func(r *uvloop.FSReq) {
				seen[i]++
				if i == 5 {
					runtime.Goexit()
				}
			}))
		}
		timerRan, workRan := 0, 0
		l.SetTimeout(func() { timerRan++; runtime.Goexit() }, time.Millisecond)
		_, err = l.QueueWork(func() {}, func(error) { workRan++; runtime.Goexit() })
		mustOK(t, err)
		goexits := 0
		for l.Alive() {
			var wg sync.WaitGroup
			wg.Add(1)
			returned := false
			go func() { defer wg.Done(); l.Run(uvloop.RunDefault); returned = true }()
			wg.Wait()
			if !returned {
				goexits++
			}
		}
		for i, c := range seen {
			if c != 1 {
				t.Errorf("req %d ran %d times", i, c)
			}
		}
		if timerRan != 1 || workRan != 1 || goexits != 3 {
			t.Errorf("timer ran %d, work after ran %d, goexits %d; want 1, 1, 3", timerRan, workRan, goexits)
		}
		mustOK(t, l.Close())
	})
}

// Idle, Prepare and Check handles across runs of each mode, with a file request: the order
// of the phases' callbacks, iteration by iteration, with Stop from a check callback and
// handles stopped and started again from callbacks. A repeating timer keeps the poll phase
// from blocking for good while the idle handle is stopped (only the file request, which
// completes at a time of the pool's, would end that wait).
func TestRev5PhasesAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		var out []string
		iter := 0
		var idle *uvloop.Idle
		var tick *uvloop.Timer
		prep := l.NewPrepare(func(*uvloop.Prepare) { iter++; out = append(out, fmt.Sprintf("%d prepare", iter)) })
		chk := l.NewCheck(func(c *uvloop.Check) {
			out = append(out, fmt.Sprintf("%d check", iter))
			switch iter {
			case 2:
				l.Stop()
			case 4:
				mustOK(t, idle.Stop())
			case 6:
				mustOK(t, idle.Start())
			case 8:
				c.Close(nil)
				prep.Close(nil)
				idle.Close(nil)
				tick.Close(nil)
			}
		})
		idle = l.NewIdle(func(*uvloop.Idle) { out = append(out, fmt.Sprintf("%d idle", iter)) })
		tick = l.NewTimer(func(*uvloop.Timer) {})
		mustOK(t, tick.Start(time.Millisecond, time.Millisecond))
		mustOK(t, prep.Start())
		mustOK(t, chk.Start())
		mustOK(t, idle.Start())
		mustOK(t, l.FSAccess(nil, dir, uvloop.AccessExists, func(r *uvloop.FSReq) { out = append(out, fmt.Sprintf("%d access %s", iter, rev5Err(r.Err()))) }))
		for _, m := range []uvloop.RunMode{uvloop.RunDefault, uvloop.RunNoWait, uvloop.RunOnce, uvloop.RunNoWait, uvloop.RunDefault} {
			alive, err := l.Run(m)
			mustOK(t, err)
			out = append(out, fmt.Sprintf("-- run %d alive %v", m, alive))
		}
		closeLoop(t, l)
		// The access completes in an iteration that depends on the pool's timing: move it last.
		var acc []string
		var rest []string
		for _, s := range out {
			if strings.Contains(s, "access") {
				acc = append(acc, s[strings.IndexByte(s, ' ')+1:])
			} else {
				rest = append(rest, s)
			}
		}
		return append(rest, acc...)
	})
}

// Post(l.Stop) from another goroutine while the loop sleeps (in the kernel, with file
// requests on the ring and an FSEvent's fd, or on its channel with work only): Run returns
// alive; a Run per mode then finishes the rest.
func TestRev5PostStopWhileSleeping(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	mustOK(t, os.WriteFile(path, []byte("abc"), 0o644))
	for _, kernel := range []bool{true, false} {
		t.Run(fmt.Sprintf("kernel=%v", kernel), func(t *testing.T) {
			rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
				l := newLoopWith(t, opts...)
				uvloop.FSOnRing(l, true)
				var out []string
				gate := make(chan struct{})
				started := make(chan struct{})
				_, err := l.QueueWork(func() { close(started); <-gate }, func(err error) { out = append(out, "work "+rev5Err(err)) })
				mustOK(t, err)
				var ev *uvloop.FSEvent
				if kernel {
					ev = l.NewFSEvent()
					mustOK(t, ev.Start(dir, func(*uvloop.FSEvent, string, int, error) {}))
					mustOK(t, l.FSStat(nil, path, func(r *uvloop.FSReq) { out = append(out, "stat "+rev5Err(r.Err())) }))
				}
				go func() {
					<-started
					time.Sleep(5 * time.Millisecond) // most likely asleep by now; either way Stop ends the run
					l.Post(l.Stop)
				}()
				alive, err := l.Run(uvloop.RunDefault) // the work waits for the gate: Stop ends it
				mustOK(t, err)
				out = append(out, fmt.Sprintf("stopped, alive %v", alive))
				close(gate)
				if ev != nil {
					ev.Close(nil)
				}
				mustRunMode(t, l, uvloop.RunDefault)
				sortStrings(out)
				out = append(out, "close "+rev5Err(l.Close()))
				return out
			})
		})
	}
}

// A signal that arrives between runs (the loop is not running) is counted and runs its
// callbacks in the next run's poll phase, once per handle, also with RunNoWait.
func TestRev5SignalBetweenRuns(t *testing.T) {
	rev5Diff(t, func(t *testing.T, opts ...uvloop.Option) []string {
		l := newLoopWith(t, opts...)
		var mu sync.Mutex
		got := 0
		var out []string
		for i := 0; i < 2; i++ {
			s, err := l.NewSignal(func(s *uvloop.Signal, sig syscall.Signal) {
				mu.Lock()
				got++
				mu.Unlock()
			})
			mustOK(t, err)
			mustOK(t, s.Start(syscall.SIGUSR2))
		}
		mustRunMode(t, l, uvloop.RunNoWait)
		mustOK(t, syscall.Kill(os.Getpid(), syscall.SIGUSR2))
		spins := 0
		for deadline := time.Now().Add(10 * time.Second); got < 2 && time.Now().Before(deadline); spins++ {
			mustRunMode(t, l, uvloop.RunNoWait)
			if got < 2 {
				time.Sleep(time.Millisecond)
			}
		}
		out = append(out, fmt.Sprintf("callbacks %d", got))
		mustRunMode(t, l, uvloop.RunNoWait)
		out = append(out, fmt.Sprintf("after another run %d", got))
		closeLoop(t, l)
		return out
	})
}
