package uvloop_test

import (
	"net/netip"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's argument-error tests that Go can express after all (entered before as not
// applicable), in our own words, each run in every mode: the zero netip.AddrPort stands for
// libuv's garbage socket address (no family it knows).

// tcp_bind_error_fault, tcp_bind6_error_fault, tcp_connect_error_fault,
// tcp_connect6_error_fault: Bind and Connect of an address of no family fail at once with
// EINVAL, the connect callback never runs, and the close callback runs once.
// tcp_bind_invalid_flags: Bind of an IPv4 address with TCPIPv6Only fails with EINVAL.
// pipe_bind_error_inval: a second Bind of a pipe fails with EINVAL.
func TestLibuvBindConnectFaultRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		closed := 0
		b, err := l.NewTCP()
		mustOK(t, err)
		wantErrno(t, "Bind of no address", b.Bind(netip.AddrPort{}, 0), syscall.EINVAL)
		closeHandle(t, b, &closed)

		c, err := l.NewTCP()
		mustOK(t, err)
		wantErrno(t, "Connect to no address", c.Connect(netip.AddrPort{}, func(error) { t.Error("a connect callback") }), syscall.EINVAL)
		closeHandle(t, c, &closed)

		f, err := l.NewTCP()
		mustOK(t, err)
		wantErrno(t, "Bind IPv4 with TCPIPv6Only", f.Bind(loopback, uvloop.TCPIPv6Only), syscall.EINVAL)
		closeHandle(t, f, &closed)

		p, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, p.Bind(pipePath(t)))
		wantErrno(t, "second pipe Bind", p.Bind(pipePath(t)), syscall.EINVAL)
		closeHandle(t, p, &closed)

		runLoop(t, l)
		if closed != 4 {
			t.Fatalf("close callbacks %d", closed)
		}
	})
}
