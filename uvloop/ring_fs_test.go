package uvloop_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// ringLoop returns a loop that sends every file request it can to the io_uring backend's
// ring, or skips the test where no io_uring backend opens.
func ringLoop(t *testing.T) *uvloop.Loop {
	t.Helper()
	l, err := uvloop.New(uvloop.WithBackend(uvloop.BackendIOURing))
	if err != nil {
		t.Skipf("no io_uring here: %v", err)
	}
	uvloop.FSOnRing(l, true)
	return l
}

// fsOutcome is what a request's callback saw, in a form two runs can compare.
type fsOutcome struct {
	err    string
	errno  syscall.Errno
	result int64
	stat   uvloop.Stat
	data   string
}

func outcomeOf(r *uvloop.FSReq, buf []byte) fsOutcome {
	o := fsOutcome{result: r.Result(), stat: r.Stat()}
	if err := r.Err(); err != nil {
		o.err = err.Error()
		errors.As(err, &o.errno)
	}
	if buf != nil && r.Result() > 0 {
		o.data = string(buf[:r.Result()])
	}
	return o
}

// The same requests, on the ring and on the pool, see the same results and the same errors:
// reads and writes at an offset and at the file's position (-1 and any negative offset),
// stats of every kind, open with its flags, renames, links and directories, and the failures
// of each (their error's text included).
func TestFsRingSameAsPool(t *testing.T) {
	type env struct {
		dir, file string
		fd        int
		buf       []byte
	}
	type step struct {
		name  string
		start func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error
	}
	steps := []step{
		{"read at 2", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, e.fd, e.buf[:4], 2, cb)
		}},
		{"read at position", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, e.fd, e.buf[:3], -1, cb)
		}},
		{"read at position again", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, e.fd, e.buf[:3], -7, cb)
		}},
		{"write at position", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSWrite(r, e.fd, []byte("AB"), -1, cb)
		}},
		{"write at 8", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSWrite(r, e.fd, []byte("Z"), 8, cb)
		}},
		{"read all", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, e.fd, e.buf, 0, cb)
		}},
		{"read past the end", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, e.fd, e.buf, 1<<40, cb)
		}},
		{"read empty buffer", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, e.fd, nil, 0, cb)
		}},
		{"read bad fd", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, 1<<20-3, e.buf, 0, cb)
		}},
		{"fsync", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSFsync(r, e.fd, cb)
		}},
		{"fdatasync bad fd", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSFdatasync(r, -1, cb)
		}},
		{"fstat", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSFstat(r, e.fd, cb)
		}},
		{"fstat -100", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSFstat(r, -100, cb)
		}},
		{"stat", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSStat(r, e.file, cb)
		}},
		{"stat missing", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSStat(r, filepath.Join(e.dir, "missing"), cb)
		}},
		{"stat NUL", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSStat(r, "a\x00b", cb)
		}},
		{"symlink", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSSymlink(r, "file", filepath.Join(e.dir, "link"), cb)
		}},
		{"lstat link", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSLstat(r, filepath.Join(e.dir, "link"), cb)
		}},
		{"stat link", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSStat(r, filepath.Join(e.dir, "link"), cb)
		}},
		{"link", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSLink(r, e.file, filepath.Join(e.dir, "hard"), cb)
		}},
		{"link exists", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSLink(r, e.file, filepath.Join(e.dir, "hard"), cb)
		}},
		{"rename", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRename(r, filepath.Join(e.dir, "hard"), filepath.Join(e.dir, "moved"), cb)
		}},
		{"rename missing", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRename(r, filepath.Join(e.dir, "hard"), filepath.Join(e.dir, "moved"), cb)
		}},
		{"unlink", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSUnlink(r, filepath.Join(e.dir, "moved"), cb)
		}},
		{"unlink a directory", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSUnlink(r, e.dir, cb)
		}},
		{"mkdir", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSMkdir(r, filepath.Join(e.dir, "sub"), 0o700, cb)
		}},
		{"mkdir exists", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSMkdir(r, filepath.Join(e.dir, "sub"), 0o700, cb)
		}},
		{"rmdir", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRmdir(r, filepath.Join(e.dir, "sub"), cb)
		}},
		{"rmdir a file", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRmdir(r, e.file, cb)
		}},
		{"open excl", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, e.file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600, cb)
		}},
		{"open dir for writing", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, e.dir, os.O_RDWR, 0, cb)
		}},
		{"close bad fd", func(l *uvloop.Loop, e *env, r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSClose(r, 1<<20-3, cb)
		}},
	}
	run := func(onRing bool) []fsOutcome {
		l := ringLoop(t)
		defer closeLoop(t, l)
		uvloop.FSOnRing(l, onRing)
		dir := t.TempDir()
		e := &env{dir: dir, file: filepath.Join(dir, "file"), buf: make([]byte, 64)}
		mustOK(t, os.WriteFile(e.file, []byte("0123456789"), 0o600))
		f, err := os.OpenFile(e.file, os.O_RDWR, 0)
		mustOK(t, err)
		defer f.Close()
		e.fd = int(f.Fd())
		var out []fsOutcome
		for _, s := range steps {
			r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return s.start(l, e, r, cb) })
			o := outcomeOf(r, e.buf)
			o.err = strings.ReplaceAll(o.err, dir, "DIR")
			if s.name == "stat" || s.name == "fstat" || s.name == "stat link" || s.name == "lstat link" {
				o.stat.Dev, o.stat.Ino = 0, 0
				o.stat.Atime, o.stat.Mtime, o.stat.Ctime, o.stat.Birthtime = uvloop.Timespec{}, uvloop.Timespec{}, uvloop.Timespec{}, uvloop.Timespec{}
			}
			out = append(out, o)
		}
		if uvloop.FSRingInFlight(l) != 0 {
			t.Errorf("%d requests still counted on the ring", uvloop.FSRingInFlight(l))
		}
		// Open succeeds on both: the descriptor is the caller's.
		r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, e.file, os.O_RDONLY, 0, cb)
		})
		if r.Err() != nil || r.Result() < 0 {
			t.Fatalf("open: %v %d", r.Err(), r.Result())
		}
		fd := int(r.Result())
		r = fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSClose(r, fd, cb) })
		if r.Err() != nil || r.Result() != 0 {
			t.Fatalf("close: %v %d", r.Err(), r.Result())
		}
		return out
	}
	pool, ring := run(false), run(true)
	for i, s := range steps {
		if pool[i] != ring[i] {
			t.Errorf("%s:\n pool %+v\n ring %+v", s.name, pool[i], ring[i])
		}
	}
	if t.Failed() {
		return
	}
	// A sanity check of the table itself.
	if pool[0].data != "2345" || pool[1].data != "012" || pool[2].data != "345" || pool[14].errno != syscall.ENOENT {
		t.Errorf("unexpected outcomes: %+v", pool[:3])
	}
}

// A request on the ring cannot be cancelled (Cancel: ErrBusy, as libuv's io_uring requests),
// keeps the loop alive and Close busy until its callback has run, and its callback runs in
// the poll phase: after prepare, before check.
func TestFsRingCancelCloseAndPhase(t *testing.T) {
	l := ringLoop(t)
	defer closeLoop(t, l)
	var phases []string
	prep := l.NewPrepare(func(*uvloop.Prepare) { phases = append(phases, "prepare") })
	check := l.NewCheck(func(*uvloop.Check) { phases = append(phases, "check") })
	mustOK(t, prep.Start())
	mustOK(t, check.Start())
	prep.Unref()
	check.Unref()
	var req uvloop.FSReq
	ran := 0
	mustOK(t, l.FSStat(&req, ".", func(r *uvloop.FSReq) {
		if r.Err() != nil || !r.Stat().IsDir() {
			t.Errorf("stat: %v", r.Err())
		}
		phases = append(phases, "fs")
		ran++
	}))
	if uvloop.FSRingInFlight(l) != 1 {
		t.Skip("the kernel cannot stat on the ring")
	}
	if err := req.Cancel(); !errors.Is(err, uvloop.ErrBusy) {
		t.Errorf("Cancel on the ring: %v, want ErrBusy", err)
	}
	if !l.Alive() {
		t.Error("a request on the ring does not keep the loop alive")
	}
	if err := l.Close(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Close with a request on the ring: %v", err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	if ran != 1 || uvloop.FSRingInFlight(l) != 0 {
		t.Fatalf("callback ran %d times, %d in flight", ran, uvloop.FSRingInFlight(l))
	}
	i := slices.Index(phases, "fs")
	if i < 1 || phases[i-1] != "prepare" || i+1 >= len(phases) || phases[i+1] != "check" {
		t.Errorf("phases %v: want the fs callback between prepare and check", phases)
	}
}

// Requests on the ring allocate nothing, as on the pool (TestFsAllocs): a read at an
// offset, a stat, an open and a close of one reused request.
func TestFsRingAllocs(t *testing.T) {
	l := ringLoop(t)
	defer closeLoop(t, l)
	p := filepath.Join(t.TempDir(), "f")
	mustOK(t, os.WriteFile(p, []byte("small file"), 0o600))
	f, err := os.Open(p)
	mustOK(t, err)
	defer f.Close()
	var req uvloop.FSReq
	buf := make([]byte, 4)
	var failed error
	opened := -1
	cb := func(r *uvloop.FSReq) { failed = r.Err() }
	openCb := func(r *uvloop.FSReq) { failed, opened = r.Err(), int(r.Result()) }
	run := func(start func() error) {
		mustOK(t, start())
		mustRunMode(t, l, uvloop.RunDefault)
		mustOK(t, failed)
	}
	fn := func() {
		run(func() error { return l.FSRead(&req, int(f.Fd()), buf, 2, cb) })
		run(func() error { return l.FSStat(&req, p, cb) })
		run(func() error { return l.FSOpen(&req, p, os.O_RDONLY, 0, openCb) })
		run(func() error { return l.FSClose(&req, opened, cb) })
	}
	fn()
	if n := testing.AllocsPerRun(100, fn); n != 0 {
		t.Errorf("%v allocations per read+stat+open+close on the ring", n)
	}
}
