package uvloop_test

import (
	"github.com/uvgo/uvgo/internal/ostest"
	"net/netip"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// The wake-up protocol (wake.go) under stress: wakers only queue while the loop is awake and
// signal it only when it sleeps, so a lost wake-up would leave the loop asleep with work
// queued, and the test would hang. Each test runs with no fd registered (the loop sleeps on a
// channel) and with a TCP listener registered (it sleeps in the kernel), and checks that no
// sleep was signalled twice (Metrics.Wakeups <= Metrics.Sleeps).

// wakeModes are the two waits: "chan" with no fd registered, "kernel" with a listener, and
// "kernel-locked" on a loop with WithLockOSThread, which does not yield before it sleeps and
// so sleeps (and is woken) more often.
var wakeModes = []struct {
	name   string
	withFd bool
	opts   []uvloop.Option
}{{"chan", false, nil}, {"kernel", true, nil}, {"kernel-locked", true, []uvloop.Option{uvloop.WithLockOSThread()}}}

// newWakeLoop is newLoop with the options of a mode.
func newWakeLoop(t testing.TB, opts []uvloop.Option) *uvloop.Loop {
	t.Helper()
	l, err := uvloop.New(opts...)
	mustOK(t, err)
	return l
}

// registerFd registers an unref'd TCP listener with l, so that the loop waits in the kernel.
func registerFd(t testing.TB, l *uvloop.Loop) {
	t.Helper()
	ln, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, ln.Bind(netip.MustParseAddrPort("127.0.0.1:0"), 0))
	mustOK(t, ln.Listen(16, func(error) {}))
	ln.Unref()
}

// checkWakeups asserts the invariant of the counters: at most one signal per sleep.
func checkWakeups(t *testing.T, l *uvloop.Loop) {
	t.Helper()
	m := l.Metrics()
	t.Logf("loop iterations %d, sleeps %d, wake-ups by a signal %d", m.LoopCount, m.Sleeps, m.Wakeups)
	if m.Wakeups > m.Sleeps {
		t.Errorf("Wakeups %d > Sleeps %d: a sleep was signalled more than once", m.Wakeups, m.Sleeps)
	}
}

// postStressN is how many functions TestWakePostStress posts: 1M, or 10M with
// UVGO_STRESS=1 (not under -race, where 10M takes minutes).
func postStressN(t *testing.T) int {
	if os.Getenv("UVGO_STRESS") != "" {
		if ostest.RaceEnabled {
			t.Skip("UVGO_STRESS=1 is for a build without -race")
		}
		return 10_000_000
	}
	if testing.Short() {
		return 100_000
	}
	return 1_000_000
}

// TestWakePostStress: 8 goroutines Post in bursts of 1 to 8 and yield between bursts, so that
// the otherwise idle loop goes to sleep and is woken over and over; every function runs.
func TestWakePostStress(t *testing.T) {
	const senders = 8
	total := postStressN(t)
	for _, mode := range wakeModes {
		t.Run(mode.name, func(t *testing.T) {
			l := newWakeLoop(t, mode.opts)
			if mode.withFd {
				registerFd(t, l)
			}
			ran := 0
			release := l.Hold()
			fn := func() {
				if ran++; ran == total {
					release()
				}
			}
			var wg sync.WaitGroup
			for s := range senders {
				n := total / senders
				if s == 0 {
					n += total % senders
				}
				wg.Go(func() {
					for i := 0; i < n; {
						burst := min(1+(i+s)%8, n-i)
						for range burst {
							if err := l.Post(fn); err != nil {
								panic(err)
							}
						}
						i += burst
						runtime.Gosched()
					}
				})
			}
			mustRunMode(t, l, uvloop.RunDefault)
			wg.Wait()
			if ran != total {
				t.Fatalf("ran %d posted functions, want %d", ran, total)
			}
			checkWakeups(t, l)
			closeLoop(t, l)
		})
	}
}

// TestWakeAsyncStress: 8 goroutines, each with its own Async, Send and wait for the callback
// to answer before sending again; a lost wake-up would leave a sender waiting forever.
func TestWakeAsyncStress(t *testing.T) {
	const senders = 8
	rounds := 20_000
	if testing.Short() {
		rounds = 2_000
	}
	for _, mode := range wakeModes {
		t.Run(mode.name, func(t *testing.T) {
			l := newWakeLoop(t, mode.opts)
			if mode.withFd {
				registerFd(t, l)
			}
			left := senders
			var wg sync.WaitGroup
			for range senders {
				ack := make(chan struct{}, 1)
				got := 0
				a := l.NewAsync(func(a *uvloop.Async) {
					if got++; got == rounds {
						a.Close(nil)
						if left--; left == 0 {
							return
						}
					}
					ack <- struct{}{}
				})
				wg.Go(func() {
					for i := range rounds {
						if err := a.Send(); err != nil {
							panic(err)
						}
						if i < rounds-1 {
							<-ack
						}
					}
				})
			}
			mustRunMode(t, l, uvloop.RunDefault)
			wg.Wait()
			checkWakeups(t, l)
			closeLoop(t, l)
		})
	}
}

// TestWakeWorkStress: work items finish on the pool's goroutines while the loop sleeps; every
// after callback runs.
func TestWakeWorkStress(t *testing.T) {
	total := 100_000
	if testing.Short() || ostest.RaceEnabled {
		total = 20_000
	}
	for _, mode := range wakeModes {
		t.Run(mode.name, func(t *testing.T) {
			l := newWakeLoop(t, mode.opts)
			if mode.withFd {
				registerFd(t, l)
			}
			done, queued := 0, 0
			var queue func()
			queue = func() { // keep up to 64 in flight, queued from the after callbacks
				for ; queued < total && queued-done < 64; queued++ {
					if _, err := l.QueueWork(func() {}, func(err error) {
						mustOK(t, err)
						done++
						queue()
					}); err != nil {
						t.Fatal(err)
					}
				}
			}
			queue()
			mustRunMode(t, l, uvloop.RunDefault)
			if done != total {
				t.Fatalf("%d after callbacks ran, want %d", done, total)
			}
			checkWakeups(t, l)
			closeLoop(t, l)
		})
	}
}
