//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package fsys

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a")
	fd, err := Open(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := Writev(fd, [][]byte{[]byte("hello "), []byte("world")}, 0); err != nil || n != 11 {
		t.Fatalf("writev: %d %v", n, err)
	}
	buf := make([]byte, 5)
	if n, err := Read(fd, buf, 6); err != nil || string(buf[:n]) != "world" {
		t.Fatalf("pread: %q %v", buf[:n], err)
	}
	var st Statbuf
	if err := Fstat(fd, &st); err != nil || st.Size != 11 || st.Mode&S_IFMT != S_IFREG {
		t.Fatalf("fstat: %+v %v", st, err)
	}
	if err := Close(fd); err != nil {
		t.Fatal(err)
	}
	if err := Stat(filepath.Join(dir, "missing"), &st); err != syscall.ENOENT {
		t.Fatalf("stat missing: %v", err)
	}
	if _, err := Open(p, os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0o644); err != syscall.EEXIST {
		t.Fatalf("open excl: %v", err)
	}
	if err := Symlink("a", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	if err := Lstat(filepath.Join(dir, "l"), &st); err != nil || st.Mode&S_IFMT != S_IFLNK {
		t.Fatalf("lstat: %v", err)
	}
	real, err := Realpath(filepath.Join(dir, ".", "l"))
	want, _ := filepath.EvalSymlinks(p)
	if err != nil || real != want {
		t.Fatalf("realpath: %q %v, want %q", real, err, want)
	}
	if _, err := Realpath(filepath.Join(dir, "a", "x")); err != syscall.ENOTDIR {
		t.Fatalf("realpath through a file: %v", err)
	}
	if err := Copyfile(p, filepath.Join(dir, "b"), CopyfileExcl); err != nil {
		t.Fatal(err)
	}
	if err := Copyfile(p, filepath.Join(dir, "b"), CopyfileExcl); err != syscall.EEXIST {
		t.Fatalf("copyfile excl: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b")); string(b) != "hello world" {
		t.Fatalf("copy: %q", b)
	}
	ents, err := Scandir(dir)
	if err != nil || len(ents) != 3 || ents[0] != (Dirent{"a", DirentFile}) || ents[2] != (Dirent{"l", DirentLink}) {
		t.Fatalf("scandir: %v %v", ents, err)
	}
	if _, err := Scandir(p); err != syscall.ENOTDIR {
		t.Fatalf("scandir file: %v", err)
	}
	tmp, err := Mkdtemp(filepath.Join(dir, "t-XXXXXX"))
	if err != nil || len(filepath.Base(tmp)) != 8 {
		t.Fatalf("mkdtemp: %q %v", tmp, err)
	}
	if _, err := Mkdtemp(filepath.Join(dir, "t-")); err != syscall.EINVAL {
		t.Fatalf("mkdtemp bad template: %v", err)
	}
	if err := Rmdir(dir); err != syscall.ENOTEMPTY && err != syscall.EEXIST {
		t.Fatalf("rmdir: %v", err)
	}
	if err := Stat("a\x00b", &st); err != syscall.EINVAL {
		t.Fatalf("NUL: %v", err)
	}
}

func TestStatAllocs(t *testing.T) {
	var st Statbuf
	if n := testing.AllocsPerRun(100, func() { Stat("fsys.go", &st) }); n != 0 && isLinux {
		t.Fatalf("Stat allocates %v", n)
	}
	if n := testing.AllocsPerRun(100, func() { fd, _ := Open("fsys.go", os.O_RDONLY, 0); Close(fd) }); n != 0 && isLinux {
		t.Fatalf("Open allocates %v", n)
	}
}
