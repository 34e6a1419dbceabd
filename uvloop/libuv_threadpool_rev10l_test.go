package uvloop_test

import (
	"errors"
	"sync"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's test-threadpool-cancel.c and test-thread.c's
// threadpool_multiple_event_loops, in our own words, in every mode.

// threadpool_cancel_single: with every worker busy, a queued work item is canceled before
// it runs: its work never runs, its after callback does not run inside Cancel, and runs once,
// with ECANCELED, after the pool is freed.
// threadpool_cancel_when_busy: work that has started cannot be canceled (libuv: EBUSY;
// uvgo: an error wrapping ErrBusy); its after callback runs once, with success.
func TestLibuvThreadpoolCancelSingleRev10l(t *testing.T) {
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			const workers = 4
			l, err := uvloop.New(append(append([]uvloop.Option(nil), m.Opts...), uvloop.WithWorkers(workers))...)
			if errors.Is(err, errors.ErrUnsupported) {
				t.Skipf("%s is not available here", m.Name)
			}
			mustOK(t, err)
			release := make(chan struct{})
			var started sync.WaitGroup
			started.Add(workers)
			blocked := 0
			for range workers {
				_, err := l.QueueWork(func() { started.Done(); <-release }, func(err error) { mustOK(t, err); blocked++ })
				mustOK(t, err)
			}
			started.Wait()
			done := 0
			w, err := l.QueueWork(func() { t.Error("the canceled work ran") }, func(err error) {
				wantErrno(t, "after callback", err, syscall.ECANCELED)
				done++
			})
			mustOK(t, err)
			mustOK(t, w.Cancel())
			if done != 0 {
				t.Fatal("the after callback ran inside Cancel")
			}
			close(release)
			runLoop(t, l)
			if done != 1 || blocked != workers {
				t.Fatalf("after callbacks %d (blocking ones %d)", done, blocked)
			}

			busy := make(chan struct{})
			unblock := make(chan struct{})
			busyDone := 0
			w, err = l.QueueWork(func() { close(busy); <-unblock }, func(err error) { mustOK(t, err); busyDone++ })
			mustOK(t, err)
			<-busy
			if err := w.Cancel(); !errors.Is(err, uvloop.ErrBusy) {
				t.Errorf("Cancel of running work: %v, want ErrBusy", err)
			}
			close(unblock)
			runLoop(t, l)
			if busyDone != 1 {
				t.Fatalf("after callbacks of the busy work %d", busyDone)
			}
			closeLoop(t, l)
		})
	}
}

// threadpool_multiple_event_loops: eight loops on eight goroutines at once each run four
// chains of four GetAddrInfo("localhost") and four chains of four FSStat("."); every callback
// runs on its own loop (the race detector checks the counters), every chain completes.
func TestLibuvThreadpoolMultipleEventLoopsRev10l(t *testing.T) {
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			if l, ok := m.New(t); !ok {
				t.Skipf("%s is not available here", m.Name)
			} else {
				mustOK(t, l.Close())
			}
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					l, err := uvloop.New(m.Opts...)
					if err != nil {
						t.Errorf("New: %v", err)
						return
					}
					lookups, stats := 0, 0
					var lookup func(n int)
					lookup = func(n int) {
						_, err := l.GetAddrInfo("localhost", "", nil, func(_ []uvloop.AddrInfo, err error) {
							if err != nil {
								t.Errorf("getaddrinfo: %v", err)
							}
							if lookups++; n > 1 {
								lookup(n - 1)
							}
						})
						if err != nil {
							t.Errorf("GetAddrInfo: %v", err)
						}
					}
					var stat func(n int)
					stat = func(n int) {
						if err := l.FSStat(new(uvloop.FSReq), ".", func(r *uvloop.FSReq) {
							if r.Err() != nil {
								t.Errorf("stat: %v", r.Err())
							}
							if stats++; n > 1 {
								stat(n - 1)
							}
						}); err != nil {
							t.Errorf("FSStat: %v", err)
						}
					}
					for range 4 {
						lookup(4)
						stat(4)
					}
					if _, err := l.Run(uvloop.RunDefault); err != nil {
						t.Errorf("run: %v", err)
					}
					if lookups != 16 || stats != 16 {
						t.Errorf("lookups %d, stats %d, want 16 each", lookups, stats)
					}
					if err := l.Close(); err != nil {
						t.Errorf("close: %v", err)
					}
				}()
			}
			wg.Wait()
		})
	}
}
