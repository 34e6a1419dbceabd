package conformance

import (
	"os"
	"path/filepath"
	"strconv"
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

// 328: socket.setTimeout's 'timeout', readyState, bytesRead and bytesWritten.
func netSocketTimeout(l *uvloop.Loop, out func(string)) func() {
	var server *nodenet.Server
	server = nodenet.CreateServer(l, func(c *nodenet.Socket) {
		c.SetTimeout(30*ms, func() { out(logLine("server timeout", c.ReadyState(), c.BytesRead())) })
		c.OnData(func(d []byte) { out(logLine("server data", string(d), c.BytesRead())) })
		c.OnEnd(func() { out(logLine("server end", c.ReadyState())) })
		c.OnClose(func(bool) {
			out(logLine("server close", c.ReadyState()))
			server.Close(nil)
		})
	})
	server.Listen(0, "127.0.0.1", func() {
		c := nodenet.Connect(l, server.Address().Port, "127.0.0.1", nil)
		out(logLine("connecting", c.ReadyState(), "undefined")) // c.timeout before setTimeout
		c.SetTimeout(60*ms, nil)
		out(logLine("timeout set", c.Timeout().Milliseconds()))
		c.OnConnect(func() {
			out(logLine("connect", c.ReadyState()))
			c.WriteString("hi", func(error) { out(logLine("written", c.BytesWritten())) })
		})
		timeouts := 0
		c.OnTimeout(func() {
			timeouts++
			out(logLine("client timeout", timeouts, c.ReadyState(), c.Destroyed()))
			if timeouts == 1 {
				c.WriteString("again", nil)
				return
			}
			c.SetTimeout(0, nil)
			out(logLine("timeout off", c.Timeout().Milliseconds()))
			c.EndString("bye")
			out(logLine("after end", c.ReadyState()))
		})
		c.OnEnd(func() { out(logLine("client end", c.ReadyState())) })
		c.OnClose(func(bool) { out(logLine("client close", c.ReadyState(), c.BytesWritten())) })
		c.Resume()
	})
	return nil
}

// 329: a server on '::' sees IPv4 peers as '::ffff:127.0.0.1'; EADDRINUSE for ':::PORT'.
func netDualStackAddresses(l *uvloop.Loop, out func(string)) func() {
	server := nodenet.CreateServer(l, func(c *nodenet.Socket) {
		a := c.Address()
		out(logLine("server sees", c.RemoteAddress(), c.RemoteFamily(), a.Address, a.Family))
		c.End(nil)
	})
	server.Listen(0, "", func() {
		a := server.Address()
		port := a.Port
		out(logLine("listening", a.Address, a.Family))
		second := nodenet.CreateServer(l, nil)
		second.OnError(func(err error) {
			e, _ := err.(*nodenet.Error)
			if e == nil {
				out(err.Error())
				return
			}
			out(logLine("error", e.Code, e.Errno(), e.Syscall, e.Address, e.Port == port))
			out(strings.Replace(e.Message, strconv.Itoa(port), "PORT", 1))
			c := nodenet.Connect(l, port, "127.0.0.1", nil)
			c.OnEnd(func() {
				out(logLine("client sees", c.RemoteAddress(), c.RemoteFamily(), c.Address().Address))
			})
			c.OnClose(func(bool) { server.Close(func(error) { out("server closed") }) })
			c.Resume()
		})
		second.Listen(port, "", nil)
	})
	return nil
}
