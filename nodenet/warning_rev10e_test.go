package nodenet_test

import (
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// The leak warning names the emitter by its class, as util.inspect does: "[Server]" and
// "[Socket]" for net's, where uvgo said "[EventEmitter]" for every emitter.
const warningJS = `
const net = require('net');
const ws = [];
process.on('warning', (w) => ws.push(w.message));
const srv = net.createServer(); srv.setMaxListeners(1); srv.on('x', () => {}); srv.on('x', () => {});
srv.listen(0, '127.0.0.1', () => {
  const c = net.connect(srv.address().port, '127.0.0.1', () => {
    c.setMaxListeners(1); c.on('y', () => {}); c.on('y', () => {});
    c.destroy(); srv.close(() => ws.forEach((w) => console.log(w)));
  });
});
`

func TestRev10eWarningClassName(t *testing.T) {
	want := looptest.NodeLines(t, warningJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		var ws []string
		restore := nodeevents.SetWarningHandler(func(w error) { ws = append(ws, w.Error()) })
		srv := nodenet.CreateServer(l, nil)
		srv.SetMaxListeners(1)
		srv.On("x", func(...any) {})
		srv.On("x", func(...any) {})
		srv.Listen(0, "127.0.0.1", func() {
			var c *nodenet.Socket
			c = nodenet.Connect(l, srv.Address().Port, "127.0.0.1", func() {
				c.SetMaxListeners(1)
				c.On("y", func(...any) {})
				c.On("y", func(...any) {})
				restore()
				c.Destroy(nil)
				srv.Close(func(error) {
					for _, w := range ws {
						log(w)
					}
				})
			})
		})
	})
}
