package nodefs_test

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Calls started while a Close waits for a readFile and a stat in flight run, and the Close
// waits for them too (the descriptor stays open: Fd is not -1 until then); a second Close
// returns the first's promise; afterwards every call rejects with EBADF "file closed" and
// its syscall. Node v20 prints (the same program in JS; the results are listed by call,
// the error as code, message, syscall):
const rev6CloseWaitsNode = `fd while close waits N
same promise true
readFile ok
stat ok
writeFile ok
read ok 4
close1 ok -1
close2 ok
close3 ok
stat EBADF file closed fstat
readFile EBADF file closed readFile
writeFile EBADF file closed writeFile
truncate EBADF file closed ftruncate
sync EBADF file closed fsync`

func TestRev6FileHandleCallsWhileCloseWaits(t *testing.T) {
	rev5Diff(t, rev6CloseWaitsNode, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
		fsp := fs.Promises()
		var log []string
		lg := func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
		res := map[string]string{}
		note := func(name string) func(error) {
			return func(err error) {
				if err != nil {
					var e *nodefs.Error
					errors.As(err, &e)
					res[name] = name + " " + rev5Code(err) + " " + e.Syscall
					return
				}
				res[name] = name + " ok"
			}
		}
		after := func(name string) string {
			s := res[name]
			delete(res, name)
			return s
		}
		promise.Async(l, func() (int, error) {
			if _, err := promise.Await(fsp.WriteFile("f", []byte(strings.Repeat("hello world", 100000)), nil)); err != nil {
				return 0, err
			}
			h, err := promise.Await(fsp.Open("f", "r+", 0o666))
			if err != nil {
				return 0, err
			}
			var ps []*promise.Promise[int]
			track := func(name string, p *promise.Promise[int]) { ps = append(ps, p) }
			done := func(name string) (func(int) (int, error), func(error) (int, error)) {
				return func(int) (int, error) { note(name)(nil); return 0, nil },
					func(err error) (int, error) { note(name)(err); return 0, nil }
			}
			ok, ko := done("readFile")
			track("readFile", promise.Then(promise.Then(h.ReadFile(), func([]byte) (int, error) { return 0, nil }, nil), ok, ko))
			ok, ko = done("stat")
			track("stat", promise.Then(promise.Then(h.Stat(), func(*nodefs.Stats) (int, error) { return 0, nil }, nil), ok, ko))
			c1 := h.Close()
			fd := "N"
			if h.Fd() < 0 {
				fd = "-1"
			}
			lg("fd while close waits %s", fd)
			ok, ko = done("writeFile")
			track("writeFile", promise.Then(promise.Then(h.WriteFile([]byte("x")), func(nodefs.Void) (int, error) { return 0, nil }, nil), ok, ko))
			var n int
			ok, ko = done("read")
			track("read", promise.Then(promise.Then(h.Read(make([]byte, 4), 0, 4, 0), func(r nodefs.ReadResult) (int, error) { n = r.BytesRead; return 0, nil }, nil), ok, ko))
			c2 := h.Close()
			lg("same promise %v", c1 == c2)
			var fdAt1 int
			ok, ko = done("close1")
			track("close1", promise.Then(promise.Then(c1, func(nodefs.Void) (int, error) { fdAt1 = h.Fd(); return 0, nil }, nil), ok, ko))
			ok, ko = done("close2")
			track("close2", promise.Then(promise.Then(c2, func(nodefs.Void) (int, error) { return 0, nil }, nil), ok, ko))
			promise.Await(promise.All(l, ps...))
			lg("%s", after("readFile"))
			lg("%s", after("stat"))
			lg("%s", after("writeFile"))
			lg("%s %d", after("read"), n)
			lg("%s %d", after("close1"), fdAt1)
			lg("%s", after("close2"))
			_, err = promise.Await(h.Close())
			note("close3")(err)
			lg("%s", after("close3"))
			_, err = promise.Await(h.Stat())
			note("stat")(err)
			lg("%s", after("stat"))
			_, err = promise.Await(h.ReadFile())
			note("readFile")(err)
			lg("%s", after("readFile"))
			_, err = promise.Await(h.WriteFile([]byte("x")))
			note("writeFile")(err)
			lg("%s", after("writeFile"))
			_, err = promise.Await(h.Truncate(0))
			note("truncate")(err)
			lg("%s", after("truncate"))
			_, err = promise.Await(h.Sync())
			note("sync")(err)
			lg("%s", after("sync"))
			_, err = promise.Await(fsp.Unlink("f"))
			return 0, err
		}).Catch(func(err error) (int, error) { lg("body failed: %v", err); return 0, nil })
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		return log
	})
}

// The close itself fails (the descriptor was closed behind the handle's back), with no call
// in flight and while a stat runs: Close rejects with EBADF from close, Fd is -1, and a
// second Close resolves. Node v20 prints (the same program in JS):
const rev6CloseFailsNode = `close EBADF EBADF: bad file descriptor, close close
fd -1
close2 ok
stat EBADF EBADF: bad file descriptor, fstat fstat
close EBADF EBADF: bad file descriptor, close close
fd -1
close2 ok`

func TestRev6FileHandleCloseFails(t *testing.T) {
	rev5Diff(t, rev6CloseFailsNode, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
		fsp := fs.Promises()
		var log []string
		lg := func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
		show := func(name string, err error) {
			if err == nil {
				lg("%s ok", name)
				return
			}
			var e *nodefs.Error
			errors.As(err, &e)
			lg("%s %s %s", name, rev5Code(err), e.Syscall)
		}
		promise.Async(l, func() (int, error) {
			if _, err := promise.Await(fsp.WriteFileString("g", "abc", "utf8", nil)); err != nil {
				return 0, err
			}
			for _, wait := range []bool{false, true} {
				h, err := promise.Await(fsp.Open("g", "r", 0o666))
				if err != nil {
					return 0, err
				}
				syscall.Close(h.Fd())
				var st *promise.Promise[int]
				var serr error
				if wait {
					st = promise.Then(h.Stat(), func(*nodefs.Stats) (int, error) { return 0, nil },
						func(err error) (int, error) { serr = err; return 0, nil })
				}
				_, err = promise.Await(h.Close())
				if wait {
					promise.Await(st)
					show("stat", serr)
				}
				show("close", err)
				lg("fd %d", h.Fd())
				_, err = promise.Await(h.Close())
				show("close2", err)
			}
			_, err := promise.Await(fsp.Unlink("g"))
			return 0, err
		}).Catch(func(err error) (int, error) { lg("body failed: %v", err); return 0, nil })
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		return log
	})
}
