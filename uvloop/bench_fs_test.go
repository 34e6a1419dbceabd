package uvloop_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// benchFile is a 1 KiB file for the fs benchmarks, removed when the benchmark ends.
func benchFile(b *testing.B) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "bench.txt")
	if err := os.WriteFile(p, make([]byte, 1024), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkFSStat is the fs-stat workload: b.N stats of one file, each started from the
// previous one's callback (one request, reused): ns/op is one work-pool round trip with a
// statx on the worker.
func BenchmarkFSStat(b *testing.B) {
	p := benchFile(b)
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	var req uvloop.FSReq
	n := 0
	var cb func(*uvloop.FSReq)
	cb = func(r *uvloop.FSReq) {
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
		if n++; n < b.N {
			l.FSStat(r, p, cb)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := l.FSStat(&req, p, cb); err != nil {
		b.Fatal(err)
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if n != b.N {
		b.Fatalf("%d of %d stats", n, b.N)
	}
	l.Close()
}

// BenchmarkFSRead is the fs-read workload: b.N reads of 64 bytes at offset 0 of an open file,
// each started from the previous one's callback.
func BenchmarkFSRead(b *testing.B) {
	p := benchFile(b)
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	fd := int(f.Fd())
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	var req uvloop.FSReq
	buf := make([]byte, 64)
	n := 0
	var cb func(*uvloop.FSReq)
	cb = func(r *uvloop.FSReq) {
		if r.Err() != nil || r.Result() != 64 {
			b.Fatal(r.Err(), r.Result())
		}
		if n++; n < b.N {
			l.FSRead(r, fd, buf, 0, cb)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := l.FSRead(&req, fd, buf, 0, cb); err != nil {
		b.Fatal(err)
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if n != b.N {
		b.Fatalf("%d of %d reads", n, b.N)
	}
	l.Close()
}
