package nodenet

// Review rev10-streams: the socket's stream layer against node v20, in every mode (epoll
// and io_uring, each with and without an OS thread of the loop's own). Each test is a Go
// scenario and its JavaScript twin, which runs with node when it is installed; the logs are
// compared side by side (looptest.BySide: the client's lines, then the server's, each in
// its order, as two sockets' events in one poll phase come in the kernel's order).

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// rev10sNode runs the twin js with node and returns its lines in BySide's order; false
// when node is not installed.
func rev10sNode(t *testing.T, js string) ([]string, bool) {
	t.Helper()
	lines, ok := looptest.Node(t, "'use strict';\nconst net = require('net');\n"+js)
	return looptest.BySide(lines), ok
}

// rev10sDiff runs scenario in every mode and compares each mode's log with node's (the
// twin's), or, without node, with the first mode's.
func rev10sDiff(t *testing.T, js string, scenario func(t *testing.T, l *uvloop.Loop, log func(string, ...any))) {
	t.Helper()
	want, haveNode := rev10sNode(t, js)
	var ref []string
	for _, m := range looptest.Modes {
		var got []string
		log := func(f string, a ...any) { got = append(got, fmt.Sprintf(f, a...)) }
		if !runMode(t, m, func(l *uvloop.Loop) { scenario(t, l, log) }) {
			t.Logf("%s: not available", m.Name)
			continue
		}
		looptest.Compare(t, m, got, want, &ref)
	}
	if !haveNode {
		t.Skip("node is not installed: the modes were compared with each other only")
	}
}

func rev10sJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// rev10sFlags is the twins' flags(s).
func rev10sFlags(s *Socket) string {
	return fmt.Sprintf("rE=%v wE=%v wF=%v d=%v wl=%d nd=%v p=%v rs=%s", s.ReadableEnded(), s.WritableEnded(),
		s.WritableFinished(), s.Destroyed(), s.WritableLength(), s.WritableNeedDrain(), s.IsPaused(), s.ReadyState())
}

const rev10sFlagsJS = "function flags(s) { return `rE=${s.readableEnded} wE=${s.writableEnded} wF=${s.writableFinished} d=${s.destroyed} wl=${s.writableLength} nd=${s.writableNeedDrain} p=${s.isPaused()} rs=${s.readyState}`; }\n"

// end(chunk) after two writes that split a character, with allowHalfOpen false and true on
// the server: the flags at each event, the decoded text, and the order of "end", the
// automatic end, "finish" and "close" on both sides.
func TestRev10sEndHalfOpenFlags(t *testing.T) {
	for _, half := range []bool{false, true} {
		t.Run(fmt.Sprintf("allowHalfOpen=%v", half), func(t *testing.T) {
			js := rev10sFlagsJS + fmt.Sprintf("const halfOpen = %v;\n", half) + `
const server = net.createServer({ allowHalfOpen: halfOpen }, (sock) => {
  console.log('server conn', flags(sock));
  sock.setEncoding('utf8');
  let got = '';
  sock.on('data', (d) => { got += d; });
  sock.on('end', () => {
    console.log('server end', JSON.stringify(got), flags(sock));
    if (halfOpen) {
      sock.write('bye', () => console.log('server write cb', flags(sock)));
      sock.end();
      console.log('server after end()', flags(sock));
    }
    process.nextTick(() => console.log('server end+tick', flags(sock)));
  });
  sock.on('finish', () => console.log('server finish', flags(sock)));
  sock.on('close', (h) => { console.log('server close', h, flags(sock)); server.close(); });
});
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  console.log('client new', flags(c));
  c.on('connect', () => {
    console.log('client connect', flags(c));
    const b = Buffer.from('hé€', 'utf8');
    c.write(b.subarray(0, 2), (e) => console.log('client cb1', e, flags(c)));
    c.write(b.subarray(2, 4), (e) => console.log('client cb2', e, flags(c)));
    c.end(b.subarray(4));
    console.log('client after end', flags(c));
  });
  c.on('data', (d) => console.log('client data', JSON.stringify(d.toString())));
  c.on('end', () => console.log('client end', flags(c)));
  c.on('finish', () => console.log('client finish', flags(c)));
  c.on('close', (h) => console.log('client close', h, flags(c)));
});
`
			rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
				var server *Server
				server = CreateServer(l, func(sock *Socket) {
					log("server conn %s", rev10sFlags(sock))
					if err := sock.SetEncoding("utf8"); err != nil {
						t.Error(err)
					}
					got := ""
					sock.OnDataString(func(d string) { got += d })
					sock.OnEnd(func() {
						log("server end %s %s", rev10sJSON(got), rev10sFlags(sock))
						if half {
							sock.WriteString("bye", func(error) { log("server write cb %s", rev10sFlags(sock)) })
							sock.End(nil)
							log("server after end() %s", rev10sFlags(sock))
						}
						l.NextTick(func() { log("server end+tick %s", rev10sFlags(sock)) })
					})
					sock.OnFinish(func() { log("server finish %s", rev10sFlags(sock)) })
					sock.OnClose(func(h bool) { log("server close %v %s", h, rev10sFlags(sock)); server.Close(nil) })
				})
				server.AllowHalfOpen = half
				server.OnError(func(err error) { t.Errorf("server error: %v", err) })
				server.Listen(0, "127.0.0.1", func() {
					c := Connect(l, server.Address().Port, "127.0.0.1", nil)
					log("client new %s", rev10sFlags(c))
					c.OnConnect(func() {
						log("client connect %s", rev10sFlags(c))
						b := []byte("hé€")
						c.Write(b[:2], func(e error) { log("client cb1 %s %s", rev10sErr(e), rev10sFlags(c)) })
						c.Write(b[2:4], func(e error) { log("client cb2 %s %s", rev10sErr(e), rev10sFlags(c)) })
						c.End(b[4:])
						log("client after end %s", rev10sFlags(c))
					})
					c.OnDataString(func(d string) { log("client data %s", rev10sJSON(d)) })
					c.OnEnd(func() { log("client end %s", rev10sFlags(c)) })
					c.OnFinish(func() { log("client finish %s", rev10sFlags(c)) })
					c.OnClose(func(h bool) { log("client close %v %s", h, rev10sFlags(c)) })
				})
			})
		})
	}
}

// rev10sErr shows an error as node's console.log of it does in the twins: null, or its code.
func rev10sErr(err error) string {
	if err == nil {
		return "null"
	}
	return errCode(err)
}

// setEncoding on a paused socket that holds bytes decodes them (Node's setEncoding converts
// the buffer): a character split between the buffered bytes and the next read comes out
// whole, every "data" carries a string, and readableLength counts the decoded text as
// JavaScript does (UTF-16 code units: "€😀h" is 4).
func TestRev10sSetEncodingBuffered(t *testing.T) {
	const js = `
const server = net.createServer((sock) => {
  sock.pause();
  const wait = () => {
    if (sock.readableLength < 9) { setTimeout(wait, 1); return; }
    console.log('server buffered', sock.readableLength, sock.readableEncoding);
    sock.setEncoding('utf8');
    console.log('server after setEncoding', sock.readableLength, sock.readableEncoding);
    let got = '';
    const types = new Set();
    sock.on('data', (d) => { types.add(typeof d); got += d; });
    sock.on('end', () => console.log('server end', JSON.stringify(got), [...types].join(',')));
    sock.on('close', () => server.close());
    sock.resume();
    sock.write('go');
  };
  wait();
});
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1', () => c.write(Buffer.concat([Buffer.from('€😀'), Buffer.from([0x68, 0xc3])])));
  c.once('data', (d) => { console.log('client data', d.toString()); c.end(Buffer.from([0xa9, 0x21])); });
  c.on('close', () => console.log('client close'));
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		enc := func(s *Socket) string {
			if e := s.ReadableEncoding(); e != "" {
				return e
			}
			return "null"
		}
		var server *Server
		server = listen(t, l, func(sock *Socket) {
			sock.Pause()
			var wait func()
			wait = func() {
				if sock.ReadableLength() < 9 {
					l.SetTimeout(wait, time.Millisecond)
					return
				}
				log("server buffered %d %s", sock.ReadableLength(), enc(sock))
				if err := sock.SetEncoding("utf8"); err != nil {
					t.Error(err)
				}
				log("server after setEncoding %d %s", sock.ReadableLength(), enc(sock))
				got, types := "", map[string]bool{}
				sock.On("data", func(a ...any) {
					switch d := a[0].(type) {
					case string:
						types["string"] = true
						got += d
					case []byte:
						types["object"] = true
						got += string(d)
					}
				})
				sock.OnEnd(func() {
					var ts []string
					for _, k := range []string{"string", "object"} {
						if types[k] {
							ts = append(ts, k)
						}
					}
					log("server end %s %s", rev10sJSON(got), strings.Join(ts, ","))
				})
				sock.OnClose(func(bool) { server.Close(nil) })
				sock.Resume()
				sock.WriteString("go", nil)
			}
			wait()
		}, func(s *Server, port int) {
			var c *Socket
			c = Connect(l, port, "127.0.0.1", func() { c.Write(append([]byte("€😀"), 0x68, 0xc3), nil) })
			c.Once("data", func(a ...any) {
				log("client data %s", a[0])
				c.End([]byte{0xa9, 0x21})
			})
			c.OnClose(func(bool) { log("client close") })
		})
	})
}

// cork() twice, a write under each, uncork() now and from a nextTick, with a writable
// high-water mark of 16: Write's result, writableCorked and writableLength at each step;
// "drain" comes before the writes' callbacks (Node's afterWrite), and end() uncorks a
// write made in its listener.
func TestRev10sCorkUncork(t *testing.T) {
	js := rev10sFlagsJS + `
const server = net.createServer((sock) => {
  let got = '';
  sock.on('data', (d) => { got += d; });
  sock.on('end', () => console.log('server end', JSON.stringify(got)));
  sock.on('close', () => server.close());
});
server.listen(0, '127.0.0.1', () => {
  const c = net.connect({ port: server.address().port, host: '127.0.0.1', writableHighWaterMark: 16 });
  c.on('connect', () => {
    c.cork();
    console.log('client w1', c.write('aaaa', (e) => console.log('client cb1', e, c.writableLength)));
    c.cork();
    console.log('client w2', c.write('bbbbbbbbbbbbbbbbbbbb', (e) => console.log('client cb2', e, c.writableLength)), c.writableCorked, flags(c));
    c.uncork();
    console.log('client uncork1', c.writableCorked, c.writableLength);
    process.nextTick(() => { c.uncork(); console.log('client uncork2', c.writableCorked, c.writableLength); });
    c.on('drain', () => {
      console.log('client drain', flags(c));
      c.cork();
      c.write('c', (e) => console.log('client cb3', e));
      c.end('d');
      console.log('client end', c.writableCorked, flags(c));
    });
  });
  c.on('finish', () => console.log('client finish', flags(c)));
  c.on('close', (h) => console.log('client close', h));
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		listen(t, l, func(sock *Socket) {
			got := ""
			sock.OnDataString(func(d string) { got += d })
			sock.OnEnd(func() { log("server end %s", rev10sJSON(got)) })
		}, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.SetHighWaterMark(0, 16)
			c.OnConnect(func() {
				c.Cork()
				log("client w1 %v", c.WriteString("aaaa", func(e error) { log("client cb1 %s %d", rev10sErr(e), c.WritableLength()) }))
				c.Cork()
				ok := c.WriteString("bbbbbbbbbbbbbbbbbbbb", func(e error) { log("client cb2 %s %d", rev10sErr(e), c.WritableLength()) })
				log("client w2 %v %d %s", ok, c.WritableCorked(), rev10sFlags(c))
				c.Uncork()
				log("client uncork1 %d %d", c.WritableCorked(), c.WritableLength())
				l.NextTick(func() {
					c.Uncork()
					log("client uncork2 %d %d", c.WritableCorked(), c.WritableLength())
				})
				c.OnDrain(func() {
					log("client drain %s", rev10sFlags(c))
					c.Cork()
					c.WriteString("c", func(e error) { log("client cb3 %s", rev10sErr(e)) })
					c.EndString("d")
					log("client end %d %s", c.WritableCorked(), rev10sFlags(c))
				})
			})
			c.OnFinish(func() { log("client finish %s", rev10sFlags(c)) })
			c.OnClose(func(h bool) { log("client close %v", h); s.Close(nil) })
		})
	})
}

// destroy() and destroy(err) (at once, from a nextTick, twice), write after destroy, an
// idle timeout that does not destroy (its listener ends the socket), and a socket paused
// from "connect" whose peer ends: the events and the flags at each.
func TestRev10sDestroyTimeoutPaused(t *testing.T) {
	js := rev10sFlagsJS + `
const cases = ['destroy', 'destroy-err', 'destroy-tick', 'destroy-err-twice', 'write-after-destroy', 'timeout', 'paused-end'];
const server = net.createServer((sock) => {
  sock.on('error', () => {});
  sock.once('data', (d) => {
    const what = d.toString();
    if (what === 'paused-end') sock.end('xyz');
    if (what === 'timeout') sock.write('t');
  });
});
function next() {
  const n = cases.shift();
  if (!n) { server.close(); return; }
  const c = net.connect(server.address().port, '127.0.0.1');
  for (const ev of ['end', 'finish', 'error', 'timeout', 'pause', 'resume']) c.on(ev, (e) => console.log(n, ev, e ? e.code + ' ' + e.message : '-', flags(c)));
  c.on('close', (h) => { console.log(n, 'close', h, flags(c)); setImmediate(next); });
  c.on('connect', () => {
    c.write(n);
    if (n === 'destroy') { c.destroy(); console.log(n, 'destroyed', flags(c)); }
    if (n === 'destroy-err') { c.destroy(Object.assign(new Error('boom'), { code: 'EBOOM' })); console.log(n, 'destroyed', flags(c)); }
    if (n === 'destroy-tick') process.nextTick(() => { c.destroy(); console.log(n, 'destroyed', flags(c)); });
    if (n === 'destroy-err-twice') {
      c.destroy(Object.assign(new Error('one'), { code: 'E1' }));
      c.destroy(Object.assign(new Error('two'), { code: 'E2' }));
    }
    if (n === 'write-after-destroy') {
      c.destroy();
      console.log(n, 'write', c.write('x', (e) => console.log(n, 'write cb', e.code, e.message)));
    }
    if (n === 'timeout') {
      c.once('data', (d) => {
        console.log(n, 'data', d.toString());
        c.setTimeout(20, () => { console.log(n, 'timeout cb', c.timeout, flags(c)); c.setTimeout(0); c.end(); });
      });
    }
    if (n === 'paused-end') {
      c.pause();
      setTimeout(() => {
        console.log(n, 'before resume', c.readableLength, flags(c));
        c.on('data', (d) => console.log(n, 'data', d.toString()));
        c.resume();
      }, 30);
    }
  });
}
server.listen(0, '127.0.0.1', next);
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		cases := []string{"destroy", "destroy-err", "destroy-tick", "destroy-err-twice", "write-after-destroy", "timeout", "paused-end"}
		listen(t, l, func(sock *Socket) {
			sock.OnError(func(error) {})
			sock.Once("data", func(a ...any) {
				switch string(a[0].([]byte)) {
				case "paused-end":
					sock.EndString("xyz")
				case "timeout":
					sock.WriteString("t", nil)
				}
			})
		}, func(s *Server, port int) {
			var next func()
			next = func() {
				if len(cases) == 0 {
					s.Close(nil)
					return
				}
				n := cases[0]
				cases = cases[1:]
				c := Connect(l, port, "127.0.0.1", nil)
				for _, ev := range []string{"end", "finish", "error", "timeout", "pause", "resume"} {
					c.On(ev, func(a ...any) {
						e := "-"
						if len(a) > 0 {
							if err, ok := a[0].(error); ok {
								e = errCode(err) + " " + err.Error()
							}
						}
						log("%s %s %s %s", n, ev, e, rev10sFlags(c))
					})
				}
				c.OnClose(func(h bool) { log("%s close %v %s", n, h, rev10sFlags(c)); l.SetImmediate(next) })
				c.OnConnect(func() {
					c.WriteString(n, nil)
					switch n {
					case "destroy":
						c.Destroy(nil)
						log("%s destroyed %s", n, rev10sFlags(c))
					case "destroy-err":
						c.Destroy(&Error{Code: "EBOOM", Message: "boom"})
						log("%s destroyed %s", n, rev10sFlags(c))
					case "destroy-tick":
						l.NextTick(func() { c.Destroy(nil); log("%s destroyed %s", n, rev10sFlags(c)) })
					case "destroy-err-twice":
						c.Destroy(&Error{Code: "E1", Message: "one"})
						c.Destroy(&Error{Code: "E2", Message: "two"})
					case "write-after-destroy":
						c.Destroy(nil)
						log("%s write %v", n, c.WriteString("x", func(e error) { log("%s write cb %s %s", n, errCode(e), e) }))
					case "timeout":
						c.Once("data", func(a ...any) {
							log("%s data %s", n, a[0])
							c.SetTimeout(20*time.Millisecond, func() {
								log("%s timeout cb %d %s", n, c.Timeout().Milliseconds(), rev10sFlags(c))
								c.SetTimeout(0, nil)
								c.End(nil)
							})
						})
					case "paused-end":
						c.Pause()
						l.SetTimeout(func() {
							log("%s before resume %d %s", n, c.ReadableLength(), rev10sFlags(c))
							c.OnDataString(func(d string) { log("%s data %s", n, d) })
							c.Resume()
						}, 30*time.Millisecond)
					}
				})
			}
			next()
		})
	})
}

// resume() with no "data" listener drains the socket (Node's flow reads and drops each
// chunk): the peer's 100 KiB, more than the readable high-water mark, go, and "end" comes;
// bytesRead counts them.
func TestRev10sResumeWithoutDataListener(t *testing.T) {
	js := `
const server = net.createServer((sock) => { sock.end(Buffer.alloc(100 * 1024, 'x')); });
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  c.resume();
  c.on('end', () => console.log('client end', c.bytesRead, c.readableLength));
  c.on('close', () => { console.log('client close'); server.close(); });
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		listen(t, l, func(sock *Socket) { sock.End(make([]byte, 100<<10)) }, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			c.Resume()
			c.OnEnd(func() { log("client end %d %d", c.BytesRead(), c.ReadableLength()) })
			c.OnClose(func(bool) { log("client close"); s.Close(nil) })
		})
	})
}

// A character cut by the end of the stream comes out as U+FFFD before "end" (the decoder's
// end()), flowing or paused until after the end was read.
func TestRev10sEncodingCutByEnd(t *testing.T) {
	js := `
const server = net.createServer((sock) => sock.end(Buffer.from([0x68, 0xe2, 0x82])));
server.listen(0, '127.0.0.1', () => {
  const c = net.connect(server.address().port, '127.0.0.1');
  c.setEncoding('utf8');
  let got = '';
  c.on('data', (d) => { got += d; });
  c.on('end', () => {
    console.log('client end', JSON.stringify(got), got.length);
    const d = net.connect(server.address().port, '127.0.0.1');
    d.setEncoding('utf8');
    d.pause();
    d.on('end', () => console.log('client d end', d.readableLength));
    d.on('close', () => { console.log('client d close'); server.close(); });
    setTimeout(() => {
      console.log('client d before resume', d.readableLength);
      let got2 = '';
      d.on('data', (x) => { got2 += x; });
      d.on('end', () => console.log('client d got', JSON.stringify(got2)));
      d.resume();
    }, 50);
  });
});
`
	rev10sDiff(t, js, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		listen(t, l, func(sock *Socket) { sock.End([]byte{0x68, 0xe2, 0x82}) }, func(s *Server, port int) {
			c := Connect(l, port, "127.0.0.1", nil)
			if err := c.SetEncoding("utf8"); err != nil {
				t.Error(err)
			}
			got := ""
			c.OnDataString(func(d string) { got += d })
			c.OnEnd(func() {
				log("client end %s %d", rev10sJSON(got), len([]rune(got)))
				d := Connect(l, port, "127.0.0.1", nil)
				d.SetEncoding("utf8")
				d.Pause()
				d.OnEnd(func() { log("client d end %d", d.ReadableLength()) })
				d.OnClose(func(bool) { log("client d close"); s.Close(nil) })
				l.SetTimeout(func() {
					log("client d before resume %d", d.ReadableLength())
					got2 := ""
					d.OnDataString(func(x string) { got2 += x })
					d.OnEnd(func() { log("client d got %s", rev10sJSON(got2)) })
					d.Resume()
				}, 50*time.Millisecond)
			})
		})
	})
}
