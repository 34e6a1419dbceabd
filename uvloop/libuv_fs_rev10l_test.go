package uvloop_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of more of libuv's test-fs.c, in our own words, each run in every mode. libuv runs
// most of these synchronously; here every step runs twice, once through the loop (on the
// work pool, or on the ring with io_uring) and once synchronously, and both must agree.

// fsTestBufRev10l is libuv's test_buf: "test-buffer\n" and its C string's NUL.
var fsTestBufRev10l = []byte("test-buffer\n\x00")

// fsBothRev10l runs one fs request through the loop, then again synchronously (start gets a
// nil callback), and returns the two requests. step names it in failures.
func fsBothRev10l(t *testing.T, l *uvloop.Loop, step string, start func(req *uvloop.FSReq, cb func(*uvloop.FSReq)) error) (async, sync *uvloop.FSReq) {
	t.Helper()
	async = fsRun(t, l, start)
	sync = new(uvloop.FSReq)
	err := start(sync, nil)
	if !errors.Is(err, sync.Err()) || (err == nil) != (sync.Err() == nil) {
		t.Errorf("%s: synchronous call returned %v, its request says %v", step, err, sync.Err())
	}
	if (async.Err() == nil) != (sync.Err() == nil) {
		t.Errorf("%s: through the loop %v, synchronously %v", step, async.Err(), sync.Err())
	}
	return async, sync
}

// fsOKRev10l runs one request through the loop and fails the test if it failed; it returns
// the request's result.
func fsOKRev10l(t *testing.T, l *uvloop.Loop, step string, start func(req *uvloop.FSReq, cb func(*uvloop.FSReq)) error) int64 {
	t.Helper()
	r := fsRun(t, l, start)
	if r.Err() != nil {
		t.Fatalf("%s: %v", step, r.Err())
	}
	return r.Result()
}

// fsOpenRev10l opens path through the loop and returns the fd (the test closes it).
func fsOpenRev10l(t *testing.T, l *uvloop.Loop, path string, flags int, mode uint32) int {
	t.Helper()
	fd := int(fsOKRev10l(t, l, "open "+path, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
		return l.FSOpen(r, path, flags, mode, cb)
	}))
	return fd
}

// fsCloseRev10l closes fd through the loop.
func fsCloseRev10l(t *testing.T, l *uvloop.Loop, fd int) {
	t.Helper()
	fsOKRev10l(t, l, "close", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSClose(r, fd, cb) })
}

// fs_file_nametoolong, fs_file_loop, fs_stat_missing_path: open of a name longer than
// NAME_MAX fails with ENAMETOOLONG, open of a symlink to itself with ELOOP, stat of a path
// that does not exist with ENOENT; each with Result -1, through the loop and synchronously.
func TestLibuvFsOpenErrorsRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		long := filepath.Join(dir, strings.Repeat("a", 256))
		loop := filepath.Join(dir, "test_symlink")
		mustOK(t, os.Symlink(loop, loop))
		for _, c := range []struct {
			name  string
			errno syscall.Errno
			start func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error
		}{
			{"open of a long name", syscall.ENAMETOOLONG, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSOpen(r, long, os.O_RDONLY, 0, cb)
			}},
			{"open of a symlink loop", syscall.ELOOP, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSOpen(r, loop, os.O_RDONLY, 0, cb)
			}},
			{"stat of a missing path", syscall.ENOENT, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSStat(r, filepath.Join(dir, "non_existent_file"), cb)
			}},
		} {
			a, s := fsBothRev10l(t, l, c.name, c.start)
			for _, r := range []*uvloop.FSReq{a, s} {
				wantErrno(t, c.name, r.Err(), c.errno)
				if r.Result() != -1 {
					t.Errorf("%s: Result %d, want -1", c.name, r.Result())
				}
			}
		}
	})
}

// fs_open_dir: a directory opens read-only, through the loop and synchronously.
// fs_read_dir: a read from a directory's fd fails with EISDIR.
func TestLibuvFsOpenReadDirRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		a, s := fsBothRev10l(t, l, "open of a directory", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSOpen(r, dir, os.O_RDONLY, 0, cb)
		})
		for _, r := range []*uvloop.FSReq{a, s} {
			if r.Err() != nil || r.Result() < 0 {
				t.Fatalf("open of a directory: %d, %v", r.Result(), r.Err())
			}
		}
		fsCloseRev10l(t, l, int(s.Result()))
		fd := int(a.Result())
		buf := make([]byte, 2)
		ra, rs := fsBothRev10l(t, l, "read of a directory", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, fd, buf, 0, cb)
		})
		wantErrno(t, "read of a directory", ra.Err(), syscall.EISDIR)
		wantErrno(t, "read of a directory (sync)", rs.Err(), syscall.EISDIR)
		fsCloseRev10l(t, l, fd)
	})
}

// fs_posix_delete: rmdir of a directory that is not empty fails with ENOTEMPTY (or EEXIST),
// rmdir of a file with ENOTDIR (or ENOENT); once the file is unlinked, the directory goes,
// though the file is still open.
func TestLibuvFsPosixDeleteRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := filepath.Join(t.TempDir(), "test_dir")
		file := filepath.Join(dir, "file")
		fsOKRev10l(t, l, "mkdir", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSMkdir(r, dir, 0o755, cb) })
		fd := fsOpenRev10l(t, l, file, os.O_WRONLY|os.O_CREATE, 0o600)
		a, s := fsBothRev10l(t, l, "rmdir of a full directory", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRmdir(r, dir, cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			if !errors.Is(r.Err(), syscall.ENOTEMPTY) && !errors.Is(r.Err(), syscall.EEXIST) {
				t.Errorf("rmdir of a full directory: %v", r.Err())
			}
		}
		a, s = fsBothRev10l(t, l, "rmdir of a file", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRmdir(r, file, cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			if !errors.Is(r.Err(), syscall.ENOTDIR) && !errors.Is(r.Err(), syscall.ENOENT) {
				t.Errorf("rmdir of a file: %v", r.Err())
			}
		}
		fsOKRev10l(t, l, "unlink", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSUnlink(r, file, cb) })
		fsOKRev10l(t, l, "rmdir", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRmdir(r, dir, cb) })
		fsCloseRev10l(t, l, fd)
	})
}

// fs_scandir_empty_dir: an empty directory lists nothing, through the loop and
// synchronously. fs_scandir_early_exit: a directory with an entry lists it.
func TestLibuvFsScandirEmptyRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := filepath.Join(t.TempDir(), "empty_dir")
		mustOK(t, os.Mkdir(dir, 0o777))
		a, s := fsBothRev10l(t, l, "scandir", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSScandir(r, dir+"/", cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			if r.Err() != nil || r.Result() != 0 || len(r.Dirents()) != 0 {
				t.Errorf("scandir of an empty directory: %d, %v, %v", r.Result(), r.Dirents(), r.Err())
			}
		}
		mustOK(t, os.WriteFile(filepath.Join(dir, "one_file"), nil, 0o600))
		a, s = fsBothRev10l(t, l, "scandir", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSScandir(r, dir, cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			if r.Err() != nil || len(r.Dirents()) != 1 || r.Dirents()[0].Name != "one_file" {
				t.Errorf("scandir of a directory with one file: %v, %v", r.Dirents(), r.Err())
			}
		}
	})
}

// fs_file_open_append and fs_read_file_eof: writes at the position (-1) of a file opened
// O_APPEND go after what is there; a read at the position returns it all, and a read at the
// offset past the end returns 0.
func TestLibuvFsOpenAppendReadEOFRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		path := filepath.Join(t.TempDir(), "test_file")
		for _, flags := range []int{os.O_WRONLY | os.O_CREATE, os.O_RDWR | os.O_APPEND} {
			fd := fsOpenRev10l(t, l, path, flags, 0o600)
			n := fsOKRev10l(t, l, "write", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSWrite(r, fd, fsTestBufRev10l, -1, cb)
			})
			if n != int64(len(fsTestBufRev10l)) {
				t.Fatalf("write: %d", n)
			}
			fsCloseRev10l(t, l, fd)
		}
		fd := fsOpenRev10l(t, l, path, os.O_RDONLY, 0)
		buf := make([]byte, 32)
		n := fsOKRev10l(t, l, "read", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRead(r, fd, buf, -1, cb) })
		want := append(append([]byte(nil), fsTestBufRev10l...), fsTestBufRev10l...)
		if n != 26 || !bytes.Equal(buf[:n], want) {
			t.Fatalf("read %d: %q", n, buf[:n])
		}
		a, s := fsBothRev10l(t, l, "read at the end", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRead(r, fd, buf, n, cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			if r.Err() != nil || r.Result() != 0 {
				t.Errorf("read at the end: %d, %v", r.Result(), r.Err())
			}
		}
		fsCloseRev10l(t, l, fd)
	})
}

// fs_rename_to_existing_file: rename over an existing file replaces it.
func TestLibuvFsRenameToExistingRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		dir := t.TempDir()
		p1, p2 := filepath.Join(dir, "test_file"), filepath.Join(dir, "test_file2")
		mustOK(t, os.WriteFile(p1, fsTestBufRev10l, 0o600))
		mustOK(t, os.WriteFile(p2, nil, 0o600))
		fsOKRev10l(t, l, "rename", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSRename(r, p1, p2, cb) })
		got, err := os.ReadFile(p2)
		mustOK(t, err)
		if !bytes.Equal(got, fsTestBufRev10l) {
			t.Fatalf("after rename: %q", got)
		}
		if _, err := os.Stat(p1); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the old name: %v", err)
		}
	})
}

// fs_file_pos_after_op_with_offset: a write and a read at offset 0 leave the file position
// where it was (0).
func TestLibuvFsFilePosAfterOffsetRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		fd := fsOpenRev10l(t, l, filepath.Join(t.TempDir(), "test_file"), os.O_RDWR|os.O_CREATE, 0o600)
		pos := func(what string) {
			if p, err := unix.Seek(fd, 0, 1); err != nil || p != 0 {
				t.Errorf("position after %s: %d, %v", what, p, err)
			}
		}
		if n := fsOKRev10l(t, l, "write", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSWrite(r, fd, fsTestBufRev10l, 0, cb)
		}); n != int64(len(fsTestBufRev10l)) {
			t.Fatalf("write: %d", n)
		}
		pos("the write")
		buf := make([]byte, 32)
		if n := fsOKRev10l(t, l, "read", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSRead(r, fd, buf, 0, cb)
		}); n != int64(len(fsTestBufRev10l)) || !bytes.Equal(buf[:n], fsTestBufRev10l) {
			t.Fatalf("read %d: %q", n, buf[:n])
		}
		pos("the read")
		fsCloseRev10l(t, l, fd)
	})
}

// fs_write_alotof_bufs and fs_write_alotof_bufs_with_offset: a write of 54321 buffers at the
// position (or at an offset after a prefix) writes them all; a read into as many buffers
// fills the first IOV_MAX (1024) only; a read at the end returns 0.
func TestLibuvFsWriteALotOfBufsRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		const count, iovMax = 54321, 1024
		for _, off := range []int64{-1, int64(len("0123456789"))} {
			fd := fsOpenRev10l(t, l, filepath.Join(t.TempDir(), "test_file"), os.O_RDWR|os.O_CREATE, 0o600)
			if off >= 0 {
				fsOKRev10l(t, l, "write the prefix", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
					return l.FSWrite(r, fd, []byte("0123456789"), -1, cb)
				})
			}
			bufs := make([][]byte, count)
			for i := range bufs {
				bufs[i] = fsTestBufRev10l
			}
			size := int64(len(fsTestBufRev10l))
			if n := fsOKRev10l(t, l, "writev", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSWritev(r, fd, bufs, off, cb)
			}); n != size*count {
				t.Fatalf("writev at %d: %d, want %d", off, n, size*count)
			}
			back := make([]byte, size*count)
			for i := range bufs {
				bufs[i] = back[int64(i)*size : int64(i+1)*size]
			}
			start := off
			if start < 0 {
				start = 0
			}
			if n := fsOKRev10l(t, l, "readv", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSReadv(r, fd, bufs, start, cb)
			}); n != size*iovMax {
				t.Fatalf("readv at %d: %d, want %d", start, n, size*iovMax)
			}
			if !bytes.Equal(back[:size*iovMax], bytes.Repeat(fsTestBufRev10l, iovMax)) {
				t.Fatal("readv read other bytes")
			}
			end := start + size*count
			if n := fsOKRev10l(t, l, "read at the end", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
				return l.FSRead(r, fd, make([]byte, 32), end, cb)
			}); n != 0 {
				t.Fatalf("read at the end: %d", n)
			}
			fsCloseRev10l(t, l, fd)
		}
	})
}

// fs_unlink_readonly: a file made read-only (0400) is unlinked all the same; the loop holds
// nothing afterwards.
func TestLibuvFsUnlinkReadonlyRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		path := filepath.Join(t.TempDir(), "test_file")
		mustOK(t, os.WriteFile(path, fsTestBufRev10l, 0o600))
		fsOKRev10l(t, l, "chmod", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSChmod(r, path, 0o400, cb) })
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o400 {
			t.Fatalf("after chmod: %v, %v", st, err)
		}
		fsOKRev10l(t, l, "unlink", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSUnlink(r, path, cb) })
		if alive := mustRunMode(t, l, uvloop.RunDefault); alive || l.Alive() {
			t.Fatal("the loop is still alive")
		}
	})
}
