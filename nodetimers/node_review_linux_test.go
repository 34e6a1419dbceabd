package nodetimers_test

import (
	"reflect"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/nodetimers"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The review's differential scenario for timers, ticks, microtasks and promise bodies
// between I/O callbacks: the same program on epoll and io_uring, with and without an OS
// thread of the loop's own, prints what node v20 prints for its JS twin (in the comment).

// In the client's "data" callback (poll phase) and in its write's callback (a nextTick): a
// nextTick, a microtask, setImmediate, setTimeout 0, the promise form of setImmediate, and an
// async body that awaits it and then a settled promise. node v20 prints the same lines, in
// every run, for:
//
//	const net = require('net'); const tp = require('timers/promises');
//	const log = (s) => console.log(s); let c;
//	function burst(tag) {
//	  process.nextTick(() => log(tag + ' tick'));
//	  queueMicrotask(() => log(tag + ' micro'));
//	  setImmediate(() => log(tag + ' immediate'));
//	  setTimeout(() => { log(tag + ' timeout'); if (tag === 'w') { log('destroy'); c.destroy(); } }, 0);
//	  tp.setImmediate(tag).then((v) => log(v + ' p-immediate'));
//	  (async () => { log(tag + ' async'); await tp.setImmediate(); log(tag + ' async after immediate');
//	    await null; log(tag + ' async after null'); })();
//	  log(tag + ' sync');
//	}
//	const srv = net.createServer((s) => { s.on('error', () => {}); s.on('data', () => {}); s.write('ping'); });
//	srv.listen(0, '127.0.0.1', () => {
//	  c = net.connect(srv.address().port, '127.0.0.1');
//	  c.on('data', () => { log('data'); burst('d'); c.write('x', () => { log('write cb'); burst('w'); }); });
//	  c.on('close', () => { log('close'); srv.close(); });
//	});
func TestReviewTicksBetweenIO(t *testing.T) {
	for _, m := range looptest.Modes {
		l, ok := m.New(t)
		if !ok {
			continue
		}
		var got []string
		log := func(s string) { got = append(got, s) }
		var c *nodenet.Socket
		burst := func(tag string) {
			l.NextTick(func() { log(tag + " tick") })
			l.QueueMicrotask(func() { log(tag + " micro") })
			l.SetImmediate(func() { log(tag + " immediate") })
			l.SetTimeout(func() {
				log(tag + " timeout")
				if tag == "w" {
					log("destroy")
					c.Destroy(nil)
				}
			}, 0)
			promise.Then(nodetimers.SetImmediate(l, tag, nil), func(v string) (any, error) { log(v + " p-immediate"); return nil, nil }, nil)
			promise.Async(l, func() (any, error) {
				log(tag + " async")
				promise.Await(nodetimers.SetImmediate(l, 0, nil))
				log(tag + " async after immediate")
				promise.Await(promise.Resolve(l, 0))
				log(tag + " async after null")
				return nil, nil
			})
			log(tag + " sync")
		}
		srv := nodenet.CreateServer(l, func(s *nodenet.Socket) {
			s.OnError(func(error) {})
			s.OnData(func([]byte) {})
			s.WriteString("ping", nil)
		})
		srv.Listen(0, "127.0.0.1", func() {
			c = nodenet.Connect(l, srv.Address().Port, "127.0.0.1", nil)
			c.OnData(func([]byte) {
				log("data")
				burst("d")
				c.WriteString("x", func(error) { log("write cb"); burst("w") })
			})
			c.OnClose(func(bool) { log("close"); srv.Close(nil) })
		})
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Errorf("%s: Run: %v", m.Name, err)
		}
		if err := l.Close(); err != nil {
			t.Errorf("%s: Close: %v", m.Name, err)
		}
		want := reviewTicksWant
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", m.Name, got, want)
		}
	}
}

var reviewTicksWant = []string{
	"data", "d async", "d sync", "d tick", "write cb", "w async", "w sync", "w tick", "d micro", "w micro",
	"d immediate", "d p-immediate", "d async after immediate", "d async after null",
	"w immediate", "w p-immediate", "w async after immediate", "w async after null",
	"d timeout", "w timeout", "destroy", "close",
}
