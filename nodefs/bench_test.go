package nodefs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// BenchmarkReadFile is the fs-readfile workload: b.N fs.readFile calls of a 1 KiB file, each
// started from the previous one's callback: four work-pool round trips each (open, fstat,
// read, close), as Node's.
func BenchmarkReadFile(b *testing.B) {
	p := filepath.Join(b.TempDir(), "bench.txt")
	if err := os.WriteFile(p, make([]byte, 1024), 0o644); err != nil {
		b.Fatal(err)
	}
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	fs := nodefs.New(l)
	n := 0
	var cb func(error, []byte)
	cb = func(err error, data []byte) {
		if err != nil || len(data) != 1024 {
			b.Fatal(err, len(data))
		}
		if n++; n < b.N {
			fs.ReadFile(p, cb)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	fs.ReadFile(p, cb)
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if n != b.N {
		b.Fatalf("%d of %d", n, b.N)
	}
	l.Close()
}
