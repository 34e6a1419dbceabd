package poller_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/poller"
)

// TestRingMoveLookSeesReceived: a receive armed from one thread; bytes arrive; on another
// thread, Rebind (the receive moves) and one look (Wait(0)) must report them, as epoll's
// look would, also when a Submit between the two (a phase's sends) has already stashed the
// old receive's last completion. On a ThreadBound ring and not.
func TestRingMoveLookSeesReceived(t *testing.T) {
	if err := poller.Available(poller.BackendIOURing); err != nil {
		t.Skipf("io_uring refused here: %v", err)
	}
	for _, bound := range []bool{false, true} {
		for _, stashed := range []bool{false, true} {
			t.Run(fmt.Sprintf("bound=%v/stashed=%v", bound, stashed), func(t *testing.T) {
				f := newFds(t)
				a, b := f.socketpair()
				var p *poller.Poller
				release := make(chan struct{})
				defer close(release)
				onThread := func(fn func() error) { // on a new thread, kept busy afterwards
					done := make(chan error)
					go func() {
						runtime.LockOSThread()
						defer runtime.UnlockOSThread()
						done <- fn()
						<-release
					}()
					if err := <-done; err != nil {
						if strings.HasPrefix(err.Error(), "skip") {
							t.Skip(err)
						}
						t.Fatal(err)
					}
				}
				onThread(func() error {
					var err error
					p, err = poller.OpenWith(poller.BackendIOURing, poller.Options{ThreadBound: bound})
					if err != nil {
						return err
					}
					if !p.CanRecv() {
						p.Close()
						return fmt.Errorf("skip: no multishot receives")
					}
					if err = p.RecvStart(a, 3); err == nil {
						err = p.Rebind()
					}
					if err == nil {
						_, _, err = p.Wait(0) // the receive is in the kernel
					}
					return err
				})
				defer p.Close()
				f.write(b, "x")
				var got string
				onThread(func() error {
					if err := p.Rebind(); err != nil {
						return err
					}
					if stashed {
						// Submit until the old thread's last completion is in the stash.
						for i := 0; !poller.RecvEndStashed(p, a); i++ {
							if _, err := p.Submit(); err != nil {
								return err
							}
							if i == 1000 {
								return fmt.Errorf("the old receive's last completion was not stashed after %d Submits", i)
							}
							time.Sleep(time.Millisecond)
						}
					}
					evs, _, err := p.Wait(0)
					for i := range evs {
						if ev := &evs[i]; ev.Received() && ev.Fd == int32(a) {
							data, _ := p.RecvData(ev)
							got += string(data)
						}
					}
					return err
				})
				if got != "x" && poller.MovesLate(p) > 0 {
					// The old thread got no CPU within moveWait (a loaded machine): the
					// look reports it late, as documented; nothing to check here.
					t.Logf("the look ran out its wait for the moved receive; reported %q", got)
				} else if got != "x" {
					t.Errorf("the look after the move reported %q, want %q", got, "x")
				}
			})
		}
	}
}
