package nodefs_test

// Differential scenarios from review rev5-fsown: nodefs's promises, streams, sync calls and
// watch on a loop of its own thread (uvloop.WithOwnThread), on both backends. Each runs the
// same program on epoll (the reference, no thread option), epoll-own, io_uring and
// io_uring-own and compares the logs; where Node's order is deterministic the reference is
// also compared with what node v20 printed for the JS twin (quoted in the test).

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

var rev5ModeNames = []string{"epoll", "epoll-own", "io_uring", "io_uring-own"}

// rev5Diff runs f in each mode, in a temporary directory of its own, and compares each
// mode's log with the reference's; want, if not empty, is Node's log.
func rev5Diff(t *testing.T, want string, f func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string) {
	t.Setenv(uvloop.OwnThreadEnv, "0")
	var ref []string
	for _, m := range rev5ModeNames {
		t.Run(m, func(t *testing.T) {
			b := uvloop.BackendEpoll
			if strings.HasPrefix(m, "io_uring") {
				b = uvloop.BackendIOURing
			}
			if err := poller.Available(b); err != nil {
				t.Skipf("%v is refused here: %v", b, err)
			}
			opts := []uvloop.Option{uvloop.WithBackend(b)}
			if strings.HasSuffix(m, "-own") {
				opts = append(opts, uvloop.WithOwnThread())
			}
			inTempDir(t)
			l, err := uvloop.New(opts...)
			if err != nil {
				t.Fatal(err)
			}
			got := f(t, l, nodefs.New(l))
			closeLoop(t, l)
			if m == "epoll" {
				t.Logf("reference log:\n%s", strings.Join(got, "\n"))
				ref = got
				if want != "" && strings.Join(got, "\n") != want {
					t.Errorf("log differs from node's\n--- node:\n%s\n--- epoll:\n%s", want, strings.Join(got, "\n"))
				}
				return
			}
			if ref == nil {
				t.Skip("no reference log")
			}
			if a, b := strings.Join(ref, "\n"), strings.Join(got, "\n"); a != b {
				t.Errorf("log differs from epoll's\n--- epoll:\n%s\n--- %s:\n%s", a, m, b)
			}
		})
	}
}

func rev5Code(err error) string {
	var e *nodefs.Error
	if errors.As(err, &e) {
		return e.Code + " " + e.Message
	}
	var ae *nodeevents.AbortError
	if errors.As(err, &ae) {
		return ae.WarningName() + " " + ae.Code()
	}
	if err == nil {
		return "nil"
	}
	return err.Error()
}

// The promise API from an Async body, every call awaited in turn: FileHandle reads until
// the end, stat, close, a read and a close after close, readFile aborted before and during,
// sync calls from the body, writeFile with flag wx, a positioned write and readFile through
// a FileHandle, unlink, stat of what is gone. Node v20 prints (rev5 n1.js):
const rev5PromisesNode = `reads 65536,65536,65536,65536,65536,17,0
size 327697
read closed EBADF file closed
close again ok
pre AbortError ABORT_ERR
mid AbortError ABORT_ERR why
exists true
sync len 327697
wx EEXIST EEXIST: file already exists, open 'b'
wrote 1
b Jello
stat ENOENT ENOENT: no such file or directory, stat 'a'`

func TestRev5PromisesFromBody(t *testing.T) {
	rev5Diff(t, rev5PromisesNode, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
		fsp := fs.Promises()
		var log []string
		lg := func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
		promise.Async(l, func() (int, error) {
			data := make([]byte, 5*65536+17)
			for i := range data {
				data[i] = byte(i * 7)
			}
			if _, err := promise.Await(fsp.WriteFile("a", data, nil)); err != nil {
				return 0, err
			}
			h, err := promise.Await(fsp.Open("a", "r", 0o666))
			if err != nil {
				return 0, err
			}
			buf := make([]byte, 65536)
			var reads []string
			for {
				r, err := promise.Await(h.Read(buf, 0, len(buf), -1))
				if err != nil {
					return 0, err
				}
				reads = append(reads, fmt.Sprint(r.BytesRead))
				if r.BytesRead == 0 {
					break
				}
			}
			lg("reads %s", strings.Join(reads, ","))
			st, err := promise.Await(h.Stat())
			if err != nil {
				return 0, err
			}
			lg("size %d", st.Size)
			if _, err := promise.Await(h.Close()); err != nil {
				return 0, err
			}
			if _, err := promise.Await(h.Read(buf, 0, 1, 0)); err != nil {
				lg("read closed %s", rev5Code(err))
			}
			if _, err := promise.Await(h.Close()); err != nil {
				lg("close again %s", rev5Code(err))
			} else {
				lg("close again ok")
			}
			if _, err := promise.Await(fsp.ReadFileWith("a", &nodefs.ReadFileOptions{Signal: nodeevents.AbortSignalAbort()})); err != nil {
				lg("pre %s", rev5Code(err))
			}
			ac2 := nodeevents.NewAbortController()
			p := fsp.ReadFileWith("a", &nodefs.ReadFileOptions{Signal: ac2.Signal()})
			ac2.Abort(errors.New("why"))
			if _, err := promise.Await(p); err != nil {
				var ae *nodeevents.AbortError
				cause := ""
				if errors.As(err, &ae) && ae.Cause != nil {
					cause = ae.Cause.Error()
				}
				lg("mid %s %s", rev5Code(err), cause)
			} else {
				lg("mid resolved")
			}
			lg("exists %v", fs.ExistsSync("a"))
			b, err := fs.ReadFileSync("a")
			lg("sync len %d%s", len(b), errOrNil(err))
			if _, err := promise.Await(fsp.WriteFileString("b", "hello", "utf8", &nodefs.WriteOptions{Flag: "wx"})); err != nil {
				return 0, err
			}
			if _, err := promise.Await(fsp.WriteFileString("b", "hello", "utf8", &nodefs.WriteOptions{Flag: "wx"})); err != nil {
				lg("wx %s", rev5Code(err))
			}
			hb, err := promise.Await(fsp.Open("b", "r+", 0o666))
			if err != nil {
				return 0, err
			}
			w, err := promise.Await(hb.Write([]byte("J"), 0, 1, 0))
			if err != nil {
				return 0, err
			}
			lg("wrote %d", w.BytesWritten)
			bb, err := promise.Await(hb.ReadFile())
			if err != nil {
				return 0, err
			}
			lg("b %s", bb)
			promise.Await(hb.Close())
			promise.Await(fsp.Unlink("a"))
			promise.Await(fsp.Unlink("b"))
			if _, err := promise.Await(fsp.Stat("a")); err != nil {
				lg("stat %s", rev5Code(err))
			}
			return 0, nil
		}).Catch(func(err error) (int, error) { lg("body failed: %v", err); return 0, nil })
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		return log
	})
}

func errOrNil(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A FileHandle's calls right after Close, before its completion: the descriptor is -1 at
// once, a second Close resolves first, a read rejects with EBADF "file closed" (it must not
// read a descriptor being closed, whose number the next open may take). Node v20 prints
// (rev5 n3.js):
const rev5CloseNode = `fd after close() -1
close2 resolved
read EBADF file closed read
close1 resolved`

func TestRev5FileHandleCloseInFlight(t *testing.T) {
	rev5Diff(t, rev5CloseNode, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
		fsp := fs.Promises()
		var log []string
		lg := func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
		promise.Async(l, func() (int, error) {
			if _, err := promise.Await(fsp.WriteFileString("d", "xyz", "utf8", nil)); err != nil {
				return 0, err
			}
			h, err := promise.Await(fsp.Open("d", "r", 0o666))
			if err != nil {
				return 0, err
			}
			p1 := promise.Then(h.Close(), func(nodefs.Void) (int, error) { lg("close1 resolved"); return 0, nil }, nil)
			lg("fd after close() %d", h.Fd())
			p2 := promise.Then(h.Close(), func(nodefs.Void) (int, error) { lg("close2 resolved"); return 0, nil }, nil)
			p3 := promise.Then(h.Read(make([]byte, 3), 0, 3, 0), func(r nodefs.ReadResult) (int, error) {
				lg("read %d", r.BytesRead)
				return 0, nil
			}, func(err error) (int, error) {
				var e *nodefs.Error
				errors.As(err, &e)
				lg("read %s %s", rev5Code(err), e.Syscall)
				return 0, nil
			})
			promise.Await(promise.All(l, p1, p2, p3))
			_, err = promise.Await(fsp.Unlink("d"))
			return 0, err
		}).Catch(func(err error) (int, error) { lg("body failed: %v", err); return 0, nil })
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		return log
	})
}

// A ReadStream written to a WriteStream by hand with backpressure (pause on a false Write,
// resume on "drain"), started by the main script and, again, from an Async body. The two
// streams' requests are concurrent, so which stream's event comes first is not defined (in
// Node either: its pool's threads race); each stream's own events are logged apart. Node v20
// prints (rev5 n4.js, its lines sorted by stream):
const rev5StreamsNode = `rs open
rs end chunks 51
rs close
ws open
ws end cb
ws finish
ws close falses=drains true bytes 50017
same true`

func TestRev5StreamsBackpressure(t *testing.T) {
	for _, inBody := range []bool{false, true} {
		t.Run(fmt.Sprintf("body=%v", inBody), func(t *testing.T) {
			rev5Diff(t, rev5StreamsNode, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
				data := make([]byte, 50017)
				for i := range data {
					data[i] = byte(i * 13)
				}
				if err := fs.WriteFileSync("src", data, nil); err != nil {
					t.Fatal(err)
				}
				var log, wlog []string
				start := func() {
					rs, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 1000})
					if err != nil {
						t.Fatal(err)
					}
					ws, err := fs.CreateWriteStream("dst", &nodefs.WriteStreamOptions{HighWaterMark: 3000})
					if err != nil {
						t.Fatal(err)
					}
					chunks, falses, drains := 0, 0, 0
					rs.On("open", func(...any) { log = append(log, "rs open") })
					ws.On("open", func(...any) { wlog = append(wlog, "ws open") })
					rs.OnData(func(c []byte) {
						chunks++
						if !ws.Write(c, nil) {
							falses++
							rs.Pause()
							ws.Once("drain", func(...any) { drains++; rs.Resume() })
						}
					})
					rs.On("end", func(...any) {
						log = append(log, fmt.Sprintf("rs end chunks %d", chunks))
						ws.End(nil, func() { wlog = append(wlog, "ws end cb") })
					})
					rs.On("close", func(...any) { log = append(log, "rs close") })
					ws.On("finish", func(...any) { wlog = append(wlog, "ws finish") })
					ws.On("close", func(...any) {
						wlog = append(wlog, fmt.Sprintf("ws close falses=drains %v bytes %d", falses == drains, ws.BytesWritten))
						b, err := fs.ReadFileSync("dst")
						wlog = append(wlog, fmt.Sprintf("same %v", err == nil && string(b) == string(data)))
						fs.UnlinkSync("src")
						fs.UnlinkSync("dst")
					})
				}
				if inBody {
					promise.Async(l, func() (int, error) {
						promise.Await(promise.Resolve(l, 0))
						start()
						return 0, nil
					})
				} else {
					start()
				}
				if _, err := l.Run(uvloop.RunDefault); err != nil {
					t.Fatal(err)
				}
				return append(log, wlog...)
			})
		})
	}
}

// fs.watch and fs.watchFile from an Async body: a watcher closed from its own listener, one
// aborted by its signal from a timer, and a stat watcher stopped from its listener; each
// step's change made once the last was heard.
func TestRev5WatchFromBody(t *testing.T) {
	rev5Diff(t, "", func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
		var log []string
		lg := func(f string, a ...any) {
			s := fmt.Sprintf(f, a...)
			if len(log) > 0 && log[len(log)-1] == s {
				return // inotify merges repeated events when its reader is late
			}
			log = append(log, s)
		}
		if _, err := fs.MkdirSync("d", nil); err != nil {
			t.Fatal(err)
		}
		promise.Async(l, func() (int, error) {
			promise.Await(promise.Resolve(l, 0))
			heard := promise.New(l, func(resolve func(int), _ func(error)) {
				var w *nodefs.FSWatcher
				var err error
				w, err = fs.Watch("d", func(ev, name string) {
					lg("w1 %s %s", ev, name)
					if name == "a" {
						w.Close()
						resolve(1)
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				w.On("close", func(...any) { lg("w1 close") })
				fs.WriteFileSync("d/a", nil, nil)
			})
			promise.Await(heard)
			ac := nodeevents.NewAbortController()
			aborted := promise.New(l, func(resolve func(int), _ func(error)) {
				w, err := fs.WatchWith("d", &nodefs.WatchOptions{Signal: ac.Signal()}, func(ev, name string) {
					lg("w2 %s %s", ev, name)
					if name == "b" {
						l.SetTimeout(func() { ac.Abort() }, time.Millisecond)
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				w.On("close", func(...any) { lg("w2 close"); resolve(2) })
				fs.WriteFileSync("d/b", nil, nil)
			})
			promise.Await(aborted)
			stopped := promise.New(l, func(resolve func(int), _ func(error)) {
				var sw *nodefs.StatWatcher
				var err error
				sw, err = fs.WatchFile("d/a", time.Millisecond, func(curr, prev *nodefs.Stats) {
					// a write updates the mtime before the size: a stat between sees a
					// change of size 0 -> 0 first (in Node too)
					if curr.Size == 4 {
						lg("sw -> %d", curr.Size)
						sw.Stop()
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				sw.On("stop", func(...any) { lg("sw stop"); resolve(3) })
				l.SetTimeout(func() {
					fd, err := fs.OpenSync("d/a", "r+", 0)
					if err == nil {
						fs.WriteSync(fd, []byte("abcd"), 0, 4, 0)
						fs.CloseSync(fd)
					}
				}, 20*time.Millisecond)
			})
			promise.Await(stopped)
			return 0, fs.RmSync("d", &nodefs.RmOptions{Recursive: true})
		}).Catch(func(err error) (int, error) { lg("body failed: %v", err); return 0, nil })
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		return log
	})
}

// Streams destroyed with I/O in flight, from an Async body: a ReadStream destroyed from its
// second "data" (its next read is out), then a WriteStream destroyed with an error right
// after a Write that its open has not let start. Node v20 prints (rev5 n5.js):
const rev5DestroyNode = `data 1000
data 1000
destroyed, bytesRead 2000
close bytesRead 2000 destroyed true
write false
ws destroyed
ws open
ws error stop
ws close, bytesWritten 0 file ""`

func TestRev5StreamsDestroyInFlight(t *testing.T) {
	rev5Diff(t, rev5DestroyNode, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
		var log []string
		lg := func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
		promise.Async(l, func() (int, error) {
			promise.Await(promise.Resolve(l, 0))
			if err := fs.WriteFileSync("big", []byte(strings.Repeat("q", 100000)), nil); err != nil {
				return 0, err
			}
			rs, err := fs.CreateReadStream("big", &nodefs.ReadStreamOptions{HighWaterMark: 1000})
			if err != nil {
				return 0, err
			}
			n := 0
			rs.OnData(func(c []byte) {
				n++
				lg("data %d", len(c))
				if n == 2 {
					rs.Destroy(nil)
					lg("destroyed, bytesRead %d", rs.BytesRead)
				}
			})
			rs.On("end", func(...any) { lg("end") })
			rs.On("error", func(a ...any) { lg("error %v", a[0]) })
			rs.On("close", func(...any) {
				lg("close bytesRead %d destroyed %v", rs.BytesRead, rs.Destroyed())
				ws, err := fs.CreateWriteStream("out", &nodefs.WriteStreamOptions{HighWaterMark: 10})
				if err != nil {
					t.Fatal(err)
				}
				ws.On("open", func(...any) { lg("ws open") })
				lg("write %v", ws.WriteString("0123456789abcdef", "utf8", nil))
				ws.Destroy(errors.New("stop"))
				lg("ws destroyed")
				ws.On("error", func(a ...any) { lg("ws error %v", a[0]) })
				ws.On("close", func(...any) {
					b, _ := fs.ReadFileStringSync("out", "utf8")
					lg("ws close, bytesWritten %d file %q", ws.BytesWritten, b)
					fs.UnlinkSync("big")
					fs.UnlinkSync("out")
				})
			})
			return 0, nil
		}).Catch(func(err error) (int, error) { lg("body failed: %v", err); return 0, nil })
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		return log
	})
}

// FileHandle.Close with a read and a stat in flight waits for them, as Node's does (its
// kRefs): both succeed, then the close; the descriptor shows until the close begins. Node
// v20 prints (rev5 n6.js; the descriptor's number replaced):
const rev5CloseWaitsNode = `fd N
stat 1048576
read 1048576
close ok
fd N
stat 1048576
read 1048576
close ok
fd N
stat 1048576
read 1048576
close ok`

func TestRev5FileHandleCloseWaits(t *testing.T) {
	rev5Diff(t, rev5CloseWaitsNode, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
		fsp := fs.Promises()
		var log []string
		lg := func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
		promise.Async(l, func() (int, error) {
			if _, err := promise.Await(fsp.WriteFile("e", []byte(strings.Repeat("e", 1<<20)), nil)); err != nil {
				return 0, err
			}
			for k := 0; k < 3; k++ {
				h, err := promise.Await(fsp.Open("e", "r", 0o666))
				if err != nil {
					return 0, err
				}
				var got []string
				r := promise.Then(h.Read(make([]byte, 1<<20), 0, 1<<20, 0), func(x nodefs.ReadResult) (int, error) {
					got = append(got, fmt.Sprintf("read %d", x.BytesRead))
					return 0, nil
				}, func(err error) (int, error) { got = append(got, "read "+rev5Code(err)); return 0, nil })
				s := promise.Then(h.Stat(), func(x *nodefs.Stats) (int, error) {
					got = append(got, fmt.Sprintf("stat %d", x.Size))
					return 0, nil
				}, func(err error) (int, error) { got = append(got, "stat "+rev5Code(err)); return 0, nil })
				c := promise.Then(h.Close(), func(nodefs.Void) (int, error) {
					got = append(got, "close ok")
					return 0, nil
				}, func(err error) (int, error) { got = append(got, "close "+rev5Code(err)); return 0, nil })
				fd := "N"
				if h.Fd() < 0 {
					fd = "-1"
				}
				lg("fd %s", fd)
				promise.Await(promise.All(l, r, s, c))
				// the read and the stat end in either order (in Node too); the close last
				sortStrings(got[:2])
				if got[0] == "read 1048576" {
					got[0], got[1] = got[1], got[0]
				}
				log = append(log, got...)
			}
			_, err := promise.Await(fsp.Unlink("e"))
			return 0, err
		}).Catch(func(err error) (int, error) { lg("body failed: %v", err); return 0, nil })
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		return log
	})
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// rev5Await is one awaited call's line: its name and "ok" with the value shown, or the
// error's code and message, as n7.js prints them.
func rev5Await[T any](name string, p *promise.Promise[T], show func(T) string) string {
	v, err := promise.Await(p)
	if err != nil {
		var e *nodefs.Error
		if errors.As(err, &e) {
			return name + " " + e.Code + " " + e.Message
		}
		return name + " " + err.Error()
	}
	if show == nil {
		return name + " ok "
	}
	return name + " ok " + show(v)
}

// The promise API's errors and FileHandle's position rules, from an Async body. Node v20
// prints (rev5 n7.js):
const rev5ErrorsNode = `open missing ENOENT ENOENT: no such file or directory, open 'nope'
readFile dir EISDIR EISDIR: illegal operation on a directory, read
writeFile dir EISDIR EISDIR: illegal operation on a directory, open 'dd'
mkdir exists EEXIST EEXIST: file already exists, mkdir 'dd'
rmdir notempty ENOTEMPTY ENOTEMPTY: directory not empty, rmdir 'dd'
copyFile excl EEXIST EEXIST: file already exists, copyfile 'dd/x' -> 'dd/x'
access missing ENOENT ENOENT: no such file or directory, access 'nope'
rename missing ENOENT ENOENT: no such file or directory, rename 'nope' -> 'nope2'
readdir file ENOTDIR ENOTDIR: not a directory, scandir 'dd/x'
rm missing force ok 
rm missing ENOENT ENOENT: no such file or directory, lstat 'nope'
truncate ok 
h.readFile ok "hello"
h.readFile again ok ""
h.truncate ok 
h.sync ok 
h.read pos ok 2
h.writeFile ok 
h.read after ok "he\u0000\u0000\u0000ZZ"
h.stat size ok 7
rm -r ok `

func TestRev5PromisesErrors(t *testing.T) {
	rev5Diff(t, rev5ErrorsNode, func(t *testing.T, l *uvloop.Loop, fs *nodefs.FS) []string {
		fsp := fs.Promises()
		var log []string
		q := func(s string) string { return strings.ReplaceAll(fmt.Sprintf("%q", s), `\x00`, `\u0000`) }
		promise.Async(l, func() (int, error) {
			promise.Await(fsp.Mkdir("dd", nil))
			promise.Await(fsp.WriteFileString("dd/x", "hello world", "utf8", nil))
			log = append(log,
				rev5Await("open missing", fsp.Open("nope", "r", 0o666), nil),
				rev5Await("readFile dir", fsp.ReadFile("dd"), nil),
				rev5Await("writeFile dir", fsp.WriteFileString("dd", "x", "utf8", nil), nil),
				rev5Await("mkdir exists", fsp.Mkdir("dd", nil), nil),
				rev5Await("rmdir notempty", fsp.Rmdir("dd"), nil),
				rev5Await("copyFile excl", fsp.CopyFile("dd/x", "dd/x", nodefs.COPYFILE_EXCL), nil),
				rev5Await("access missing", fsp.Access("nope", 0), nil),
				rev5Await("rename missing", fsp.Rename("nope", "nope2"), nil),
				rev5Await("readdir file", fsp.Readdir("dd/x"), nil),
				rev5Await("rm missing force", fsp.Rm("nope", &nodefs.RmOptions{Force: true}), nil),
				rev5Await("rm missing", fsp.Rm("nope", nil), nil),
				rev5Await("truncate", fsp.Truncate("dd/x", 5), nil))
			h, err := promise.Await(fsp.Open("dd/x", "r+", 0o666))
			if err != nil {
				return 0, err
			}
			str := func(b []byte) string { return q(string(b)) }
			log = append(log,
				rev5Await("h.readFile", h.ReadFile(), str),
				rev5Await("h.readFile again", h.ReadFile(), str),
				rev5Await("h.truncate", h.Truncate(2), nil),
				rev5Await("h.sync", h.Sync(), nil),
				rev5Await("h.read pos", h.Read(make([]byte, 10), 0, 10, 0), func(r nodefs.ReadResult) string { return fmt.Sprint(r.BytesRead) }),
				rev5Await("h.writeFile", h.WriteFile([]byte("ZZ")), nil),
				rev5Await("h.read after", h.Read(make([]byte, 10), 0, 10, 0), func(r nodefs.ReadResult) string { return q(string(r.Buffer[:r.BytesRead])) }),
				rev5Await("h.stat size", h.Stat(), func(s *nodefs.Stats) string { return fmt.Sprint(s.Size) }))
			promise.Await(h.Close())
			log = append(log, rev5Await("rm -r", fsp.Rm("dd", &nodefs.RmOptions{Recursive: true}), nil))
			return 0, nil
		}).Catch(func(err error) (int, error) { log = append(log, "body failed: "+err.Error()); return 0, nil })
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		return log
	})
}
