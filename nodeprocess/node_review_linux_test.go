package nodeprocess_test

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// A Node-style program under Run on epoll and io_uring, with and without an OS thread of
// the loop's own (set the way an operator sets them: UVGO_BACKEND, UVGO_OWN_THREAD): three
// clients of an echo server, one of whose "data" callbacks writes and then throws; the
// 'uncaughtException' listener catches it; the write made before the throw and every other
// client's echo still arrive; an async body awaits a write's callback; 'beforeExit' starts
// one more round trip; 'exit' sees the exit code. The log is the same in every mode (the
// three clients' lines sorted: their sockets' order in a poll phase is the kernel's).
func TestReviewProcessUnderModes(t *testing.T) {
	want := []string{
		"caught boom",
		"client 0 data echo 0", "client 1 data echo 1", "client 2 data echo 2",
		"async wrote <nil>",
		"server got bye", "server got bye",
		"beforeExit 0",
		"late data echo late",
		"beforeExit 3",
		"exit 3",
	}
	for _, m := range [][2]string{{"epoll", "0"}, {"io_uring", "0"}, {"epoll", "1"}, {"io_uring", "1"}} {
		t.Run(m[0]+"/own="+m[1], func(t *testing.T) {
			t.Setenv(uvloop.BackendEnv, m[0])
			t.Setenv(uvloop.OwnThreadEnv, m[1])
			var got, clients []string
			log := func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
			status, err := nodeprocess.Run(func(p *nodeprocess.Process) {
				l := p.Loop()
				p.On("uncaughtException", func(a ...any) { log("caught %v", a[0]) })
				var srv *nodenet.Server
				srv = nodenet.CreateServer(l, func(s *nodenet.Socket) {
					s.OnError(func(error) {})
					s.OnDataString(func(d string) {
						if d == "bye" {
							log("server got bye")
							return
						}
						s.WriteString("echo "+d, nil)
					})
				})
				open := 3
				srv.Listen(0, "127.0.0.1", func() {
					for i := 0; i < 3; i++ {
						c := nodenet.Connect(l, srv.Address().Port, "127.0.0.1", nil)
						c.WriteString(fmt.Sprint(i), nil)
						c.OnDataString(func(d string) {
							clients = append(clients, fmt.Sprintf("client %d data %s", i, d))
							if i == 0 {
								c.WriteString("bye", nil)
								l.SetImmediate(func() { c.Destroy(nil) })
								panic("boom")
							}
							if i == 1 {
								promise.Async(l, func() (any, error) {
									_, err := promise.Await(promise.PromisifyErr(l, func(cb func(error)) { c.WriteString("bye", cb) }))
									log("async wrote %v", err)
									c.Destroy(nil)
									return nil, nil
								})
								return
							}
							c.Destroy(nil)
						})
						c.OnClose(func(bool) {
							if open--; open == 0 {
								l.SetTimeout(func() { srv.Close(nil) }, 10*time.Millisecond)
							}
						})
					}
				})
				rounds := 0
				p.On("beforeExit", func(a ...any) {
					log("beforeExit %v", a[0])
					if rounds++; rounds > 1 {
						return
					}
					srv2 := nodenet.CreateServer(l, func(s *nodenet.Socket) { s.End([]byte("echo late")) })
					srv2.Listen(0, "127.0.0.1", func() {
						c := nodenet.Connect(l, srv2.Address().Port, "127.0.0.1", nil)
						c.OnDataString(func(d string) { log("late data %s", d); p.SetExitCode(3) })
						c.OnClose(func(bool) { srv2.Close(nil) })
					})
				})
				p.On("exit", func(a ...any) { log("exit %v", a[0]) })
			}, nodeprocess.WithStderr(io.Discard))
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(clients)
			got = append(got[:1:1], append(clients, got[1:]...)...)
			if status != 3 || !reflect.DeepEqual(got, want) {
				t.Errorf("status %d\n got %q\nwant %q", status, got, want)
			}
		})
	}
}
