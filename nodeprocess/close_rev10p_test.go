package nodeprocess_test

import (
	"errors"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/nodeprocess"
)

const closeThrowsJS = `
const net = require('net');
const log = (...a) => console.log(a.join(' '));
process.on('uncaughtException', (e, o) => log('caught', e.message));
const srv = net.createServer(s => s.on('error', () => {}));
srv.listen(0, '127.0.0.1', () => {
  const a = net.connect(srv.address().port, '127.0.0.1');
  const b = net.connect(srv.address().port, '127.0.0.1');
  let n = 0;
  const go = () => { if (++n < 2) return;
    a.on('close', () => { log('close a'); srv.close(); });
    b.on('close', () => { log('close b'); throw new Error('b'); });
    setTimeout(() => log('timeout'), 1);
    const end = Date.now() + 5; while (Date.now() < end);
    a.destroy(); b.destroy();
  };
  a.on('connect', go); b.on('connect', go);
});
`

// TestRev10pCloseThrows pins a socket's 'close' listener (a close callback) that throws while
// another socket's close callback waits in the same close phase and a timeout is due: node
// runs the rest of the close phase before the timeout, in every mode.
func TestRev10pCloseThrows(t *testing.T) {
	want := append(looptest.NodeLines(t, closeThrowsJS), "status 0")
	processScenario(t, want, func(p *nodeprocess.Process, log func(...any)) {
		l := p.Loop()
		p.OnUncaughtException(func(e any, origin string) { log("caught", message(e)) })
		srv := nodenet.CreateServer(l, func(s *nodenet.Socket) { s.OnError(func(error) {}) })
		srv.Listen(0, "127.0.0.1", func() {
			a := nodenet.Connect(l, srv.Address().Port, "127.0.0.1", nil)
			b := nodenet.Connect(l, srv.Address().Port, "127.0.0.1", nil)
			n := 0
			goOn := func() {
				if n++; n < 2 {
					return
				}
				a.OnClose(func(bool) { log("close a"); srv.Close(nil) })
				b.OnClose(func(bool) { log("close b"); panic(errors.New("b")) })
				l.SetTimeout(func() { log("timeout") }, time.Millisecond)
				spin()
				a.Destroy(nil)
				b.Destroy(nil)
			}
			a.OnConnect(goOn)
			b.OnConnect(goOn)
		})
	})
}
