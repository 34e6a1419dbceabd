package nodefs_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// TestBadInputAgainstNode runs testdata/badinput.js with the callback API and the streams:
// the argument errors each call returns (Node throws them), then system-call failures in
// the callbacks, in order, then a timer (the loop runs on); the lines must be
// testdata/badinput.txt, what Node v20 printed.
func TestBadInputAgainstNode(t *testing.T) {
	want, err := os.ReadFile("testdata/badinput.txt")
	if err != nil {
		t.Fatal(err)
	}
	inTempDir(t)
	var got []string
	line := func(name string, err error) {
		var e *nodefs.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v is not a *nodefs.Error", name, err)
		}
		var errno any
		if e.Errno != 0 {
			errno = e.Errno
		}
		got = append(got, strings.Join([]string{name, e.Code, jsShow(errno), jsShow(strOrUndef(e.Syscall, e.Syscall != "")),
			jsShow(strOrUndef(e.Path, e.HasPath())), "|", e.Message}, " "))
	}
	thrown := func(name string, err error) {
		if err == nil {
			got = append(got, name+" no throw")
			return
		}
		line(name, err)
	}
	run(t, func(l *uvloop.Loop, fs *nodefs.FS) {
		if err := fs.WriteFileSync("f", []byte("0123456789"), nil); err != nil {
			t.Fatal(err)
		}
		fs.MkdirSync("d", nil)
		fd, err := fs.OpenSync("f", "r", 0o666)
		if err != nil {
			t.Fatal(err)
		}
		never := func(string) func(error) { return func(error) { t.Error("callback of a refused call") } }
		nopRead := func(error, int, []byte) { t.Error("callback of a refused read") }
		thrown("stat without cb", fs.Stat("f", nil))
		thrown("readFile without cb", fs.ReadFile("f", nil))
		thrown("fstat fd -1", fs.Fstat(-1, func(error, *nodefs.Stats) {}))
		thrown("close fd 2**31", fs.Close(1<<31, never("close")))
		thrown("read length past the buffer", fs.Read(fd, make([]byte, 4), 0, 8, 0, nopRead))
		thrown("read offset past the buffer", fs.Read(fd, make([]byte, 4), 5, 1, 0, nopRead))
		thrown("read empty buffer", fs.Read(fd, nil, 0, 4, 0, nopRead))
		thrown("read negative offset", fs.Read(fd, make([]byte, 4), -1, 4, 0, nopRead))
		thrown("read position -2", fs.Read(fd, make([]byte, 4), 0, 4, -2, nopRead))
		thrown("read position 2**60", fs.Read(fd, make([]byte, 4), 0, 4, 1<<60, nopRead))
		thrown("write offset past the buffer", fs.Write(fd, make([]byte, 4), 5, 1, 0, nopRead))
		thrown("write length past the buffer", fs.Write(fd, make([]byte, 4), 1, 4, 0, nopRead))
		thrown("open bad flags", fs.Open("f", "zz", 0o666, func(error, int) {}))
		thrown("copyFile bad mode", fs.CopyFile("f", "g", 99, never("copyFile")))
		thrown("access bad mode", fs.Access("f", 99, never("access")))
		thrown("readFile bad encoding", fs.ReadFileString("f", "klingon", func(error, string) {}))
		thrown("writeFile bad encoding", fs.WriteFileString("g", "x", "klingon", nil, never("writeFile")))
		thrown("stat NUL", fs.Stat("a\x00", func(error, *nodefs.Stats) {}))
		thrown("rename NUL", fs.Rename("f", "b\x00", never("rename")))
		_, err = fs.CreateReadStream("f", &nodefs.ReadStreamOptions{Start: -1, HasStart: true})
		thrown("createReadStream start -1", err)
		_, err = fs.CreateReadStream("f", &nodefs.ReadStreamOptions{Start: 5, HasStart: true, End: 2, HasEnd: true})
		thrown("createReadStream start > end", err)
		_, err = fs.CreateReadStream("f", &nodefs.ReadStreamOptions{HighWaterMark: -1})
		thrown("createReadStream highWaterMark -1", err)
		_, err = fs.CreateReadStream("f", &nodefs.ReadStreamOptions{Encoding: "klingon"})
		thrown("createReadStream bad encoding", err)
		_, err = fs.CreateWriteStream("g", &nodefs.WriteStreamOptions{Start: -1, HasStart: true})
		thrown("createWriteStream start -1", err)
		rs, err := fs.CreateReadStream("f", nil)
		if err != nil {
			t.Fatal(err)
		}
		thrown("setEncoding bad", rs.SetEncoding("klingon"))
		rs.Destroy(nil)
		_, err = fs.Watch("nope", nil)
		thrown("watch missing", err)
		_, err = fs.Watch("", nil)
		thrown("watch empty", err)
		_, err = fs.WatchFile("f", 0, nil)
		thrown("watchFile without listener", err)
		type step struct {
			name string
			run  func(cb func(err error, n any)) error
		}
		cb0 := func(cb func(error, any)) func(error) { return func(err error) { cb(err, nil) } }
		readCb := func(cb func(error, any)) func(error, int, []byte) {
			return func(err error, n int, _ []byte) { cb(err, n) }
		}
		steps := []step{
			{"stat empty path", func(cb func(error, any)) error {
				return fs.Stat("", func(err error, _ *nodefs.Stats) { cb(err, nil) })
			}},
			{"read closed fd", func(cb func(error, any)) error { return fs.Read(99999, make([]byte, 4), 0, 4, 0, readCb(cb)) }},
			{"readFile a directory", func(cb func(error, any)) error {
				return fs.ReadFile("d", func(err error, _ []byte) { cb(err, nil) })
			}},
			{"writeFile a directory", func(cb func(error, any)) error { return fs.WriteFile(".", []byte("x"), nil, cb0(cb)) }},
			{"open through a file", func(cb func(error, any)) error {
				return fs.Open("f/x", "r", 0o666, func(err error, _ int) { cb(err, nil) })
			}},
			{"mkdir through a file", func(cb func(error, any)) error {
				return fs.Mkdir("f/x", nil, func(err error, _ string) { cb(err, nil) })
			}},
			{"rmdir a file", func(cb func(error, any)) error { return fs.Rmdir("f", cb0(cb)) }},
			{"read zero length", func(cb func(error, any)) error { return fs.Read(fd, make([]byte, 4), 0, 0, 0, readCb(cb)) }},
			{"read position -1", func(cb func(error, any)) error { return fs.Read(fd, make([]byte, 4), 0, 4, -1, readCb(cb)) }},
			{"read past the end", func(cb func(error, any)) error { return fs.Read(fd, make([]byte, 4), 0, 4, 1000, readCb(cb)) }},
			{"write read-only fd", func(cb func(error, any)) error { return fs.Write(fd, []byte("x"), 0, 1, 0, readCb(cb)) }},
		}
		i := 0
		var next func()
		next = func() {
			if i == len(steps) {
				fs.CloseSync(fd)
				l.SetTimeout(func() {
					got = append(got, "loop still running")
					fs.RmSync("d", &nodefs.RmOptions{Recursive: true})
					fs.RmSync("f", nil)
				}, time.Millisecond)
				return
			}
			s := steps[i]
			i++
			if err := s.run(func(err error, n any) {
				if err != nil {
					line(s.name, err)
				} else {
					got = append(got, s.name+" ok "+jsShow(n))
				}
				next()
			}); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
		}
		next()
	})
	compareLines(t, strings.Join(got, "\n"), strings.TrimSpace(string(want)))
}

// compareLines reports each line where got and want differ.
func compareLines(t *testing.T, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("line %d:\n got  %s\n node %s", i+1, gl, wl)
		}
	}
}
