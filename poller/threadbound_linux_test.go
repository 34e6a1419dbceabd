package poller_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// TestThreadBoundRebindMovesUnboundSubmissions: on a ThreadBound ring a request's completion
// work runs on the thread that submitted it. A multishot receive submitted before the first
// Rebind, from another thread, must be moved by that Rebind to the Rebind's thread: else
// every receive after it wakes the old thread (counted here as its voluntary context
// switches) to post the completion, for as long as the receive lasts.
func TestThreadBoundRebindMovesUnboundSubmissions(t *testing.T) {
	if err := poller.Available(poller.BackendIOURing); err != nil {
		t.Skipf("io_uring refused here: %v", err)
	}
	f := newFds(t)
	a, b := f.socketpair()
	var p *poller.Poller
	setup := make(chan error)
	release := make(chan struct{})
	var setupTid int
	go func() { // the setup thread: opens, starts the receive, submits it, then sleeps
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		setupTid = unix.Gettid()
		var err error
		p, err = poller.OpenWith(poller.BackendIOURing, poller.Options{ThreadBound: true})
		if err == nil && !p.CanRecv() {
			p.Close()
			err = fmt.Errorf("skip: no multishot receives")
		}
		if err == nil {
			err = p.RecvStart(a, 3)
		}
		if err == nil {
			_, err = p.Submit()
		}
		setup <- err
		<-release // its thread sleeps (locked) until the end
	}()
	if err := <-setup; err != nil {
		if strings.HasPrefix(err.Error(), "skip") {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	defer close(release)
	defer p.Close()
	runtime.LockOSThread() // the loop's thread, another one
	defer runtime.UnlockOSThread()
	if err := p.Rebind(); err != nil {
		t.Fatal(err)
	}
	echo := func(i int) {
		msg := fmt.Sprint("m", i)
		f.write(b, msg)
		if got, _ := recvAll(t, p, a, 3, msg); got != msg {
			t.Fatalf("received %q, want %q", got, msg)
		}
	}
	echo(0) // the move: the old receive's last completion, the new one armed
	before := switchesIn(t, fmt.Sprintf("/proc/self/task/%d/status", setupTid))
	const n = 50
	for i := 1; i <= n; i++ {
		echo(i)
	}
	if woken := switchesIn(t, fmt.Sprintf("/proc/self/task/%d/status", setupTid)) - before; woken > n/2 {
		t.Errorf("the setup thread was woken %d times for %d receives after Rebind: the receive was not moved", woken, n)
	}
}

// TestThreadBoundMovesStraySubmissions: while bound (inside a locked Run), another thread
// (a promise body of a locked loop closing a stream: RecvForget submits at once) submits a
// multishot receive that a callback had queued; the loop's next wait must move it back to
// the loop's thread, or every receive wakes the other thread.
func TestThreadBoundMovesStraySubmissions(t *testing.T) {
	if err := poller.Available(poller.BackendIOURing); err != nil {
		t.Skip(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p, err := poller.OpenWith(poller.BackendIOURing, poller.Options{ThreadBound: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !p.CanRecv() {
		t.Skip("no multishot")
	}
	f := newFds(t)
	a, b := f.socketpair()
	c, _ := f.socketpair()
	if err := p.Rebind(); err != nil { // Run begins on this thread
		t.Fatal(err)
	}
	p.Wait(0)
	if err := p.RecvStart(a, 3); err != nil { // queued by a callback
		t.Fatal(err)
	}
	if err := p.RecvStart(c, 4); err != nil {
		t.Fatal(err)
	}
	var bodyTid int
	ready, release := make(chan error), make(chan struct{})
	go func() { // a body on its own goroutine, locked here only to name its thread
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		bodyTid = unix.Gettid()
		ready <- p.RecvForget(c) // submits a's queued receive from this thread
		<-release
	}()
	if err := <-ready; err != nil {
		t.Fatal(err)
	}
	defer close(release)
	echo := func(i int) {
		msg := fmt.Sprint("m", i)
		f.write(b, msg)
		if got, _ := recvAll(t, p, a, 3, msg); got != msg {
			t.Fatalf("received %q, want %q", got, msg)
		}
	}
	echo(0) // its wait moves the receive
	before := switchesIn(t, fmt.Sprintf("/proc/self/task/%d/status", bodyTid))
	const n = 50
	for i := 1; i <= n; i++ {
		echo(i)
	}
	if woken := switchesIn(t, fmt.Sprintf("/proc/self/task/%d/status", bodyTid)) - before; woken > n/2 {
		t.Errorf("the body's thread was woken %d times for %d receives: the receive it submitted stays bound to it", woken, n)
	}
}
