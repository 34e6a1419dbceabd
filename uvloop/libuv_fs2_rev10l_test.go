package uvloop_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's test-fs.c (sendfile, times, symlinks, batches), in our own words,
// each run in every mode, through the loop and synchronously.

// fs_async_sendfile and fs_async_sendfile_nodata: sendfile from offset 1 of a file of
// "begin\n", a 64 KiB hole and "end\n" (65546 bytes) copies the 65545 bytes after the first;
// from an empty file it copies nothing.
func TestLibuvFsAsyncSendfileRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		src := make([]byte, 65546)
		copy(src, "begin\n")
		copy(src[65542:], "end\n")
		for _, c := range []struct {
			name    string
			content []byte
			want    int64
		}{{"data", src, 65545}, {"nodata", nil, 0}} {
			in, out := filepath.Join(dir, c.name+"_in"), filepath.Join(dir, c.name+"_out")
			mustOK(t, os.WriteFile(in, c.content, 0o600))
			inFd := fsOpenRev10l(t, l, in, os.O_RDONLY, 0)
			outFd := fsOpenRev10l(t, l, out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			if n := fsOKRev10l(t, l, "sendfile", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSSendfile(r, outFd, inFd, 1, 131072, cb)
			}); n != c.want {
				t.Fatalf("%s: sendfile %d, want %d", c.name, n, c.want)
			}
			fsCloseRev10l(t, l, inFd)
			fsCloseRev10l(t, l, outFd)
			got, err := os.ReadFile(out)
			mustOK(t, err)
			if c.want > 0 && !bytes.Equal(got, c.content[1:]) || c.want == 0 && len(got) != 0 {
				t.Fatalf("%s: the copy has %d bytes, differing", c.name, len(got))
			}
		}
	})
}

// fs_utime_round: times before the epoch with a fraction (-14245440.25 s, 1969-07-20
// 02:56:00.25) are set exactly: stat reports second -14245441 and 750000000 ns, as libuv's
// conversion makes them.
func TestLibuvFsUtimeRoundRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		path := filepath.Join(t.TempDir(), "test_file")
		mustOK(t, os.WriteFile(path, nil, 0o600))
		ts := time.Unix(-14245441, 750000000)
		a, s := fsBothRev10l(t, l, "utime", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSUtime(r, path, ts, ts, cb)
		})
		for _, r := range []*uvloop.FSReq{a, s} {
			mustOK(t, r.Err())
		}
		st := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, path, cb) }).Stat()
		want := uvloop.Timespec{Sec: -14245441, Nsec: 750000000}
		if st.Atime != want || st.Mtime != want {
			t.Fatalf("atime %+v, mtime %+v; want %+v", st.Atime, st.Mtime, want)
		}
	})
}

// fs_lutime: lutime of a symlink sets the link's own times (lstat shows them, 400497753.25 s
// and later 1291404900 s) and leaves the target's alone.
func TestLibuvFsLutimeRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		path, link := filepath.Join(dir, "test_file"), filepath.Join(dir, "test_file_symlink")
		mustOK(t, os.WriteFile(path, nil, 0o600))
		before, err := os.Stat(path)
		mustOK(t, err)
		mustOK(t, os.Symlink(path, link))
		for _, ts := range []time.Time{time.Unix(400497753, 250000000), time.Unix(1291404900, 0)} {
			a, s := fsBothRev10l(t, l, "lutime", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSLutime(r, link, ts, ts, cb)
			})
			for _, r := range []*uvloop.FSReq{a, s} {
				mustOK(t, r.Err())
			}
			st := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSLstat(r, link, cb) }).Stat()
			want := uvloop.Timespec{Sec: ts.Unix(), Nsec: int64(ts.Nanosecond())}
			if !st.IsSymlink() || st.Mtime != want {
				t.Errorf("the link: symlink %v, mtime %+v; want %+v", st.IsSymlink(), st.Mtime, want)
			}
		}
		after, err := os.Stat(path)
		mustOK(t, err)
		if !after.ModTime().Equal(before.ModTime()) {
			t.Errorf("the target's mtime moved from %v to %v", before.ModTime(), after.ModTime())
		}
	})
}

// fs_symlink_dir: a symlink to a directory reads back (readlink) as its target, resolves
// (realpath) to the directory, stats as the directory and lstats as a link, and lists (scandir)
// the directory's entries; unlinking it leaves the directory.
// fs_fstat_st_dev: stat of a file and of a symlink to it report the same device.
func TestLibuvFsSymlinkDirRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		base, err := filepath.EvalSymlinks(t.TempDir())
		mustOK(t, err)
		target, link := filepath.Join(base, "test_dir"), filepath.Join(base, "test_dir_symlink")
		mustOK(t, os.Mkdir(target, 0o700))
		mustOK(t, os.WriteFile(filepath.Join(target, "file1"), nil, 0o600))
		mustOK(t, os.WriteFile(filepath.Join(target, "file2"), nil, 0o600))
		fsOKRev10l(t, l, "symlink", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSSymlink(r, target, link, cb) })
		a, s := fsBothRev10l(t, l, "readlink", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadlink(r, link, cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			if r.Err() != nil || r.ResultPath() != target {
				t.Errorf("readlink: %q, %v", r.ResultPath(), r.Err())
			}
		}
		a, s = fsBothRev10l(t, l, "realpath", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRealpath(r, link, cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			if r.Err() != nil || r.ResultPath() != target {
				t.Errorf("realpath: %q, %v", r.ResultPath(), r.Err())
			}
		}
		st := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, link, cb) })
		lst := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSLstat(r, link, cb) })
		if !st.Stat().IsDir() || !lst.Stat().IsSymlink() || st.Stat().Dev != lst.Stat().Dev {
			t.Errorf("stat dir %v, lstat link %v, devices %d %d", st.Stat().IsDir(), lst.Stat().IsSymlink(), st.Stat().Dev, lst.Stat().Dev)
		}
		sd := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSScandir(r, link, cb) })
		if ents := sd.Dirents(); sd.Err() != nil || len(ents) != 2 || ents[0].Name != "file1" || ents[1].Name != "file2" {
			t.Errorf("scandir through the link: %v, %v", ents, sd.Err())
		}
		fsOKRev10l(t, l, "unlink", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSUnlink(r, link, cb) })
		if fi, err := os.Stat(target); err != nil || !fi.IsDir() {
			t.Fatalf("the directory after unlinking the link: %v", err)
		}

		file, flink := filepath.Join(base, "tmp_st_dev"), filepath.Join(base, "tmp_st_dev_link")
		mustOK(t, os.WriteFile(file, nil, 0o600))
		mustOK(t, os.Symlink(file, flink))
		fs := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, file, cb) })
		ls := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSStat(r, flink, cb) })
		if fs.Stat().Dev != ls.Stat().Dev || fs.Stat().Ino != ls.Stat().Ino {
			t.Errorf("st_dev %d and %d, inodes %d and %d", fs.Stat().Dev, ls.Stat().Dev, fs.Stat().Ino, ls.Stat().Ino)
		}
	})
}

// fs_fstat_stdio: fstat of fds 0, 1 and 2 succeeds.
// fs_stat_batch_multiple: 300 stats in flight at once all complete, each once.
func TestLibuvFsStatBatchRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		for fd := 0; fd <= 2; fd++ {
			a, s := fsBothRev10l(t, l, "fstat of stdio", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFstat(r, fd, cb) })
			for _, r := range []*uvloop.FSReq{a, s} {
				if r.Err() != nil || r.Result() != 0 {
					t.Errorf("fstat(%d): %d, %v", fd, r.Result(), r.Err())
				}
			}
		}
		dir := t.TempDir()
		const n = 300
		done := make([]int, n)
		for i := range n {
			mustOK(t, l.FSStat(new(uvloop.FSReq), dir, func(r *uvloop.FSReq) {
				mustOK(t, r.Err())
				done[i]++
			}))
		}
		runLoop(t, l)
		for i, d := range done {
			if d != 1 {
				t.Fatalf("stat %d called back %d times", i, d)
			}
		}
	})
}

// fs_partial_write and fs_partial_read: a write of 54321 buffers (706173 bytes) into a pipe
// that another goroutine drains 1000 bytes at a time completes in full, however short each
// write(2) is; reads of as many buffers from a pipe filled 1000 bytes at a time return what
// is there, and reading on gets it all. Through the loop and synchronously.
func TestLibuvFsPartialRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		const count = 54321
		size := len(fsTestBufRev10l) * count
		for _, sync := range []bool{false, true} {
			do := func(start func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error) *uvloop.FSReq {
				if !sync {
					return fsRun(t, l, start)
				}
				r := new(uvloop.FSReq)
				start(r, nil)
				return r
			}
			// The write.
			pr, pw, err := os.Pipe()
			mustOK(t, err)
			got := make(chan []byte)
			go func() {
				var all []byte
				buf := make([]byte, 1000)
				for len(all) < size {
					n, err := pr.Read(buf)
					if err != nil {
						break
					}
					all = append(all, buf[:n]...)
				}
				got <- all
			}()
			bufs := make([][]byte, count)
			for i := range bufs {
				bufs[i] = fsTestBufRev10l
			}
			r := do(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSWritev(r, int(pw.Fd()), bufs, -1, cb) })
			if r.Err() != nil || r.Result() != int64(size) {
				t.Fatalf("sync %v: writev %d, %v; want %d", sync, r.Result(), r.Err(), size)
			}
			if all := <-got; !bytes.Equal(all, bytes.Repeat(fsTestBufRev10l, count)) {
				t.Fatalf("sync %v: the reader got %d bytes, differing", sync, len(all))
			}
			pw.Close()
			pr.Close()

			// The reads.
			pr, pw, err = os.Pipe()
			mustOK(t, err)
			want := bytes.Repeat([]byte("0123456789"), size/10)
			go func() {
				for off := 0; off < len(want); off += 1000 {
					if _, err := pw.Write(want[off:min(off+1000, len(want))]); err != nil {
						return
					}
				}
			}()
			back := make([]byte, len(want))
			read := 0
			for read < len(want) {
				rest := back[read:]
				chunks := make([][]byte, 0, len(rest)/13+1)
				for len(rest) > 0 {
					k := min(13, len(rest))
					chunks = append(chunks, rest[:k])
					rest = rest[k:]
				}
				r := do(func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadv(r, int(pr.Fd()), chunks, -1, cb) })
				if r.Err() != nil || r.Result() <= 0 {
					t.Fatalf("sync %v: readv at %d: %d, %v", sync, read, r.Result(), r.Err())
				}
				read += int(r.Result())
			}
			if !bytes.Equal(back, want) {
				t.Fatalf("sync %v: read other bytes", sync)
			}
			pw.Close()
			pr.Close()
		}
	})
}

// syncRev10l runs one fs request synchronously (a nil callback) and fails the test if the
// call's error and the request's differ, or if it failed; it returns the request.
func syncRev10l(t *testing.T, step string, start func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error) *uvloop.FSReq {
	t.Helper()
	r := new(uvloop.FSReq)
	err := start(r, nil)
	if err != r.Err() {
		t.Fatalf("%s: the call returned %v, the request says %v", step, err, r.Err())
	}
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if r.InFlight() {
		t.Fatalf("%s: a synchronous request in flight", step)
	}
	return r
}

// fs_file_sync: synchronously, create a file and write to it, reopen it and read it back,
// truncate it to 7 bytes, rename it, read "test-bu" from the new name, unlink it; the loop has
// nothing to do afterwards.
func TestLibuvFsFileSyncRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		p1, p2 := filepath.Join(dir, "test_file"), filepath.Join(dir, "test_file2")
		open := func(path string, flags int) int {
			return int(syncRev10l(t, "open", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSOpen(r, path, flags, 0o600, cb)
			}).Result())
		}
		closeFd := func(fd int) {
			syncRev10l(t, "close", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSClose(r, fd, cb) })
		}
		read := func(fd int) string {
			buf := make([]byte, 32)
			n := syncRev10l(t, "read", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRead(r, fd, buf, -1, cb) }).Result()
			return string(buf[:n])
		}
		fd := open(p1, os.O_WRONLY|os.O_CREATE)
		if n := syncRev10l(t, "write", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSWrite(r, fd, fsTestBufRev10l, -1, cb)
		}).Result(); n != int64(len(fsTestBufRev10l)) {
			t.Fatalf("write %d", n)
		}
		closeFd(fd)
		fd = open(p1, os.O_RDWR)
		if got := read(fd); got != string(fsTestBufRev10l) {
			t.Fatalf("read %q", got)
		}
		syncRev10l(t, "ftruncate", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFtruncate(r, fd, 7, cb) })
		closeFd(fd)
		syncRev10l(t, "rename", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRename(r, p1, p2, cb) })
		fd = open(p2, os.O_RDONLY)
		if got := read(fd); got != "test-bu" {
			t.Fatalf("read after truncate and rename %q", got)
		}
		closeFd(fd)
		syncRev10l(t, "unlink", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSUnlink(r, p2, cb) })
		if mustRunMode(t, l, uvloop.RunDefault) {
			t.Fatal("the loop is alive after synchronous requests")
		}
	})
}

// fs_read_write_null_arguments: a vectored read or write of no buffers (nil or empty) fails
// with EINVAL, synchronously and through the loop, before any other check (a bad descriptor
// too); once its callback has run, nothing keeps the loop alive. (libuv returns the EINVAL
// from the call itself; uvgo reports bad arguments of fs requests through the request, as
// TestFsBadInput shows for the others.)
func TestLibuvFsReadWriteNullArgumentsRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		for _, bufs := range [][][]byte{nil, {}} {
			for _, c := range []struct {
				name  string
				start func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error
			}{
				{"readv", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadv(r, 0, bufs, -1, cb) }},
				{"writev", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSWritev(r, 0, bufs, -1, cb) }},
				{"readv bad fd", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadv(r, -1, bufs, -1, cb) }},
			} {
				a, s := fsBothRev10l(t, l, c.name, c.start)
				for _, r := range []*uvloop.FSReq{a, s} {
					wantErrno(t, c.name, r.Err(), syscall.EINVAL)
					if r.Result() != -1 {
						t.Errorf("%s: Result %d, want -1", c.name, r.Result())
					}
				}
				if l.Alive() {
					t.Fatalf("%s: the loop is alive after the callback", c.name)
				}
			}
		}
	})
}
