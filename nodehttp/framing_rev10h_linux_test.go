package nodehttp_test

// How a response's body is framed once its head is fixed before the body (writeHead,
// flushHeaders) and what addTrailers sends: the bytes node v20's http server sends and a
// nodehttp server's, in every mode, must be the same.

import (
	"errors"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/nodenet"
)

// framingTwinJS is the node twin of framingServe: each URL is one way to answer.
const framingTwinJS = `
const http = require('http');
const s = http.createServer((req, res) => {
  if (req.url === '/flush-wait') {
    res.flushHeaders();
    req.on('data', () => {});
    req.on('end', () => res.end('done'));
    return;
  }
  req.resume();
  req.on('end', () => {
    switch (req.url) {
    case '/wh-end': res.writeHead(200); res.end('hello'); break;
    case '/wh-end-empty': res.writeHead(200, {'Content-Type': 'text/plain'}); res.end(); break;
    case '/sc-end': res.statusCode = 201; res.end('hello'); break;
    case '/wh-write-end': res.writeHead(200); res.write('x'); res.end('y'); break;
    case '/wh-204': res.writeHead(204); res.end(); break;
    case '/wh-304-body': res.writeHead(304); res.end('zz'); break;
    case '/wh-cl': res.writeHead(200, {'Content-Length': '5'}); res.end('hello'); break;
    case '/set-wh': res.setHeader('X-A', '1'); res.writeHead(200, {'X-B': '2'}); res.end('hello'); break;
    case '/flush': res.flushHeaders(); res.end('hi'); break;
    case '/flush-twice': res.setHeader('X-A', '1'); res.flushHeaders(); res.flushHeaders(); res.write('a'); res.end(); break;
    case '/wh-flush': res.writeHead(202, 'Yes'); res.flushHeaders(); res.end('hi'); break;
    case '/flush-cl': res.setHeader('Content-Length', '2'); res.flushHeaders(); res.end('hi'); break;
    case '/trailers': res.writeHead(200, {'Trailer': 'X-T'}); res.write('a'); res.addTrailers({'X-T': 'v', 'X-U': 'w'}); res.end(); break;
    case '/trailers-arr': res.write('a'); res.addTrailers([['X-T', 'v'], ['X-T', 'v2']]); res.end('b'); break;
    case '/trailers-replace': res.write('a'); res.addTrailers({'X-T': 'v'}); res.addTrailers({'X-U': ['1', '2']}); res.end(); break;
    case '/trailers-cl': res.setHeader('Content-Length', '1'); res.addTrailers({'X-T': 'v'}); res.end('a'); break;
    case '/trailers-end': res.addTrailers({'X-T': 'v'}); res.end('abc'); break;
    case '/trailers-bad': {
      let log = '';
      res.write('a');
      res.addTrailers({'X-T': 'v'});
      for (const t of [{'x y': '1'}, {'X-V': 'a\nb'}]) {
        try { res.addTrailers(t); } catch (e) { log += e.code + ' ' + e.message + ';'; }
      }
      res.end(log);
      break;
    }
    default: res.end('?');
    }
  });
});
s.keepAliveTimeout = 200;
s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`

// framingServe is the handler of framingTwinJS.
func framingServe(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
	if req.URL == "/flush-wait" {
		res.FlushHeaders()
		req.OnData(func([]byte) {})
		req.OnEnd(func() { res.EndString("done") })
		return
	}
	req.Resume()
	req.OnEnd(func() {
		switch req.URL {
		case "/wh-end":
			res.WriteHead(200)
			res.EndString("hello")
		case "/wh-end-empty":
			res.WriteHead(200, map[string]string{"Content-Type": "text/plain"})
			res.End(nil)
		case "/sc-end":
			res.StatusCode = 201
			res.EndString("hello")
		case "/wh-write-end":
			res.WriteHead(200)
			res.WriteString("x")
			res.EndString("y")
		case "/wh-204":
			res.WriteHead(204)
			res.End(nil)
		case "/wh-304-body":
			res.WriteHead(304)
			res.EndString("zz")
		case "/wh-cl":
			res.WriteHead(200, map[string]string{"Content-Length": "5"})
			res.EndString("hello")
		case "/set-wh":
			res.SetHeader("X-A", "1")
			res.WriteHead(200, map[string]string{"X-B": "2"})
			res.EndString("hello")
		case "/flush":
			res.FlushHeaders()
			res.EndString("hi")
		case "/flush-twice":
			res.SetHeader("X-A", "1")
			res.FlushHeaders()
			res.FlushHeaders()
			res.WriteString("a")
			res.End(nil)
		case "/wh-flush":
			res.WriteHead(202, "Yes")
			res.FlushHeaders()
			res.EndString("hi")
		case "/flush-cl":
			res.SetHeader("Content-Length", "2")
			res.FlushHeaders()
			res.EndString("hi")
		case "/trailers":
			res.WriteHead(200, map[string]string{"Trailer": "X-T"})
			res.WriteString("a")
			res.AddTrailers(map[string]string{"X-T": "v", "X-U": "w"})
			res.End(nil)
		case "/trailers-arr":
			res.WriteString("a")
			res.AddTrailers([][2]string{{"X-T", "v"}, {"X-T", "v2"}})
			res.EndString("b")
		case "/trailers-replace":
			res.WriteString("a")
			res.AddTrailers(map[string]string{"X-T": "v"})
			res.AddTrailers(map[string]any{"X-U": []string{"1", "2"}})
			res.End(nil)
		case "/trailers-cl":
			res.SetHeader("Content-Length", "1")
			res.AddTrailers(map[string]string{"X-T": "v"})
			res.EndString("a")
		case "/trailers-end":
			res.AddTrailers(map[string]string{"X-T": "v"})
			res.EndString("abc")
		case "/trailers-bad":
			log := ""
			res.WriteString("a")
			res.AddTrailers(map[string]string{"X-T": "v"})
			for _, tr := range []map[string]string{{"x y": "1"}, {"X-V": "a\nb"}} {
				if err := res.AddTrailers(tr); err != nil {
					var e *nodenet.Error
					if errors.As(err, &e) {
						log += e.Code + " "
					}
					log += err.Error() + ";"
				}
			}
			res.EndString(log)
		default:
			res.EndString("?")
		}
	})
}

var framingURLs = []string{
	"/wh-end", "/wh-end-empty", "/sc-end", "/wh-write-end", "/wh-204", "/wh-304-body",
	"/wh-cl", "/set-wh", "/flush", "/flush-twice", "/wh-flush", "/flush-cl", "/trailers",
	"/trailers-arr", "/trailers-replace", "/trailers-cl", "/trailers-end", "/trailers-bad",
}

// TestHeadFixedFramingRev10h: a head fixed by writeHead or flushHeaders frames End's body
// as node does (chunked on HTTP/1.1, to the close on HTTP/1.0, none for HEAD and 204/304),
// a status set without writeHead still gets End's Content-Length, and trailers go after a
// chunked body only. Each request alone (with Connection: close), whole and byte by byte,
// then all of them pipelined on one kept-alive connection; and flushHeaders sends the head
// before the body is there.
func TestHeadFixedFramingRev10h(t *testing.T) {
	np := startNodeTwin(t, framingTwinJS)
	var ports []int
	var modes []string
	for _, m := range looptest.Modes {
		if p, ok := startRawServer(t, m, framingServe); ok {
			ports, modes = append(ports, p), append(modes, m.Name)
		}
	}
	var cases []rawCase
	var all strings.Builder
	for _, u := range framingURLs {
		cases = append(cases, rawCase{name: "GET" + u, send: "GET " + u + " HTTP/1.1\r\n" + rawHost + "Connection: close\r\n\r\n"})
		all.WriteString("GET " + u + " HTTP/1.1\r\n" + rawHost + "\r\n")
	}
	for _, u := range []string{"/wh-end", "/flush", "/wh-write-end", "/trailers-arr"} {
		cases = append(cases,
			rawCase{name: "HEAD" + u, send: "HEAD " + u + " HTTP/1.1\r\n" + rawHost + "Connection: close\r\n\r\n"},
			rawCase{name: "1.0" + u, send: "GET " + u + " HTTP/1.0\r\n\r\n"})
	}
	cases = append(cases,
		rawCase{name: "pipelined", send: all.String() + rawProbe, noSplit: true},
		// The head is sent at once: the client sends the body only once it has read it.
		rawCase{name: "flush-wait", send: "POST /flush-wait HTTP/1.1\r\n" + rawHost + "Content-Length: 1\r\nConnection: close\r\n\r\n",
			waitFor: "\r\n\r\n", then: "x"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := rawSteps(t, np, c.send, c.waitFor, c.then, false, false)
			for i, p := range ports {
				for _, split := range []bool{false, true} {
					if split && c.noSplit {
						continue
					}
					if got := rawSteps(t, p, c.send, c.waitFor, c.then, split, false); got != want {
						t.Errorf("%s (split %v):\n got %q\nwant %q (node)", modes[i], split, clip(got), clip(want))
					}
				}
			}
		})
	}
}
