package nodehttp_test

// nodehttp's Agent against node v20's http.Agent: sockets handed out, queued, kept, reused
// and dropped, with a raw server that numbers its connections and the requests on each.

import (
	"bufio"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/uvloop"
)

// numberingServer answers each request with "c<connection>r<request>"; a request for a
// path with "close" gets Connection: close and the connection ends after the answer, one
// for "drop" is not answered: the connection is reset.
func numberingServer(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var conns atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			id := conns.Add(1)
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for n := 1; ; n++ {
					c.SetDeadline(time.Now().Add(20 * time.Second)) // a deadlock guard
					line, err := br.ReadString('\n')
					if err != nil {
						return
					}
					for {
						l, err := br.ReadString('\n')
						if err != nil {
							return
						}
						if l == "\r\n" {
							break
						}
					}
					if strings.Contains(line, "drop") {
						c.(*net.TCPConn).SetLinger(0)
						return
					}
					body := "c" + strconv.Itoa(int(id)) + "r" + strconv.Itoa(n)
					hdr := ""
					if strings.Contains(line, "close") {
						hdr = "Connection: close\r\n"
					}
					c.Write([]byte("HTTP/1.1 200 OK\r\n" + hdr + "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body))
					if hdr != "" {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

// agentJS: four requests at once on an agent of one socket, kept alive; then one whose
// answer closes the connection; then two more, the first of which the server drops (reset)
// on a reused socket; the log has each request's socket, reuse, body, error and close, and
// the agent's counts between the steps.
const agentJS = `
const http = require('http');
const port = +process.argv[2];
const agent = new http.Agent({keepAlive: true, maxSockets: 1});
const log = (s) => console.log(s);
const counts = (tag) => {
  const n = (o) => Object.values(o).reduce((a, l) => a + l.length, 0);
  log(tag + ' sockets=' + n(agent.sockets) + ' free=' + n(agent.freeSockets) + ' queued=' + n(agent.requests));
};
function get(path, done) {
  const req = http.request({port, host: '127.0.0.1', path, agent}, (res) => {
    let b = '';
    res.on('data', (d) => b += d);
    res.on('end', () => log(path + ' body ' + b + ' reused=' + req.reusedSocket));
  });
  req.on('socket', () => log(path + ' socket'));
  req.on('error', (e) => log(path + ' error ' + e.code + ' ' + e.message + ' reused=' + req.reusedSocket));
  req.on('close', () => { log(path + ' close'); if (done) done(); });
  req.end();
}
let left = 4;
const step1 = () => { if (--left > 0) return; setTimeout(() => { counts('after four'); get('/close', () => setTimeout(step2, 20)); }, 20); };
['/a', '/b', '/c', '/d'].forEach((p) => get(p, step1));
counts('queued four');
function step2() {
  counts('after close');
  get('/e', () => setTimeout(() => { get('/drop', () => setTimeout(() => { counts('after drop'); agent.destroy(); }, 20)); }, 20));
}
`

func TestAgentRev10c(t *testing.T) {
	port := numberingServer(t)
	want := strings.Join(nodeClient(t, agentJS, strconv.Itoa(port)), "\n")
	for _, m := range looptest.Modes {
		l, ok := m.New(t)
		if !ok {
			continue
		}
		port := numberingServer(t)
		var lines []string
		log := func(s string) { lines = append(lines, s) }
		agent := nodehttp.NewAgent(l, nodehttp.AgentOptions{KeepAlive: true, MaxSockets: 1})
		counts := func(tag string) {
			log(tag + " sockets=" + strconv.Itoa(agent.Sockets("127.0.0.1", port)) + " free=" +
				strconv.Itoa(agent.FreeSockets("127.0.0.1", port)) + " queued=" + strconv.Itoa(agent.Requests("127.0.0.1", port)))
		}
		get := func(path string, done func()) {
			var req *nodehttp.ClientRequest
			req = nodehttp.Request(l, nodehttp.RequestOptions{Port: port, Host: "127.0.0.1", Path: path, Agent: agent}, func(res *nodehttp.IncomingMessage) {
				var b []byte
				res.OnData(func(d []byte) { b = append(b, d...) })
				res.OnEnd(func() { log(path + " body " + string(b) + " reused=" + strconv.FormatBool(req.ReusedSocket())) })
			})
			req.On("socket", func(...any) { log(path + " socket") })
			req.OnError(func(err error) {
				log(path + " error " + errCodeMsg(err) + " reused=" + strconv.FormatBool(req.ReusedSocket()))
			})
			req.OnClose(func() {
				log(path + " close")
				if done != nil {
					done()
				}
			})
			req.End(nil)
		}
		after := func(f func()) { l.SetTimeout(f, 20*time.Millisecond) }
		left := 4
		step2 := func() {
			counts("after close")
			get("/e", func() {
				after(func() {
					get("/drop", func() { after(func() { counts("after drop"); agent.Destroy() }) })
				})
			})
		}
		step1 := func() {
			if left--; left > 0 {
				return
			}
			after(func() {
				counts("after four")
				get("/close", func() { after(step2) })
			})
		}
		for _, p := range []string{"/a", "/b", "/c", "/d"} {
			get(p, step1)
		}
		counts("queued four")
		dog := l.SetTimeout(func() { t.Errorf("%s: watchdog: the loop is still alive after 20 s", m.Name); l.Stop() }, 20*time.Second)
		dog.Unref()
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Fatal(err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(lines, "\n"); got != want {
			t.Errorf("%s:\n got:\n%s\nwant (node):\n%s", m.Name, got, want)
		}
	}
}
