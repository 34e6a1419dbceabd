package uvloop_test

import (
	"os"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// BenchmarkSpawnTrue spawns /bin/true and waits for its exit, b.N times one after the
// other: ns/op is per child, spawn to exit callback (bench/node/spawn-true.js beside it).
func BenchmarkSpawnTrue(b *testing.B) {
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	done := 0
	opts := &uvloop.ProcessOptions{File: "/bin/true", Args: []string{"true"}}
	var next func()
	opts.OnExit = func(p *uvloop.Process, status int64, sig syscall.Signal) {
		if status != 0 {
			b.Fatalf("exit %d", status)
		}
		p.Close(nil)
		if done++; done < b.N {
			next()
		}
	}
	next = func() {
		if _, err := l.Spawn(opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	next()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if done != b.N {
		b.Fatalf("%d of %d exits", done, b.N)
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSignalRoundTrip sends SIGUSR2 to the process and waits for the handle's callback,
// b.N times one after the other (bench/node/signal-roundtrip.js beside it).
func BenchmarkSignalRoundTrip(b *testing.B) {
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	pid := os.Getpid()
	got := 0
	s, err := l.NewSignal(func(s *uvloop.Signal, _ syscall.Signal) {
		if got++; got == b.N {
			s.Close(nil)
			return
		}
		if err := syscall.Kill(pid, syscall.SIGUSR2); err != nil {
			b.Fatal(err)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Start(syscall.SIGUSR2); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := syscall.Kill(pid, syscall.SIGUSR2); err != nil {
		b.Fatal(err)
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if got != b.N {
		b.Fatalf("%d of %d signals", got, b.N)
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkGetAddrInfoLocalhost looks localhost up b.N times one after the other: the
// libuv-level lookup (nodedns's BenchmarkLookupLocalhost is the row beside Node's).
func BenchmarkGetAddrInfoLocalhost(b *testing.B) {
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	done := 0
	hints := &uvloop.AddrInfoHints{SockType: uvloop.SockStream}
	var next func()
	cb := func(res []uvloop.AddrInfo, err error) {
		if err != nil {
			b.Fatal(err)
		}
		if done++; done < b.N {
			next()
		}
	}
	next = func() {
		if _, err := l.GetAddrInfo("localhost", "", hints, cb); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	next()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}
