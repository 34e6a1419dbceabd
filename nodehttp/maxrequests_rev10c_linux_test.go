package nodehttp_test

import (
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodehttp"
)

const maxRequestsTwinJS = `
const http = require('http');
const s = http.createServer((req, res) => res.end('hi ' + req.url));
s.keepAliveTimeout = 200;
s.maxRequestsPerSocket = 2;
s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`

// TestMaxRequestsPerSocketRev10c: with maxRequestsPerSocket 2, the first response says
// "Keep-Alive: timeout=0, max=2" and the second closes the connection, as node's. Before,
// nodehttp had no MaxRequestsPerSocket.
func TestMaxRequestsPerSocketRev10c(t *testing.T) {
	np := startNodeTwin(t, maxRequestsTwinJS)
	send, then := "GET /a HTTP/1.1\r\n"+rawHost+"\r\n", "GET /b HTTP/1.1\r\n"+rawHost+"\r\n"
	want := rawSteps(t, np, send, "hi /a", then, false, false)
	for _, m := range looptest.Modes {
		p, ok := startRawServerWith(t, m, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
			res.EndString("hi " + req.URL)
		}, func(srv *nodehttp.Server) {
			srv.MaxRequestsPerSocket = 2
		})
		if !ok {
			continue
		}
		for _, split := range []bool{false, true} {
			if got := rawSteps(t, p, send, "hi /a", then, split, false); got != want {
				t.Errorf("%s (split %v):\n got %q\nwant %q (node)", m.Name, split, got, want)
			}
		}
	}
}
