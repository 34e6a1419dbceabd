package nodenet

import (
	"errors"
	"strconv"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// A server listening without a host listens on "::" and sees an IPv4 peer as
// "::ffff:127.0.0.1", family IPv6, as Node does; the client sees plain IPv4. A second
// server on the same port fails with Node's EADDRINUSE for ":::PORT", without falling back
// to 0.0.0.0.
func TestDualStackAddresses(t *testing.T) {
	var got []string
	run(t, func(l *uvloop.Loop) {
		var srv *Server
		srv = CreateServer(l, func(c *Socket) {
			got = append(got, "server remote "+c.RemoteAddress()+" "+c.RemoteFamily()+" local "+c.Address().Address+" "+c.Address().Family)
			c.End(nil)
			c.Resume()
		})
		srv.Listen(0, "", func() {
			a := srv.Address()
			port := a.Port
			got = append(got, "listening "+a.Address+" "+a.Family)
			s2 := CreateServer(l, nil)
			s2.OnError(func(err error) {
				var ne *Error
				if !errors.As(err, &ne) || !errors.Is(err, syscall.EADDRINUSE) {
					t.Fatalf("error %#v", err)
				}
				if ne.Message != "listen EADDRINUSE: address already in use :::"+strconv.Itoa(port) {
					t.Errorf("message %q", ne.Message)
				}
				got = append(got, "error "+ne.Code+" "+ne.Syscall+" "+ne.Address+" "+strconv.Itoa(ne.Errno()))
				c := Connect(l, port, "127.0.0.1", nil)
				c.OnConnect(func() {
					got = append(got, "client remote "+c.RemoteAddress()+" "+c.RemoteFamily()+" local "+c.Address().Address)
				})
				c.OnClose(func(bool) { srv.Close(nil) })
				c.Resume()
			})
			s2.Listen(port, "", func() { t.Error("second server listening") })
		})
	})
	want := []string{
		"listening :: IPv6",
		"error EADDRINUSE listen :: -98",
		"server remote ::ffff:127.0.0.1 IPv6 local ::ffff:127.0.0.1 IPv6",
		"client remote 127.0.0.1 IPv4 local 127.0.0.1",
	}
	if syscall.EADDRINUSE != 98 {
		want[1] = "error EADDRINUSE listen :: " + strconv.Itoa(-int(syscall.EADDRINUSE))
	}
	if len(got) != len(want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for i := range 2 {
		if got[i] != want[i] {
			t.Errorf("got[%d] %q, want %q", i, got[i], want[i])
		}
	}
	// The server's connection and the client's connect race; compare as a set.
	if !(got[2] == want[2] && got[3] == want[3] || got[2] == want[3] && got[3] == want[2]) {
		t.Errorf("got %q\nwant %q", got[2:], want[2:])
	}
}

// A port out of range is Node's ERR_SOCKET_BAD_PORT.
func TestListenBadPort(t *testing.T) {
	run(t, func(l *uvloop.Loop) {
		s := CreateServer(l, nil)
		s.OnError(func(err error) {
			var ne *Error
			if !errors.As(err, &ne) || ne.Code != "ERR_SOCKET_BAD_PORT" {
				t.Errorf("error %v", err)
			}
		})
		s.Listen(70000, "", func() { t.Error("listening") })
	})
}
