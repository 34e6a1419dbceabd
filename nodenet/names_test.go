package nodenet

import (
	"errors"
	"testing"

	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/uvloop"
)

// Connect and Listen look host names up: "localhost" reaches a server on 127.0.0.1 after a
// "lookup" event; a name under .invalid fails with the lookup's ENOTFOUND, as "error" then
// "close" for a socket and "error" for a server.
func TestHostNames(t *testing.T) {
	var got []string
	run(t, func(l *uvloop.Loop) {
		srv := CreateServer(l, func(sock *Socket) { sock.End(nil) })
		srv.Listen(0, "localhost", func() {
			got = append(got, "listening "+srv.Address().Address)
			c := Connect(l, srv.Address().Port, "localhost", func() { got = append(got, "connect") })
			c.On("lookup", func(a ...any) { got = append(got, "lookup "+a[1].(string)) })
			c.OnEnd(func() { got = append(got, "end") })
			c.OnClose(func(bool) { srv.Close(nil) })
		})
		bad := Connect(l, 80, "nosuch.invalid", nil)
		bad.OnError(func(err error) {
			var e *nodedns.Error
			if !errors.As(err, &e) || e.Message != "getaddrinfo ENOTFOUND nosuch.invalid" || e.Hostname != "nosuch.invalid" {
				t.Errorf("connect error %v", err)
			}
			got = append(got, "connect error")
		})
		bad.OnClose(func(hadError bool) { got = append(got, "close") })
		badSrv := CreateServer(l, nil)
		badSrv.Listen(0, "nosuch.invalid", nil)
		badSrv.OnError(func(err error) {
			if !errors.Is(err, nodedns.ErrNotFound) {
				t.Errorf("listen error %v", err)
			}
			got = append(got, "listen error")
		})
	})
	want := map[string]bool{"listening 127.0.0.1": true, "lookup 127.0.0.1": true, "connect": true, "end": true, "connect error": true, "close": true, "listen error": true}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for _, g := range got {
		if !want[g] {
			t.Fatalf("got %q", got)
		}
	}
}
