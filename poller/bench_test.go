//go:build linux || darwin || freebsd || netbsd || openbsd

package poller_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// BenchmarkWaitZero polls with one registered descriptor that is ready.
func BenchmarkWaitZero(b *testing.B) {
	p, err := poller.Open(backend)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	var fds [2]int
	if err := pipe2(fds[:]); err != nil {
		b.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	if err := p.Add(fds[0], poller.Readable, 1); err != nil {
		b.Fatal(err)
	}
	if _, err := unix.Write(fds[1], []byte("x")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if evs, _, err := p.Wait(0); err != nil || len(evs) != 1 {
			b.Fatalf("Wait(0) = %v, %v", evs, err)
		}
	}
}

// BenchmarkWakeWait fires the wake-up and consumes it.
func BenchmarkWakeWait(b *testing.B) {
	p, err := poller.Open(backend)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Wake(); err != nil {
			b.Fatal(err)
		}
		if _, woke, err := p.Wait(0); err != nil || !woke {
			b.Fatalf("Wait(0) after Wake: woke=%v, %v", woke, err)
		}
	}
}

// BenchmarkWakeCoalesced measures a Wake while one is pending: no system call.
func BenchmarkWakeCoalesced(b *testing.B) {
	p, err := poller.Open(backend)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	p.Wake()
	b.ReportAllocs()
	for b.Loop() {
		p.Wake()
	}
}
