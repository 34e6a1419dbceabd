package uvloop_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// BenchmarkFSRing runs the same file workloads on an io_uring loop twice, side by side: on the
// work pool ("pool") and as submissions to the ring ("ring"). Each op is b.N requests of one
// reused FSReq, each started from the previous one's callback, so ns/req is one request's
// round trip, and cpu-ns/req the CPU time the process spent on it, in all its threads (the
// pool's workers and the kernel's io_uring workers too): the machine is shared, so the
// round trip's wall time is noisy. (A stat on the pool: queue, worker wake-up, statx, loop wake-up; on the ring:
// one SQE, reaped by the loop's io_uring_enter.) ringFSOps (ring_fs.go) keeps on the ring the
// ops that are faster there. Recorded in bench/README.md's io_uring section, from runs of
// one workload and side at a time, interleaved:
//
//	go test -c ./uvloop && ./uvloop.test -test.run '^$' -test.bench 'FSRing/^stat$/^ring$' -test.benchtime 20000x
func BenchmarkFSRing(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, make([]byte, 64<<10), 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	fd := int(f.Fd())
	buf := make([]byte, 4096)
	sub := filepath.Join(dir, "d")
	moved := filepath.Join(dir, "g")
	type step = func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error
	workloads := []struct {
		name string
		step step
	}{
		{"read4k", func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, fd, buf, int64(i%15)*4096, cb)
		}},
		{"write4k", func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error {
			return l.FSWrite(r, fd, buf, int64(i%15)*4096, cb)
		}},
		{"stat", func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error {
			return l.FSStat(r, file, cb)
		}},
		{"fstat", func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error {
			return l.FSFstat(r, fd, cb)
		}},
		{"open+close", func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error {
			if i%2 == 0 {
				return l.FSOpen(r, file, os.O_RDONLY, 0, cb)
			}
			return l.FSClose(r, int(r.Result()), cb)
		}},
		{"fdatasync", func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error {
			return l.FSFdatasync(r, fd, cb)
		}},
		{"mkdir+rmdir", func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error {
			if i%2 == 0 {
				return l.FSMkdir(r, sub, 0o700, cb)
			}
			return l.FSRmdir(r, sub, cb)
		}},
		{"rename", func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error {
			if i%2 == 0 {
				return l.FSRename(r, file, moved, cb)
			}
			return l.FSRename(r, moved, file, cb)
		}},
	}
	for _, w := range workloads {
		for _, where := range []string{"pool", "ring"} {
			b.Run(w.name+"/"+where, func(b *testing.B) { runFSChains(b, where == "ring", 1, w.step) })
		}
	}
	// The same with 32 requests in flight, each started again from its own callback: the
	// ring submits and reaps a batch per io_uring_enter, the pool's 4 workers share them.
	for _, w := range workloads[:5] {
		for _, where := range []string{"pool", "ring"} {
			b.Run(w.name+"-32/"+where, func(b *testing.B) { runFSChains(b, where == "ring", 32, w.step) })
		}
	}
}

// runFSChains runs chains requests at once on a new io_uring loop (on the ring or on the
// pool), each started again from its callback with the next step, about b.N in all (an even
// number per chain: a directory made is removed, a file moved comes back), and reports the
// wall and CPU time per request.
func runFSChains(b *testing.B, onRing bool, chains int, step func(l *uvloop.Loop, r *uvloop.FSReq, i int, cb func(*uvloop.FSReq)) error) {
	l, err := uvloop.New(uvloop.WithBackend(uvloop.BackendIOURing))
	if err != nil {
		b.Skip(err)
	}
	defer l.Close()
	uvloop.FSOnRing(l, onRing)
	reqs := make([]uvloop.FSReq, chains)
	counts := make([]int, chains)
	per := 2 * ((b.N/chains + 1) / 2)
	if per == 0 {
		per = 2
	}
	cbs := make([]func(*uvloop.FSReq), chains)
	for k := range cbs {
		cbs[k] = func(r *uvloop.FSReq) {
			if r.Err() != nil {
				b.Fatal(r.Err())
			}
			if counts[k]++; counts[k] < per {
				if err := step(l, r, counts[k], cbs[k]); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu, start := cpuTime(), time.Now()
	for k := range reqs {
		if err := step(l, &reqs[k], 0, cbs[k]); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	total := float64(per * chains)
	b.ReportMetric(float64(time.Since(start))/total, "ns/req")
	b.ReportMetric(float64(cpuTime()-cpu)/total, "cpu-ns/req")
	for k, c := range counts {
		if c != per {
			b.Fatalf("chain %d: %d of %d requests", k, c, per)
		}
	}
}

// cpuTime is the process's user and system time so far, in all its threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
