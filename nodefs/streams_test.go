package nodefs_test

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// emitter is what the streams have in common for watching their events.
type emitter interface {
	On(event string, fn func(args ...any)) *nodenet.Listener
}

// TestStreamsAgainstNode runs testdata/streams.js's cases (highWaterMark, start and end,
// encodings, a missing file, destroy, pause and resume, backpressure and drain, write
// after end, a directory, destroy with an error, an offset, a pipe) and compares the events
// with testdata/streams.txt, what Node v20 printed.
func TestStreamsAgainstNode(t *testing.T) {
	want, err := os.ReadFile("testdata/streams.txt")
	if err != nil {
		t.Fatal(err)
	}
	inTempDir(t)
	var log []string
	out := func(s string) { log = append(log, s) }
	watch := func(name string, s emitter, events ...string) {
		for _, ev := range events {
			s.On(ev, func(a ...any) {
				switch ev {
				case "data":
					var v string
					switch c := a[0].(type) {
					case []byte:
						v = string(c)
					case string:
						v = c
					}
					out(name + " data " + strconv.Quote(v))
				case "error":
					var e *nodefs.Error
					var ne *nodenet.Error
					code := "undefined"
					if errors.As(a[0].(error), &e) {
						code = e.Code
					} else if errors.As(a[0].(error), &ne) {
						code = ne.Code
					}
					out(name + " error " + code + " " + a[0].(error).Error())
				default:
					out(name + " " + ev)
				}
			})
		}
	}
	rsEvents := []string{"open", "ready", "data", "end", "close", "error", "pause", "resume"}
	wsEvents := []string{"open", "ready", "drain", "finish", "close", "error"}
	run(t, func(l *uvloop.Loop, fs *nodefs.FS) {
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(fs.WriteFileSync("src", []byte("0123456789abcdef"), nil))
		_, err := fs.MkdirSync("dir", nil)
		must(err)
		cases := []func(done func()){
			func(done func()) {
				s, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 4, Start: 2, HasStart: true, End: 11, HasEnd: true})
				must(err)
				watch("range", s, rsEvents...)
				s.On("close", func(...any) { out("range bytesRead " + strconv.FormatInt(s.BytesRead, 10)); done() })
			},
			func(done func()) {
				s, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 4, Encoding: "hex", End: 5, HasEnd: true})
				must(err)
				watch("hex", s, "data", "end", "close")
				s.On("close", func(...any) { done() })
			},
			func(done func()) {
				s, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 4})
				must(err)
				must(s.SetEncoding("base64"))
				watch("base64", s, "data", "end", "close")
				s.On("close", func(...any) { done() })
			},
			func(done func()) {
				s, err := fs.CreateReadStream("missing", nil)
				must(err)
				watch("missing", s, rsEvents...)
				s.On("close", func(...any) { done() })
			},
			func(done func()) {
				s, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 4})
				must(err)
				watch("destroy", s, rsEvents...)
				s.Once("data", func(...any) { s.Destroy(nil) })
				s.On("close", func(...any) { out("destroy destroyed " + strconv.FormatBool(s.Destroyed())); done() })
			},
			func(done func()) {
				s, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 8})
				must(err)
				watch("pause", s, rsEvents...)
				s.Once("data", func(...any) {
					s.Pause()
					l.SetTimeout(func() { s.Resume() }, 5*time.Millisecond)
				})
				s.On("close", func(...any) { done() })
			},
			func(done func()) {
				s, err := fs.CreateWriteStream("out", &nodefs.WriteStreamOptions{HighWaterMark: 5})
				must(err)
				watch("write", s, wsEvents...)
				out("write returned " + strconv.FormatBool(s.Write([]byte("abc"), nil)))
				out("write returned " + strconv.FormatBool(s.Write([]byte("defg"), nil)))
				s.Once("drain", func(...any) {
					out("write after drain returned " + strconv.FormatBool(s.Write([]byte("h"), nil)))
					s.End([]byte("ij"), func() { out("end callback") })
				})
				s.On("close", func(...any) {
					b, _ := fs.ReadFileStringSync("out", "utf8")
					out("write bytesWritten " + strconv.FormatInt(s.BytesWritten, 10) + " file " + b)
					done()
				})
			},
			func(done func()) {
				s, err := fs.CreateWriteStream("out2", nil)
				must(err)
				watch("after end", s, wsEvents...)
				s.End([]byte("x"), nil)
				s.Write([]byte("y"), func(err error) {
					var e *nodenet.Error
					code := ""
					if errors.As(err, &e) {
						code = e.Code
					}
					out("after end write callback " + code)
				})
				s.On("close", func(...any) { done() })
			},
			func(done func()) {
				s, err := fs.CreateWriteStream("dir", nil)
				must(err)
				watch("dir", s, wsEvents...)
				s.On("close", func(...any) { done() })
			},
			func(done func()) {
				s, err := fs.CreateWriteStream("out3", nil)
				must(err)
				watch("destroyed", s, wsEvents...)
				s.On("ready", func(...any) { s.Destroy(errors.New("boom")) })
				s.On("close", func(...any) { done() })
			},
			func(done func()) {
				s, err := fs.CreateWriteStream("src", &nodefs.WriteStreamOptions{Flags: "r+", Start: 3, HasStart: true})
				must(err)
				watch("start", s, "finish", "close")
				s.End([]byte("XYZ"), nil)
				s.On("close", func(...any) {
					b, _ := fs.ReadFileStringSync("src", "utf8")
					out("start file " + b)
					done()
				})
			},
			func(done func()) {
				r, err := fs.CreateReadStream("src", &nodefs.ReadStreamOptions{HighWaterMark: 5, Encoding: "latin1", End: 7, HasEnd: true})
				must(err)
				w, err := fs.CreateWriteStream("piped", nil)
				must(err)
				watch("pipe-r", r, "end")
				watch("pipe-w", w, "pipe", "unpipe", "finish", "close")
				r.Pipe(w, true)
				w.On("close", func(...any) {
					b, _ := fs.ReadFileStringSync("piped", "utf8")
					out("pipe file " + b)
					done()
				})
			},
		}
		i := 0
		var next func()
		next = func() {
			if i == len(cases) {
				for _, f := range []string{"src", "out", "out2", "out3", "piped"} {
					fs.RmSync(f, &nodefs.RmOptions{Force: true})
				}
				fs.RmdirSync("dir")
				return
			}
			i++
			cases[i-1](next)
		}
		next()
	})
	compareLines(t, strings.Join(log, "\n"), strings.TrimSpace(string(want)))
}
