package conformance

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the stream scenarios: stream.pipeline is nodenet.Pipeline(cb, src, dsts...),
// readable.pipe is Pipe, and an fs stream or a socket is the stream Node's is.

// errString prints an error as console.log prints undefined for none.
func errString(err error) string {
	if err == nil {
		return "undefined"
	}
	return err.Error()
}

// 327: pipeline with backpressure, then a pipeline whose source fails.
func streamPipelineFS(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	dir := tempDir("uvgo-327-")
	src := filepath.Join(dir, "src.txt")
	os.WriteFile(src, []byte(strings.Repeat("x", 40)), 0o666)
	rs, _ := fs.CreateReadStream(src, &nodefs.ReadStreamOptions{HighWaterMark: 8})
	ws, _ := fs.CreateWriteStream(filepath.Join(dir, "dst.txt"), &nodefs.WriteStreamOptions{HighWaterMark: 4})
	pauses, drains, closes := 0, 0, 0
	rs.On("pause", func(...any) { pauses++ })
	ws.On("drain", func(...any) { drains++ })
	ws.On("pipe", func(a ...any) { out(logLine("ws pipe", a[0] == nodenet.Readable(rs))) })
	ws.On("unpipe", func(a ...any) { out(logLine("ws unpipe", a[0] == nodenet.Readable(rs))) })
	rs.On("end", func(...any) { out("rs end") })
	ws.On("finish", func(...any) { out("ws finish") })
	rs.On("close", func(...any) { closes++ })
	ws.On("close", func(...any) { closes++ })
	nodenet.Pipeline(func(err error) {
		out(logLine("pipeline done", errString(err), "closed:", closes, "paused:", pauses > 0, "drained:", drains > 0))
		b, _ := os.ReadFile(filepath.Join(dir, "dst.txt"))
		out(logLine("copied", len(b)))
		bad, _ := fs.CreateReadStream(filepath.Join(dir, "missing.txt"), nil)
		ws2, _ := fs.CreateWriteStream(filepath.Join(dir, "dst2.txt"), nil)
		bad.On("close", func(...any) { out("bad close") })
		ws2.On("close", func(...any) {
			out(logLine("ws2 close", ws2.Destroyed()))
			os.RemoveAll(dir)
		})
		nodenet.Pipeline(func(err error) {
			var fe *nodefs.Error
			if e, ok := err.(*nodefs.Error); ok {
				fe = e
			}
			if fe != nil {
				out(logLine("pipeline failed", fe.Code, fe.Syscall))
			} else {
				out(logLine("pipeline failed", errString(err)))
			}
		}, bad, ws2)
		l.NextTick(func() { out("tick after pipeline") })
	}, rs, ws)
	return nil
}
