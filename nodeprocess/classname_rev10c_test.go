package nodeprocess_test

import (
	"regexp"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/uvloop"
)

// classJS: the leak warning of each kind of emitter the porting layer makes names it by its
// class, as util.inspect does ([process], [ReadStream], [ChildProcess], [Server],
// [IncomingMessage], [ServerResponse], [ClientRequest]); uvgo said [EventEmitter] for all
// but nodenet's.
const classJS = `
const http = require('http'), fs = require('fs'), cp = require('child_process');
const ws = [];
process.on('warning', (w) => ws.push(w.message.match(/\[.*?\]/)[0]));
const f = () => {};
const add = (e) => { e.setMaxListeners(1); e.on('x', f); e.on('x', f); e.setMaxListeners(10); };
add(process);
const rs = fs.createReadStream('/dev/null'); add(rs); rs.destroy();
const wr = fs.createWriteStream('/dev/null'); add(wr); wr.destroy();
const c = cp.spawn('true'); add(c);
c.on('close', () => {
  const srv = http.createServer((req, res) => { add(req); add(res); res.end('ok'); });
  add(srv);
  srv.listen(0, '127.0.0.1', () => {
    const req = http.request({port: srv.address().port, host: '127.0.0.1', agent: false}, (res) => {
      add(res);
      res.resume();
      res.on('end', () => srv.close(() => setImmediate(() => ws.forEach((w) => console.log(w)))));
    });
    add(req);
    req.end();
  });
});
`

var bracket = regexp.MustCompile(`\[.*?\]`)

func TestEmitterClassNamesRev10c(t *testing.T) {
	want := looptest.NodeLines(t, classJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		var ws []string
		restore := nodeevents.SetWarningHandler(func(w error) { ws = append(ws, bracket.FindString(w.Error())) })
		f := func(...any) {}
		add := func(e interface {
			SetMaxListeners(int)
			On(string, func(...any)) *nodeevents.Listener
		}) {
			e.SetMaxListeners(1)
			e.On("x", f)
			e.On("x", f)
			e.SetMaxListeners(10) // (so that the emitters' own events do not warn)
		}
		add(nodeprocess.New(l))
		fs := nodefs.New(l)
		rs, err := fs.CreateReadStream("/dev/null", nil)
		if err != nil {
			t.Fatal(err)
		}
		add(rs)
		rs.Destroy(nil)
		wr, err := fs.CreateWriteStream("/dev/null", nil)
		if err != nil {
			t.Fatal(err)
		}
		add(wr)
		wr.Destroy(nil)
		c, err := nodechild.Spawn(l, "true", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		add(c)
		c.OnClose(func(*int, string) {
			var srv *nodehttp.Server
			srv = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
				add(req)
				add(res)
				res.EndString("ok")
			})
			add(srv)
			srv.Listen(0, "127.0.0.1", func() {
				req := nodehttp.Request(l, nodehttp.RequestOptions{Port: srv.Address().Port, Host: "127.0.0.1", NoAgent: true}, func(res *nodehttp.IncomingMessage) {
					add(res)
					res.Resume()
					res.OnEnd(func() {
						srv.Close(func(error) {
							l.SetImmediate(func() {
								restore()
								for _, w := range ws {
									log(w)
								}
							})
						})
					})
				})
				add(req)
				req.End(nil)
			})
		})
	})
}
