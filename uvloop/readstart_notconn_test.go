package uvloop_test

import (
	"errors"
	"net"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/uvloop"
)

// TestReadStartAfterReadError: after a read error (the peer reset the connection) the stream
// is no longer readable, and ReadStart fails with ENOTCONN, as uv_read_start does; after EOF
// it reads again and gets EOF again (libuv 1.46). Before, ReadStart after the reset read on
// and called back with EOF. A TCP handle that never connected refuses it too.
func TestReadStartAfterReadError(t *testing.T) {
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			l, ok := m.New(t)
			if !ok {
				t.Skipf("%s is not available here", m.Name)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			mustOK(t, err)
			defer ln.Close()
			c, err := l.NewTCP()
			mustOK(t, err)
			connected := false
			mustOK(t, c.Connect(ln.Addr().(*net.TCPAddr).AddrPort(), func(err error) { mustOK(t, err); connected = true }))
			p, err := ln.Accept()
			mustOK(t, err)
			runUntil(t, l, "connected", func() bool { return connected })
			p.(*net.TCPConn).SetLinger(0)
			p.Close() // a reset
			var got []error
			mustOK(t, c.ReadStart(func(b []byte, err error) {
				if err != nil {
					got = append(got, err)
				}
			}))
			runUntil(t, l, "the read error", func() bool { return len(got) > 0 })
			if !errors.Is(got[0], syscall.ECONNRESET) {
				t.Fatalf("read: %v, want ECONNRESET", got[0])
			}
			if c.IsReadable() {
				t.Error("IsReadable after a read error")
			}
			if err := c.ReadStart(func([]byte, error) { t.Error("a read callback after ReadStart failed") }); !errors.Is(err, syscall.ENOTCONN) {
				t.Errorf("ReadStart after a read error: %v, want ENOTCONN", err)
			}
			runNoWaitN(t, l, 3)

			fresh, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, fresh.Bind(loopback, 0))
			if err := fresh.ReadStart(func([]byte, error) {}); !errors.Is(err, syscall.ENOTCONN) {
				t.Errorf("ReadStart on a bound, unconnected handle: %v, want ENOTCONN", err)
			}
			fresh.Close(nil)
			c.Close(nil)
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Fatal(err)
			}
			mustOK(t, l.Close())
		})
	}
}
