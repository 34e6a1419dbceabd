package nodehttp_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/uvloop"
)

func abortText(err error) string {
	var ae *nodeevents.AbortError
	if !errors.As(err, &ae) {
		return fmt.Sprintf("not an AbortError: %v", err)
	}
	return ae.WarningName() + " " + ae.Code() + " " + ae.Error() + " / " + ae.Cause.Error()
}

// http.get's signal option, in node v20's order: a signal aborted already destroys the
// request inside get ("error" with the AbortError, then "close"); one aborted while the
// server holds the request does the same from Abort.
func TestAbortRequest(t *testing.T) {
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	out := func(s string) { log = append(log, s) }
	ac := nodeevents.NewAbortController()
	var server *nodehttp.Server
	server = nodehttp.CreateServer(l, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		out("server got " + req.URL)
		ac.Abort(errors.New("enough"))
		out("after abort")
	})
	server.Listen(0, "127.0.0.1", func() {
		port := server.Address().Port
		r1 := nodehttp.Get(l, nodehttp.RequestOptions{Port: port, Path: "/pre", Signal: nodeevents.AbortSignalAbort()},
			func(*nodehttp.IncomingMessage) { out("r1 response") })
		r1.OnError(func(err error) { out(fmt.Sprint("r1 error ", abortText(err), " ", r1.Destroyed())) })
		r1.OnClose(func() { out("r1 close") })
		out(fmt.Sprint("r1 destroyed ", r1.Destroyed()))
		r2 := nodehttp.Get(l, nodehttp.RequestOptions{Port: port, Path: "/mid", Signal: ac.Signal()},
			func(*nodehttp.IncomingMessage) { out("r2 response") })
		r2.OnError(func(err error) { out("r2 error " + abortText(err)) })
		r2.OnClose(func() {
			out("r2 close")
			server.Close(nil)
			server.CloseAllConnections()
		})
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	l.Walk(func(h uvloop.Handle) { h.Close(nil) })
	l.Run(uvloop.RunDefault)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"r1 destroyed true",
		"r1 error AbortError ABORT_ERR The operation was aborted / This operation was aborted true",
		"r1 close",
		"server got /mid",
		"after abort",
		"r2 error AbortError ABORT_ERR The operation was aborted / enough",
		"r2 close",
	}
	if strings.Join(log, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}
	if n := ac.Signal().ListenerCount("abort"); n != 0 {
		t.Errorf("%d abort listeners left", n)
	}
}
