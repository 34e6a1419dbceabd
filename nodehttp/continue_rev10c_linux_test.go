package nodehttp_test

import (
	"strconv"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodehttp"
)

// continueTwinJS: a 'checkContinue' listener that asks for the body of /yes (writeContinue,
// then the request goes to the 'request' listener) and refuses /no without it.
const continueTwinJS = `
const http = require('http');
const s = http.createServer((req, res) => {
  let n = 0;
  req.on('data', (d) => { n += d.length; });
  req.on('end', () => res.end(req.url + ' got ' + n));
});
s.on('checkContinue', (req, res) => {
  if (req.url === '/no') { res.writeHead(417); res.end('nope'); return; }
  res.writeContinue();
  s.emit('request', req, res);
});
s.keepAliveTimeout = 200;
s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`

// TestCheckContinueRev10c: with a 'checkContinue' listener the 100 (Continue) goes only
// when the listener calls WriteContinue, and a refusal goes without it; a request with no
// Expect still goes to 'request'. Before, nodehttp had no 'checkContinue' and sent the 100
// for every such request.
func TestCheckContinueRev10c(t *testing.T) {
	np := startNodeTwin(t, continueTwinJS)
	var ports []int
	var modes []string
	for _, m := range looptest.Modes {
		p, ok := startRawServerWith(t, m, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			n := 0
			req.OnData(func(b []byte) { n += len(b) })
			req.OnEnd(func() { res.EndString(req.URL + " got " + strconv.Itoa(n)) })
		}, func(srv *nodehttp.Server) {
			srv.On("checkContinue", func(a ...any) {
				req, res := a[0].(*nodehttp.IncomingMessage), a[1].(*nodehttp.ServerResponse)
				if req.URL == "/no" {
					res.WriteHead(417)
					res.EndString("nope")
					return
				}
				res.WriteContinue()
				srv.Emit("request", req, res)
			})
		})
		if ok {
			ports, modes = append(ports, p), append(modes, m.Name)
		}
	}
	cases := []rawCase{
		{name: "continue", send: "POST /yes HTTP/1.1\r\n" + rawHost + "Expect: 100-continue\r\nContent-Length: 3\r\n\r\n",
			waitFor: "100 Continue\r\n\r\n", then: "abc" + rawProbe},
		{name: "refused", send: "POST /no HTTP/1.1\r\n" + rawHost + "Expect: 100-continue\r\nContent-Length: 3\r\nConnection: close\r\n\r\n"},
		{name: "no-expect", send: "POST /plain HTTP/1.1\r\n" + rawHost + "Content-Length: 3\r\nConnection: close\r\n\r\nabc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := rawSteps(t, np, c.send, c.waitFor, c.then, false, false)
			for i, p := range ports {
				for _, split := range []bool{false, true} {
					if got := rawSteps(t, p, c.send, c.waitFor, c.then, split, false); got != want {
						t.Errorf("%s (split %v):\n got %q\nwant %q (node)", modes[i], split, clip(got), clip(want))
					}
				}
			}
		})
	}
}
