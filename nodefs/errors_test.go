package nodefs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// errLine prints an error as the oracle script printed JSON.stringify of its fields.
func errLine(err error) string {
	if err == nil {
		return "null"
	}
	var e *nodefs.Error
	if !errors.As(err, &e) {
		return "not a nodefs.Error: " + err.Error()
	}
	return fmt.Sprintf("%s %d %s %q %q %s", e.Code, e.Errno, e.Syscall, e.Path, e.Dest, e.Message)
}

// The error objects Node v20 gives for the same calls (recorded with node v20.20.2 on Linux).
func TestNodeErrors(t *testing.T) {
	inTempDir(t)
	os.WriteFile("f", []byte("x"), 0o644)
	os.Mkdir("d", 0o755)
	os.WriteFile("d/x", []byte("1"), 0o644)
	type step func(f *nodefs.FS, cb func(error)) error
	steps := []struct {
		call step
		want string
	}{
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Open("missing.txt", "r", 0o666, func(err error, _ int) { cb(err) })
		}, `ENOENT -2 open "missing.txt" "" ENOENT: no such file or directory, open 'missing.txt'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rename("a", "b", cb) },
			`ENOENT -2 rename "a" "b" ENOENT: no such file or directory, rename 'a' -> 'b'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Mkdir("d", nil, func(err error, _ string) { cb(err) })
		}, `EEXIST -17 mkdir "d" "" EEXIST: file already exists, mkdir 'd'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.ReadFile("d", func(err error, _ []byte) { cb(err) })
		}, `EISDIR -21 read "" "" EISDIR: illegal operation on a directory, read`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Readdir("f", func(err error, _ []string) { cb(err) })
		}, `ENOTDIR -20 scandir "f" "" ENOTDIR: not a directory, scandir 'f'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rmdir("d", cb) },
			`ENOTEMPTY -39 rmdir "d" "" ENOTEMPTY: directory not empty, rmdir 'd'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Close(999, cb) },
			`EBADF -9 close "" "" EBADF: bad file descriptor, close`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Realpath("/nonexist/x", func(err error, _ string) { cb(err) })
		}, `ENOENT -2 lstat "/nonexist" "" ENOENT: no such file or directory, lstat '/nonexist'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.RealpathNative("/nonexist/x", func(err error, _ string) { cb(err) })
		}, `ENOENT -2 realpath "/nonexist/x" "" ENOENT: no such file or directory, realpath '/nonexist/x'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.CopyFile("nofile", "x", 0, cb) },
			`ENOENT -2 copyfile "nofile" "x" ENOENT: no such file or directory, copyfile 'nofile' -> 'x'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.CopyFile("f", "f2", nodefs.COPYFILE_EXCL, cb) }, `null`},
		{func(f *nodefs.FS, cb func(error)) error { return f.CopyFile("f", "f2", nodefs.COPYFILE_EXCL, cb) },
			`EEXIST -17 copyfile "f" "f2" EEXIST: file already exists, copyfile 'f' -> 'f2'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Stat("nofile", func(err error, _ *nodefs.Stats) { cb(err) })
		}, `ENOENT -2 stat "nofile" "" ENOENT: no such file or directory, stat 'nofile'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Access("nofile", nodefs.F_OK, cb) },
			`ENOENT -2 access "nofile" "" ENOENT: no such file or directory, access 'nofile'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rm("d", nil, cb) },
			`ERR_FS_EISDIR 21 rm "d" "" Path is a directory: rm returned EISDIR (is a directory) d`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rm("nofile", nil, cb) },
			`ENOENT -2 lstat "nofile" "" ENOENT: no such file or directory, lstat 'nofile'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Unlink("d", cb) },
			`EISDIR -21 unlink "d" "" EISDIR: illegal operation on a directory, unlink 'd'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Symlink("f", "f", cb) },
			`EEXIST -17 symlink "f" "f" EEXIST: file already exists, symlink 'f' -> 'f'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Link("nofile", "g", cb) },
			`ENOENT -2 link "nofile" "g" ENOENT: no such file or directory, link 'nofile' -> 'g'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Readlink("f", func(err error, _ string) { cb(err) })
		}, `EINVAL -22 readlink "f" "" EINVAL: invalid argument, readlink 'f'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.WriteFile("d", []byte("x"), nil, cb) },
			`EISDIR -21 open "d" "" EISDIR: illegal operation on a directory, open 'd'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Mkdir("f/x", &nodefs.MkdirOptions{Recursive: true}, func(err error, _ string) { cb(err) })
		}, `ENOTDIR -20 mkdir "f/x" "" ENOTDIR: not a directory, mkdir 'f/x'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Read(999, make([]byte, 4), 0, 4, 0, func(err error, _ int, _ []byte) { cb(err) })
		}, `EBADF -9 read "" "" EBADF: bad file descriptor, read`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Fstat(999, func(err error, _ *nodefs.Stats) { cb(err) })
		}, `EBADF -9 fstat "" "" EBADF: bad file descriptor, fstat`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rmdir("nofile", cb) },
			`ENOENT -2 rmdir "nofile" "" ENOENT: no such file or directory, rmdir 'nofile'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Lstat("nofile", func(err error, _ *nodefs.Stats) { cb(err) })
		}, `ENOENT -2 lstat "nofile" "" ENOENT: no such file or directory, lstat 'nofile'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Chmod("nofile", 0o644, cb) },
			`ENOENT -2 chmod "nofile" "" ENOENT: no such file or directory, chmod 'nofile'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Truncate("nofile", 0, cb) },
			`ENOENT -2 open "nofile" "" ENOENT: no such file or directory, open 'nofile'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.AppendFile("d", []byte("x"), nil, cb) },
			`EISDIR -21 open "d" "" EISDIR: illegal operation on a directory, open 'd'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Mkdir("nofile/a/b", nil, func(err error, _ string) { cb(err) })
		}, `ENOENT -2 mkdir "nofile/a/b" "" ENOENT: no such file or directory, mkdir 'nofile/a/b'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rename("d", "f", cb) },
			`ENOTDIR -20 rename "d" "f" ENOTDIR: not a directory, rename 'd' -> 'f'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rmdir("f", cb) },
			`ENOTDIR -20 rmdir "f" "" ENOTDIR: not a directory, rmdir 'f'`},
		{func(f *nodefs.FS, cb func(error)) error {
			return f.Readdir("nofile", func(err error, _ []string) { cb(err) })
		}, `ENOENT -2 scandir "nofile" "" ENOENT: no such file or directory, scandir 'nofile'`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rm("d", &nodefs.RmOptions{Recursive: true}, cb) }, `null`},
		{func(f *nodefs.FS, cb func(error)) error { return f.Rm("nofile", &nodefs.RmOptions{Force: true}, cb) }, `null`},
	}
	ran := make([]bool, len(steps))
	run(t, func(l *uvloop.Loop, f *nodefs.FS) {
		i := 0
		var next func()
		next = func() {
			if i == len(steps) {
				return
			}
			s := steps[i]
			i++
			ran[i-1] = true
			if err := s.call(f, func(err error) {
				if got := errLine(err); got != s.want {
					t.Errorf("step %d:\n got %s\nwant %s", i, got, s.want)
				}
				next()
			}); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		next()
	})
	for i := range steps {
		if !ran[i] {
			t.Fatalf("step %d did not run", i+1)
		}
	}
	var e *nodefs.Error
	err := error(&nodefs.Error{Code: "ENOENT", Err: &fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}})
	if !errors.As(err, &e) || !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, syscall.ENOENT) {
		t.Fatal("unwrap")
	}
}

// Bad arguments fail at the call, as Node throws, and the loop goes on.
func TestNodeArgErrors(t *testing.T) {
	run(t, func(l *uvloop.Loop, f *nodefs.FS) {
		if err := f.Open("x", "zz", 0o666, func(error, int) { t.Error("called") }); errLine(err) != `ERR_INVALID_ARG_VALUE 0  "" "" The argument 'flags' is invalid. Received 'zz'` {
			t.Errorf("bad flags: %s", errLine(err))
		}
		if err := f.Stat("a\x00b", func(error, *nodefs.Stats) { t.Error("called") }); err == nil {
			t.Error("NUL path accepted")
		}
		if err := f.Read(0, make([]byte, 4), 2, 4, 0, func(error, int, []byte) { t.Error("called") }); err == nil {
			t.Error("length past the buffer accepted")
		}
		if err := f.Read(0, make([]byte, 4), 0, 4, -2, func(error, int, []byte) { t.Error("called") }); err == nil {
			t.Error("negative position accepted")
		}
		if err := f.ReadFileString("x", "klingon", func(error, string) { t.Error("called") }); err == nil {
			t.Error("unknown encoding accepted")
		}
	})
}
