package nodenet

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Misuse fails at once with Node's codes; a port in use is a bind 'error'.
func TestDgramErrors(t *testing.T) {
	if _, err := CreateDgramSocket(nil, "udp5", nil); !errors.Is(err, ErrBadSocketType) {
		t.Errorf("bad type: %v", err)
	}
	var got []string
	run(t, func(l *uvloop.Loop) {
		a, _ := CreateDgramSocket(l, "udp4", nil)
		if _, err := a.Address(); err == nil || !strings.Contains(err.Error(), "getsockname") {
			t.Errorf("Address before bind: %v", err)
		}
		if err := a.Disconnect(); !errors.Is(err, ErrDgramNotConnected) {
			t.Errorf("Disconnect: %v", err)
		}
		a.Bind(0, "127.0.0.1", func() {
			port, _ := a.Address()
			b, _ := CreateDgramSocket(l, "udp4", nil)
			b.OnError(func(err error) {
				var ne *Error
				if !errors.As(err, &ne) || !errors.Is(err, syscall.EADDRINUSE) || ne.Syscall != "bind" || ne.Address != "127.0.0.1" {
					t.Errorf("bind error %#v", err)
				}
				got = append(got, ne.Message[:len("bind EADDRINUSE 127.0.0.1")])
				b.Close(nil)
				if err := b.Close(nil); !errors.Is(err, ErrDgramNotRunning) {
					t.Errorf("second Close: %v", err)
				}
				if err := b.Send([]byte("x"), 1, "", nil); !errors.Is(err, ErrDgramNotRunning) {
					t.Errorf("Send after Close: %v", err)
				}
				a.Close(nil)
			})
			b.Bind(port.Port, "127.0.0.1", nil)
		})
		if err := a.Bind(0, "", nil); !errors.Is(err, ErrSocketAlreadyBound) {
			t.Errorf("second Bind: %v", err)
		}
	})
	if len(got) != 1 || got[0] != "bind EADDRINUSE 127.0.0.1" {
		t.Errorf("got %q", got)
	}
}

// A udp6 socket bound to '::' sees an IPv4 sender as '::ffff:127.0.0.1'; options apply once
// bound; multicast membership on the loopback group works or reports the system's error.
func TestDgramUDP6AndOptions(t *testing.T) {
	var got []string
	run(t, func(l *uvloop.Loop) {
		s6, _ := CreateDgramSocket(l, "udp6", func(msg []byte, r RemoteInfo) {
			got = append(got, string(msg)+" "+r.Address+" "+r.Family)
		})
		s6.Bind(0, "", func() {
			for name, err := range map[string]error{
				"broadcast":  s6.SetBroadcast(true),
				"ttl":        s6.SetTTL(64),
				"mcast ttl":  s6.SetMulticastTTL(2),
				"mcast loop": s6.SetMulticastLoopback(true),
				"bad interface": func() error {
					if err := s6.SetMulticastInterface("nope"); err == nil {
						return errors.New("no error")
					}
					return nil
				}(),
			} {
				if err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
			a, _ := s6.Address()
			c, _ := CreateDgramSocket(l, "udp4", nil)
			c.SendString("hello", a.Port, "127.0.0.1", func(err error, n int) {
				if err != nil || n != 5 {
					t.Errorf("send: %v %d", err, n)
				}
				c.Close(nil)
			})
			s6.OnMessage(func([]byte, RemoteInfo) { s6.Close(nil) })
		})
	})
	if len(got) != 1 || got[0] != "hello ::ffff:127.0.0.1 IPv6" {
		t.Errorf("got %q", got)
	}
}

// An unref'd socket does not keep the loop alive.
func TestDgramUnref(t *testing.T) {
	run(t, func(l *uvloop.Loop) {
		s, _ := CreateDgramSocket(l, "udp4", func([]byte, RemoteInfo) { t.Error("message") })
		s.Bind(0, "127.0.0.1", nil)
		s.Unref()
	})
}
