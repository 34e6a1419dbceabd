package nodefs_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
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

// BenchmarkReadFile1M is the fs-readfile-1m workload: b.N fs.readFile calls of a 1 MiB file,
// each started from the previous one's callback: five work-pool round trips each (open,
// fstat, two reads of 512 KiB, close), as Node's.
func BenchmarkReadFile1M(b *testing.B) {
	const size = 1 << 20
	p := filepath.Join(b.TempDir(), "bench.bin")
	if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
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
		if err != nil || len(data) != size {
			b.Fatal(err, len(data))
		}
		if n++; n < b.N {
			fs.ReadFile(p, cb)
		}
	}
	b.SetBytes(size)
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

// BenchmarkSmallFiles is the fs-smallfiles workload: b.N files of 1 KiB in a fresh
// directory, each written with fs.writeFile (open, write, close), then each read back with
// fs.readFile (open, fstat, read, close); at most 64 calls in flight in each phase.
// Removing the files is not measured.
func BenchmarkSmallFiles(b *testing.B) {
	const window = 64
	dir := b.TempDir()
	data := bytes.Repeat([]byte("x"), 1024)
	files := make([]string, b.N)
	for i := range files {
		files[i] = filepath.Join(dir, "f"+strconv.Itoa(i))
	}
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	fs := nodefs.New(l)
	// phase runs op(i, cb) for every file, at most window at a time, then calls then.
	phase := func(op func(i int, cb func(error)), then func()) {
		next, done := 0, 0
		var one func()
		one = func() {
			i := next
			next++
			op(i, func(err error) {
				if err != nil {
					b.Fatal(err)
				}
				if done++; done == b.N {
					then()
					return
				}
				if next < b.N {
					one()
				}
			})
		}
		for k := 0; k < window && k < b.N; k++ {
			one()
		}
	}
	read := 0
	b.ReportAllocs()
	b.ResetTimer()
	phase(func(i int, cb func(error)) { fs.WriteFile(files[i], data, nil, cb) }, func() {
		phase(func(i int, cb func(error)) {
			fs.ReadFile(files[i], func(err error, got []byte) {
				if err == nil && len(got) != len(data) {
					err = fmt.Errorf("short read %d", len(got))
				}
				read++
				cb(err)
			})
		}, func() {})
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if read != b.N {
		b.Fatalf("%d of %d files read", read, b.N)
	}
	l.Close()
}
