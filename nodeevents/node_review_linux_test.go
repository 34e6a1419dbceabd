package nodeevents_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// A server and a client written with events.on and events.once in async bodies (for await
// over a socket's "data", await once(socket, 'connect')), on epoll and io_uring, with and
// without an OS thread of the loop's own (where the bodies are coroutines): the same log.
func TestReviewAsyncEventsOverSockets(t *testing.T) {
	want := []string{
		"client connected", "server got a", "client got A", "server got bb", "client got BB",
		"server got quit", "server loop done", "client end", "client close", "server close",
	}
	for _, m := range looptest.Modes {
		l, ok := m.New(t)
		if !ok {
			continue
		}
		var got []string
		log := func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
		var srv *nodenet.Server
		srv = nodenet.CreateServer(l, func(sock *nodenet.Socket) {
			sock.SetEncoding("utf8")
			promise.Async(l, func() (any, error) {
				for args, err := range nodeevents.On(l, sock, "data", &nodeevents.Options{Close: []string{"end"}}).All() {
					if err != nil {
						log("server error %v", err)
						break
					}
					d := args[0].(string)
					log("server got %s", d)
					if d == "quit" {
						break
					}
					sock.WriteString(strings.ToUpper(d), nil)
				}
				log("server loop done")
				sock.End(nil)
				promise.Await(nodeevents.Once(l, sock, "close", nil))
				log("server close")
				srv.Close(nil)
				return nil, nil
			})
		})
		srv.Listen(0, "127.0.0.1", func() {
			promise.Async(l, func() (any, error) {
				c := nodenet.Connect(l, srv.Address().Port, "127.0.0.1", nil)
				c.SetEncoding("utf8")
				if _, err := promise.Await(nodeevents.Once(l, c, "connect", nil)); err != nil {
					return nil, err
				}
				log("client connected")
				for _, msg := range []string{"a", "bb"} {
					data := nodeevents.Once(l, c, "data", nil)
					c.WriteString(msg, nil)
					args, err := promise.Await(data)
					if err != nil {
						return nil, err
					}
					log("client got %s", args[0])
				}
				end := nodeevents.Once(l, c, "end", nil)
				c.WriteString("quit", nil)
				promise.Await(end)
				log("client end")
				promise.Await(nodeevents.Once(l, c, "close", nil))
				log("client close")
				return nil, nil
			})
		})
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Errorf("%s: Run: %v", m.Name, err)
		}
		if err := l.Close(); err != nil {
			t.Errorf("%s: Close: %v", m.Name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", m.Name, got, want)
		}
	}
}
