package conformance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the fs scenarios (200-208), on package nodefs: fs.x(...) is nodefs.New(l).X(...),
// fs/promises is FS.Promises(), fs.createReadStream is FS.CreateReadStream. The *Sync calls
// of the scripts' set-up and clean-up are package os.

// tempDir is fs.mkdtempSync(path.join(os.tmpdir(), prefix)).
func tempDir(prefix string) string {
	dir, err := os.MkdirTemp("", prefix+"*")
	if err != nil {
		panic(err)
	}
	return dir
}

// undef prints a possibly absent string property as console.log does.
func undef(s string) string {
	if s == "" {
		return "undefined"
	}
	return s
}

// 200: the error objects of failed fs calls.
func fsErrorObjects(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	dir := tempDir("uvgo-200-")
	p := func(name string) string { return filepath.Join(dir, name) }
	rel := func(s string) string { return strings.ReplaceAll(s, dir+"/", "") }
	os.WriteFile(p("file"), []byte("x"), 0o666)
	os.Mkdir(p("full"), 0o777)
	os.WriteFile(p("full/inner"), []byte("y"), 0o666)
	show := func(err error) {
		var e *nodefs.Error
		if !errors.As(err, &e) {
			out("no error")
			return
		}
		out(logLine(e.Code, e.Errno, e.Syscall, rel(undef(e.Path)), rel(undef(e.Dest)), "|", rel(e.Message)))
	}
	steps := []func(cb func(error)){
		func(cb func(error)) { fs.Open(p("missing.txt"), "r", 0o666, func(err error, _ int) { cb(err) }) },
		func(cb func(error)) { fs.Mkdir(p("full"), nil, func(err error, _ string) { cb(err) }) },
		func(cb func(error)) { fs.ReadFile(p("full"), func(err error, _ []byte) { cb(err) }) },
		func(cb func(error)) { fs.Readdir(p("file"), func(err error, _ []string) { cb(err) }) },
		func(cb func(error)) { fs.Rmdir(p("full"), cb) },
		func(cb func(error)) { fs.Fstat(987654, func(err error, _ *nodefs.Stats) { cb(err) }) },
		func(cb func(error)) { fs.Rename(p("a"), p("b"), cb) },
		func(cb func(error)) { fs.CopyFile(p("file"), p("full/inner"), nodefs.COPYFILE_EXCL, cb) },
		func(cb func(error)) { fs.Unlink(p("full"), cb) },
		func(cb func(error)) { fs.Rm(p("full"), nil, cb) },
	}
	i := 0
	var next func()
	next = func() {
		if i == len(steps) {
			os.RemoveAll(dir)
			out("done")
			return
		}
		i++
		steps[i-1](func(err error) { show(err); next() })
	}
	next()
	return nil
}

// 201: a chain of fs calls whose callbacks queue a tick, a microtask, an immediate and a
// 0 ms timeout; the next call starts from the timeout.
func fsCallbackChainQueues(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	dir := tempDir("uvgo-201-")
	file := filepath.Join(dir, "chain.txt")
	queues := func(name string, next func()) {
		l.NextTick(func() { out(name + " nextTick") })
		logThen(resolved(l), out, name+" promise")
		l.SetTimeout(func() {
			out(name + " timeout 0")
			if next != nil {
				next()
			}
		}, 0)
		l.SetImmediate(func() { out(name + " immediate") })
		out(name + " callback end")
	}
	fs.WriteFile(file, []byte("hello chain"), nil, func(err error) {
		out(logLine("writeFile", jsErr(err)))
		queues("writeFile", func() {
			fs.Stat(file, func(err error, st *nodefs.Stats) {
				out(logLine("stat", jsErr(err), st.Size, st.IsFile()))
				queues("stat", func() {
					fs.ReadFileString(file, "utf8", func(err error, text string) {
						out(logLine("readFile", jsErr(err), text))
						queues("readFile", func() {
							fs.Unlink(file, func(err error) {
								out(logLine("unlink", jsErr(err)))
								queues("unlink", nil)
								os.Remove(dir)
							})
						})
					})
				})
			})
		})
	})
	out("main end")
	return nil
}

// 202: readFile's four round trips against stat's one.
func fsStatBeforeReadFile(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	file := scriptPath("202-fs-stat-before-readfile-round-trips")
	fs.ReadFile(file, func(err error, data []byte) { out(logLine("readFile", jsErr(err), len(data) > 0)) })
	n := 0
	var statAgain func()
	statAgain = func() {
		fs.Stat(file, func(err error, _ *nodefs.Stats) {
			n++
			out(logLine("stat", n, jsErr(err)))
			if n < 2 {
				statAgain()
			}
		})
	}
	statAgain()
	out("main end")
	return nil
}

// 203: a read stream piped into a write stream.
func fsReadStreamPipe(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	dir := tempDir("uvgo-203-")
	src, dst := filepath.Join(dir, "in.txt"), filepath.Join(dir, "out.txt")
	os.WriteFile(src, []byte(strings.Repeat("abcdefghij", 5)), 0o666)
	var rlog, wlog []string
	ws, _ := fs.CreateWriteStream(dst, &nodefs.WriteStreamOptions{HighWaterMark: 20})
	for _, ev := range []string{"open", "ready", "finish", "close", "pipe"} {
		ws.On(ev, func(...any) { wlog = append(wlog, ev) })
	}
	ws.On("close", func(...any) {
		out(logLine("read stream:", strings.Join(rlog, " ")))
		out(logLine("write stream:", strings.Join(wlog, " ")))
		a, _ := os.ReadFile(dst)
		b, _ := os.ReadFile(src)
		out(logLine("copied:", string(a) == string(b)))
		os.RemoveAll(dir)
	})
	ws.On("ready", func(...any) {
		rs, _ := fs.CreateReadStream(src, &nodefs.ReadStreamOptions{HighWaterMark: 16})
		for _, ev := range []string{"open", "ready", "end"} {
			rs.On(ev, func(...any) { rlog = append(rlog, ev) })
		}
		rs.OnData(func(chunk []byte) { rlog = append(rlog, "data:"+strconv.Itoa(len(chunk))) })
		rs.Pipe(ws, true)
	})
	return nil
}

// 204: fs.watch reports a rename as 'rename' for both names.
func fsWatchRename(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	dir := tempDir("uvgo-204-")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o666)
	var seen []string
	var watcher *nodefs.FSWatcher
	watcher, err := fs.Watch(dir, func(eventType, filename string) {
		seen = append(seen, eventType+" "+filename)
		if len(seen) == 2 {
			out(strings.Join(seen, ", "))
			watcher.Close()
			out("closed")
		}
	})
	if err != nil {
		out(err.Error())
		return nil
	}
	watcher.On("close", func(...any) {
		out("close event")
		os.RemoveAll(dir)
	})
	l.SetTimeout(func() { os.Rename(filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")) }, 20*ms)
	return nil
}

// 205: fs/promises with await in a loop.
func fsPromisesAwaitLoop(l *uvloop.Loop, out func(string)) func() {
	fsp := nodefs.New(l).Promises()
	main := promise.Async(l, func() (string, error) {
		dir, err := promise.Await(fsp.Mkdtemp(filepath.Join(os.TempDir(), "uvgo-205-")))
		if err != nil {
			return "", err
		}
		for i := range 3 {
			file := filepath.Join(dir, "f"+strconv.Itoa(i))
			l.NextTick(func() { out(logLine("tick before write", i)) })
			if _, err := promise.Await(fsp.WriteFile(file, []byte(strings.Repeat("x", i+1)), nil)); err != nil {
				return "", err
			}
			st, err := promise.Await(fsp.Stat(file))
			if err != nil {
				return "", err
			}
			out(logLine("file", i, "size", st.Size))
		}
		names, _ := promise.Await(fsp.Readdir(dir))
		out(logLine("entries", strings.Join(names, ",")))
		if _, err := promise.Await(fsp.ReadFile(filepath.Join(dir, "nope"))); err != nil {
			var e *nodefs.Error
			errors.As(err, &e)
			out(logLine("caught", e.Code, e.Syscall))
		}
		fh, err := promise.Await(fsp.Open(filepath.Join(dir, "f2"), "r", 0o666))
		if err != nil {
			return "", err
		}
		res, _ := promise.Await(fh.Read(make([]byte, 8), 0, 8, 0))
		out(logLine("bytesRead", res.BytesRead))
		promise.Await(fh.Close())
		promise.Await(fsp.Rm(dir, &nodefs.RmOptions{Recursive: true}))
		return "done", nil
	})
	promise.Then(main, func(v string) (unit, error) { out(v); return unit{}, nil }, func(err error) (unit, error) {
		out(fmt.Sprint("error: ", err))
		return unit{}, nil
	})
	out("main end")
	return nil
}

// 206: a read stream's events, each handler queueing a tick, a microtask and an immediate.
func fsStreamEventsTicksImmediates(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	dir := tempDir("uvgo-206-")
	file := filepath.Join(dir, "in.txt")
	fs.WriteFileSync(file, []byte("abcdefghijklmnopqrst"), nil)
	queues := func(name string) {
		l.NextTick(func() { out(name + " nextTick") })
		logThen(resolved(l), out, name+" promise")
		l.SetImmediate(func() { out(name + " immediate") })
	}
	rs, _ := fs.CreateReadStream(file, &nodefs.ReadStreamOptions{HighWaterMark: 8})
	for _, ev := range []string{"open", "ready", "end", "close"} {
		rs.On(ev, func(...any) {
			out(ev)
			queues(ev)
		})
	}
	n := 0
	rs.OnData(func(chunk []byte) {
		n++
		out(logLine("data", n, string(chunk)))
		queues("data " + strconv.Itoa(n))
	})
	rs.On("close", func(...any) { fs.RmSync(dir, &nodefs.RmOptions{Recursive: true}) })
	l.NextTick(func() { out("main nextTick") })
	out("main end")
	return nil
}

// 207: readFile of 1.5 MiB takes six pool round trips (open, fstat, three reads, close),
// each in a later iteration; a 1 s timer set first fires after its busy callback (1 s: on a
// loaded machine the round trips can take over 100 ms, in node too).
func fsReadFileRoundTripsVs100msTimer(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	dir := tempDir("uvgo-207-")
	file := filepath.Join(dir, "big.bin")
	fs.WriteFileSync(file, []byte(strings.Repeat("x", 1536*1024)), nil)
	scheduled := time.Now()
	done := false
	iterations := 0
	l.SetTimeout(func() {
		out(logLine("timeout fired; readFile done:", done, "delay >= 999:", time.Since(scheduled) >= 999*ms))
		fs.RmSync(dir, &nodefs.RmOptions{Recursive: true})
	}, 1000*ms)
	var spin func()
	spin = func() {
		iterations++
		if !done {
			l.SetImmediate(spin)
		}
	}
	spin()
	fs.ReadFile(file, func(err error, data []byte) {
		done = true
		out(logLine("readFile", jsErr(err), len(data), "immediates meanwhile >= 6:", iterations >= 6))
		busyWait(10 * ms)
		out("readFile callback end")
	})
	out("main end")
	return nil
}

// 208: inside the callback of any fs call an immediate runs before a 0 ms timeout.
func fsImmediateBeforeTimeoutInCallbacks(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	fsp := fs.Promises()
	dir := tempDir("uvgo-208-")
	file := filepath.Join(dir, "f.txt")
	fs.WriteFileSync(file, []byte("hello"), nil)
	race := func(name string, next func()) {
		l.SetTimeout(func() {
			out(name + " timeout")
			next()
		}, 0)
		l.SetImmediate(func() { out(name + " immediate") })
		out(name + " callback")
	}
	fd := -1
	steps := []func(next func()){
		func(next func()) { fs.Stat(file, func(error, *nodefs.Stats) { race("stat", next) }) },
		func(next func()) { fs.Open(file, "r", 0o666, func(_ error, f int) { fd = f; race("open", next) }) },
		func(next func()) {
			fs.Read(fd, make([]byte, 5), 0, 5, 0, func(error, int, []byte) { race("read", next) })
		},
		func(next func()) { fs.Close(fd, func(error) { race("close", next) }) },
		func(next func()) { fs.WriteFile(file, []byte("world"), nil, func(error) { race("writeFile", next) }) },
		func(next func()) { fs.ReadFileString(file, "utf8", func(error, string) { race("readFile", next) }) },
		func(next func()) { fs.Readdir(dir, func(error, []string) { race("readdir", next) }) },
		func(next func()) {
			promise.Then(fsp.Stat(file), func(*nodefs.Stats) (unit, error) { race("promises.stat", next); return unit{}, nil }, nil)
		},
		func(next func()) {
			rs, _ := fs.CreateReadStream(file, nil)
			rs.Once("data", func(...any) { race("stream data", next) })
		},
	}
	i := 0
	var next func()
	next = func() {
		if i == len(steps) {
			l.SetTimeout(func() { fs.RmSync(dir, &nodefs.RmOptions{Recursive: true}) }, 10*ms)
			return
		}
		i++
		steps[i-1](next)
	}
	next()
	return nil
}
