package nodehttp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/uvloop"
)

// nodeClientScript drives a server with Node's own http client: five GETs in turn on a
// keep-alive agent with one socket (each after the last one's 'close', so each reuses the
// socket), then three requests pipelined on one raw socket.
const nodeClientScript = `
const http = require('http');
const net = require('net');
const port = Number(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const seen = [];
function one(i) {
  if (i === 5) return pipeline();
  const req = http.get({ port, host: '127.0.0.1', path: '/k' + i, agent }, (res) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (d) => { body += d; });
    res.on('end', () => seen.push(res.statusCode + ' ' + body + ' reused=' + req.reusedSocket));
  });
  req.on('close', () => setImmediate(() => one(i + 1))); // after the socket is free
}
function pipeline() {
  const sock = net.connect(port, '127.0.0.1', () => {
    sock.write('GET /p1 HTTP/1.1\r\nHost: x\r\n\r\nGET /p2 HTTP/1.1\r\nHost: x\r\n\r\nGET /p3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  });
  let all = '';
  sock.setEncoding('latin1');
  sock.on('data', (d) => { all += d; });
  sock.on('end', () => {
    const bodies = all.split('\r\n\r\n').slice(1).map((s) => s.split('HTTP/1.1')[0]);
    seen.push('pipelined ' + bodies.join(','));
    console.log(seen.join('\n'));
    agent.destroy();
  });
}
one(0);
`

const nodeClientWant = `200 you asked /k0 reused=false
200 you asked /k1 reused=true
200 you asked /k2 reused=true
200 you asked /k3 reused=true
200 you asked /k4 reused=true
pipelined you asked /p1,you asked /p2,you asked /p3`

// TestNodeClient holds http1's server and nodehttp's to Node's http client: keep-alive
// (the agent's socket is reused) and pipelining (responses in order).
func TestNodeClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on $PATH: the keep-alive and pipelining test against Node's http client needs it")
	}
	script := filepath.Join(t.TempDir(), "client.js")
	if err := os.WriteFile(script, []byte(nodeClientScript), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		serve func(l *uvloop.Loop) (port int, stop func())
	}{
		{name: "http1", serve: func(l *uvloop.Loop) (int, func()) {
			srv := http1.NewServer(l, http1.HandlerFunc(func(w *http1.Response, r *http1.Request) {
				w.EndString("you asked " + string(r.Target))
			}))
			ap, err := srv.ListenTCP("127.0.0.1:0", 0)
			if err != nil {
				t.Fatal(err)
			}
			return int(ap.Port()), func() { srv.Close(nil) }
		}},
		{name: "nodehttp", serve: func(l *uvloop.Loop) (int, func()) {
			srv := nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
				res.EndString("you asked " + req.URL)
			})
			port := make(chan int, 1)
			srv.Listen(0, "127.0.0.1", func() { port <- srv.Address().Port })
			l.Run(uvloop.RunNoWait) // the listening tick
			return <-port, func() { srv.Close(nil); srv.CloseAllConnections() }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := uvloop.New()
			if err != nil {
				t.Fatal(err)
			}
			port, stop := tt.serve(l)
			var out []byte
			var cmdErr error
			done := make(chan struct{})
			go func() {
				out, cmdErr = exec.Command(node, script, strconv.Itoa(port)).CombinedOutput()
				l.Post(stop)
				close(done)
			}()
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Fatal(err)
			}
			<-done
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			if cmdErr != nil {
				t.Fatalf("node: %v\n%s", cmdErr, out)
			}
			if got := strings.TrimSpace(string(out)); got != nodeClientWant {
				t.Errorf("node's client saw:\n%s\nwant:\n%s", got, nodeClientWant)
			}
		})
	}
}
