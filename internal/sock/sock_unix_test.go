//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sock

import (
	"bytes"
	"net"
	"net/netip"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// newFd returns fd, closed when the test ends.
func newFd(t testing.TB, fd int, err error) int {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { Close(fd) })
	return fd
}

// keep is newFd for a call's two results: keep(t)(Socket(IPv4, Stream)).
func keep(t testing.TB) func(int, error) int {
	return func(fd int, err error) int {
		t.Helper()
		return newFd(t, fd, err)
	}
}

// checkFlags fails unless fd is non-blocking and close-on-exec.
func checkFlags(t *testing.T, fd int) {
	t.Helper()
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fl&unix.O_NONBLOCK == 0 {
		t.Error("fd is blocking")
	}
	fdfl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fdfl&unix.FD_CLOEXEC == 0 {
		t.Error("fd is not close-on-exec")
	}
}

// pair returns a connected, non-blocking Unix stream socket pair, closed when the test ends.
func pair(t testing.TB) (int, int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		newFd(t, fd, SetNonblock(fd))
	}
	return fds[0], fds[1]
}

func TestSocketFlags(t *testing.T) {
	tests := []struct {
		name         string
		family, typ  int
		skipUnlessV6 bool
	}{
		{name: "tcp4", family: IPv4, typ: Stream},
		{name: "udp4", family: IPv4, typ: Datagram},
		{name: "tcp6", family: IPv6, typ: Stream, skipUnlessV6: true},
		{name: "unix", family: Unix, typ: Stream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fd, err := Socket(tt.family, tt.typ)
			if err == syscall.EAFNOSUPPORT && tt.skipUnlessV6 {
				t.Skip("no IPv6")
			}
			fd = newFd(t, fd, err)
			checkFlags(t, fd)
		})
	}
}

// listener returns a listening TCP socket on 127.0.0.1 and its address.
func listener(t *testing.T) (int, netip.AddrPort) {
	t.Helper()
	ln := keep(t)(Socket(IPv4, Stream))
	if err := SetReuseAddr(ln); err != nil {
		t.Fatal(err)
	}
	if err := Bind(ln, netip.MustParseAddrPort("127.0.0.1:0"), 0); err != nil {
		t.Fatal(err)
	}
	if err := Listen(ln, 8); err != nil {
		t.Fatal(err)
	}
	addr, scope, err := Sockname(ln)
	if err != nil || scope != 0 || addr.Addr() != netip.MustParseAddr("127.0.0.1") || addr.Port() == 0 {
		t.Fatalf("Sockname = %v, %d, %v", addr, scope, err)
	}
	return ln, addr
}

// TestTCP connects and accepts through the shims and checks what they report on the way:
// bare errnos, the new socket's flags, both ends' addresses and the pending error.
func TestTCP(t *testing.T) {
	ln, addr := listener(t)
	if _, err := Accept(ln); err != syscall.EAGAIN {
		t.Fatalf("Accept with nothing queued: %v, want bare EAGAIN", err)
	}
	c := keep(t)(Socket(IPv4, Stream))
	if err := Connect(c, addr, 0); err != nil && err != syscall.EINPROGRESS {
		t.Fatalf("Connect: %v", err)
	}
	pfd := []unix.PollFd{{Fd: int32(ln), Events: unix.POLLIN}}
	if _, err := unix.Poll(pfd, 5000); err != nil {
		t.Fatal(err)
	}
	s := keep(t)(Accept(ln))
	checkFlags(t, s)
	if errno, err := SocketError(c); err != nil || errno != 0 {
		t.Errorf("SocketError = %v, %v; want 0, nil", errno, err)
	}
	peer, _, err := Peername(c)
	if err != nil || peer != addr {
		t.Errorf("Peername = %v, %v; want %v", peer, err, addr)
	}
	local, _, err := Sockname(c)
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := Peername(s); err != nil || got != local {
		t.Errorf("accepted Peername = %v, %v; want %v", got, err, local)
	}

	for _, set := range []func(int) error{
		func(fd int) error { return SetNoDelay(fd, true) },
		func(fd int) error { return SetKeepAlive(fd, 5) },
		func(fd int) error { return SetKeepAlive(fd, 0) },
		SetLingerZero,
	} {
		if err := set(c); err != nil {
			t.Errorf("option: %v", err)
		}
	}
	if v, _ := unix.GetsockoptInt(c, unix.IPPROTO_TCP, unix.TCP_NODELAY); v == 0 {
		t.Error("TCP_NODELAY not set")
	}
	if v, _ := unix.GetsockoptInt(c, unix.SOL_SOCKET, unix.SO_KEEPALIVE); v != 0 {
		t.Error("SO_KEEPALIVE still set after SetKeepAlive(fd, 0)")
	}
	if err := ShutdownWrite(c); err != nil {
		t.Errorf("ShutdownWrite: %v", err)
	}
}

func TestConnectRefused(t *testing.T) {
	// A port bound but not listening refuses connections.
	bound := keep(t)(Socket(IPv4, Stream))
	if err := Bind(bound, netip.MustParseAddrPort("127.0.0.1:0"), 0); err != nil {
		t.Fatal(err)
	}
	addr, _, err := Sockname(bound)
	if err != nil {
		t.Fatal(err)
	}
	c := keep(t)(Socket(IPv4, Stream))
	err = Connect(c, addr, 0)
	if err == syscall.EINPROGRESS {
		pfd := []unix.PollFd{{Fd: int32(c), Events: unix.POLLOUT}}
		if _, perr := unix.Poll(pfd, 5000); perr != nil {
			t.Fatal(perr)
		}
		var errno syscall.Errno
		errno, err = SocketError(c)
		if err == nil {
			err = errno
		}
	}
	if err != syscall.ECONNREFUSED {
		t.Errorf("connect to a closed port: %v, want bare ECONNREFUSED", err)
	}
	if got := ErrnoName(syscall.ECONNREFUSED); got != "ECONNREFUSED" {
		t.Errorf("ErrnoName(ECONNREFUSED) = %q", got)
	}
}

func TestBindErrors(t *testing.T) {
	fd := keep(t)(Socket(IPv4, Stream))
	if err := Bind(fd, netip.AddrPort{}, 0); err != syscall.EAFNOSUPPORT {
		t.Errorf("Bind of the zero AddrPort: %v, want EAFNOSUPPORT", err)
	}
	if err := Connect(fd, netip.AddrPort{}, 0); err != syscall.EAFNOSUPPORT {
		t.Errorf("Connect to the zero AddrPort: %v, want EAFNOSUPPORT", err)
	}
	if err := BindUnix(fd, ""); err != syscall.EINVAL {
		t.Errorf("BindUnix(\"\"): %v, want EINVAL", err)
	}
	if err := ConnectUnix(fd, string(make([]byte, UnixPathMax))); err != syscall.EINVAL {
		t.Errorf("ConnectUnix(too long): %v, want EINVAL", err)
	}
}

func TestReadWrite(t *testing.T) {
	a, b := pair(t)
	buf := make([]byte, 64)
	if n, err := Read(a, buf); n != 0 || err != syscall.EAGAIN {
		t.Fatalf("Read of an empty socket = %d, %v; want 0, bare EAGAIN", n, err)
	}
	if n, err := Read(a, nil); n != 0 || err != nil {
		t.Errorf("Read into nothing = %d, %v", n, err)
	}
	if n, err := Write(b, []byte("hello")); n != 5 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	var iov IOVecs
	bufs := [][]byte{[]byte(", "), nil, []byte("world")}
	if n, err := Writev(b, bufs, &iov); n != 7 || err != nil {
		t.Fatalf("Writev = %d, %v", n, err)
	}
	if n, err := Writev(b, nil, &iov); n != 0 || err != nil {
		t.Errorf("Writev of nothing = %d, %v", n, err)
	}
	n, err := Read(a, buf)
	if err != nil || string(buf[:n]) != "hello, world" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	if _, err := Write(-1, buf); err != syscall.EBADF {
		t.Errorf("Write to fd -1: %v, want bare EBADF", err)
	}
	if _, err := Writev(-1, bufs, &iov); err != syscall.EBADF {
		t.Errorf("Writev to fd -1: %v, want bare EBADF", err)
	}
	checkIOVecsCleared(t, &iov)
}

// TestReadWriteAllocs pins the hot path: a write and a read allocate nothing, nor does a
// writev once its iovecs have grown.
func TestReadWriteAllocs(t *testing.T) {
	a, b := pair(t)
	msg := []byte("ping")
	bufs := [][]byte{msg, msg}
	buf := make([]byte, 64)
	var iov IOVecs
	got := testing.AllocsPerRun(100, func() {
		if _, err := Write(a, msg); err != nil {
			t.Fatal(err)
		}
		if _, err := Writev(a, bufs, &iov); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(b, buf); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(b, buf); err != syscall.EAGAIN {
			t.Fatalf("second Read: %v", err)
		}
	})
	if got != 0 {
		t.Errorf("%v allocations per write, writev and reads; want 0", got)
	}
}

func TestDatagram(t *testing.T) {
	tests := []struct {
		name string
		addr netip.AddrPort
	}{
		{name: "ipv4", addr: netip.MustParseAddrPort("127.0.0.1:0")},
		{name: "ipv6", addr: netip.MustParseAddrPort("[::1]:0")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			family := FamilyOf(tt.addr.Addr())
			rfd, err := Socket(family, Datagram)
			if err == syscall.EAFNOSUPPORT {
				t.Skip("no such family here")
			}
			r := newFd(t, rfd, err)
			if err := Bind(r, tt.addr, 0); err == syscall.EADDRNOTAVAIL {
				t.Skip("no loopback address of this family")
			} else if err != nil {
				t.Fatal(err)
			}
			to, _, err := Sockname(r)
			if err != nil {
				t.Fatal(err)
			}
			s := keep(t)(Socket(family, Datagram))
			if err := Bind(s, tt.addr, 0); err != nil {
				t.Fatal(err)
			}
			from, _, err := Sockname(s)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			var rsa Sockaddr
			if _, err := Recvfrom(r, buf, &rsa); err != syscall.EAGAIN {
				t.Fatalf("Recvfrom with nothing waiting: %v, want bare EAGAIN", err)
			}

			var ssa Sockaddr
			ssa.Set(to, 0)
			if err := Sendto(s, []byte("one"), &ssa); err != nil {
				t.Fatalf("Sendto: %v", err)
			}
			if err := Connect(s, to, 0); err != nil {
				t.Fatal(err)
			}
			if err := Sendto(s, []byte("two"), nil); err != nil {
				t.Fatalf("Sendto on the connected socket: %v", err)
			}
			if err := Sendto(s, nil, nil); err != nil {
				t.Fatalf("Sendto of an empty datagram: %v", err)
			}
			if err := Disconnect(s); err != nil {
				t.Fatalf("Disconnect: %v", err)
			}
			if _, _, err := Peername(s); err != syscall.ENOTCONN {
				t.Errorf("Peername after Disconnect: %v, want ENOTCONN", err)
			}
			for _, want := range []string{"one", "two", ""} {
				n, err := recvWait(t, r, buf, &rsa)
				if err != nil || string(buf[:n]) != want {
					t.Fatalf("Recvfrom = %q, %v; want %q", buf[:n], err, want)
				}
				if got, scope := rsa.AddrPort(); got != from || scope != 0 {
					t.Errorf("sender %v scope %d, want %v", got, scope, from)
				}
			}
		})
	}
}

// recvWait is Recvfrom after waiting for the datagram.
func recvWait(t *testing.T, fd int, buf []byte, sa *Sockaddr) (int, error) {
	t.Helper()
	pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if _, err := unix.Poll(pfd, 5000); err != nil {
		t.Fatal(err)
	}
	return Recvfrom(fd, buf, sa)
}

// TestDatagramAllocs pins the receive and send path on Linux, where neither allocates.
func TestDatagramAllocs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the BSDs' recvfrom allocates its Sockaddr")
	}
	r := keep(t)(Socket(IPv4, Datagram))
	if err := Bind(r, netip.MustParseAddrPort("127.0.0.1:0"), 0); err != nil {
		t.Fatal(err)
	}
	to, _, err := Sockname(r)
	if err != nil {
		t.Fatal(err)
	}
	s := keep(t)(Socket(IPv4, Datagram))
	msg, buf := []byte("ping"), make([]byte, 64)
	var ssa, rsa Sockaddr
	got := testing.AllocsPerRun(100, func() {
		ssa.Set(to, 0)
		if err := Sendto(s, msg, &ssa); err != nil {
			t.Fatal(err)
		}
		if _, err := recvWait(t, r, buf, &rsa); err != nil {
			t.Fatal(err)
		}
		if ap, _ := rsa.AddrPort(); ap.Addr() != to.Addr() {
			t.Fatalf("sender %v", ap)
		}
	})
	if got != 0 {
		t.Errorf("%v allocations per sendto and recvfrom; want 0", got)
	}
}

func TestSockaddrRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		addr  netip.AddrPort
		scope uint32
	}{
		{name: "ipv4", addr: netip.MustParseAddrPort("192.0.2.1:53")},
		{name: "ipv6", addr: netip.MustParseAddrPort("[2001:db8::1]:65535")},
		{name: "ipv6 scoped", addr: netip.MustParseAddrPort("[fe80::1]:1"), scope: 3},
		{name: "ipv4-mapped", addr: netip.MustParseAddrPort("[::ffff:192.0.2.1]:80")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sa, err := inetSockaddr(tt.addr, tt.scope)
			if err != nil {
				t.Fatal(err)
			}
			got, scope := inetAddrPort(sa)
			if got != tt.addr || scope != tt.scope {
				t.Errorf("round trip = %v scope %d, want %v scope %d", got, scope, tt.addr, tt.scope)
			}
		})
	}
}

func TestDatagramOptions(t *testing.T) {
	for _, family := range []int{IPv4, IPv6} {
		fd, err := Socket(family, Datagram)
		if err == syscall.EAFNOSUPPORT {
			continue
		}
		fd = newFd(t, fd, err)
		opts := []struct {
			name string
			set  func() error
		}{
			{name: "reuse addr", set: func() error { return SetReuseAddrDgram(fd) }},
			{name: "reuse port", set: func() error { return SetReusePort(fd) }},
			{name: "broadcast", set: func() error { return SetBroadcast(fd, true) }},
			{name: "ttl", set: func() error { return SetTTL(fd, family, 7) }},
			{name: "multicast ttl", set: func() error { return SetMulticastTTL(fd, family, 3) }},
			{name: "multicast loop", set: func() error { return SetMulticastLoop(fd, family, false) }},
		}
		if family == IPv4 {
			opts = append(opts, struct {
				name string
				set  func() error
			}{name: "multicast interface", set: func() error { return SetMulticastInterface4(fd, [4]byte{}) }})
		} else {
			opts = append(opts, struct {
				name string
				set  func() error
			}{name: "v6only", set: func() error { return SetIPv6Only(fd, true) }})
		}
		for _, o := range opts {
			if err := o.set(); err != nil {
				t.Errorf("family %d, %s: %v", family, o.name, err)
			}
		}
	}
}

func TestUnixSockets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	ln := keep(t)(Socket(Unix, Stream))
	if err := BindUnix(ln, path); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { Unlink(path) })
	if err := Listen(ln, 1); err != nil {
		t.Fatal(err)
	}
	if got, err := SocknameUnix(ln); err != nil || got != path {
		t.Errorf("SocknameUnix = %q, %v; want %q", got, err, path)
	}
	c := keep(t)(Socket(Unix, Stream))
	if err := ConnectUnix(c, path); err != nil && err != syscall.EINPROGRESS {
		t.Fatal(err)
	}
	if got, err := PeernameUnix(c); err != nil || got != path {
		t.Errorf("PeernameUnix = %q, %v; want %q", got, err, path)
	}
	if err := Unlink(path); err != nil {
		t.Errorf("Unlink: %v", err)
	}
	if err := ConnectUnix(keep(t)(Socket(Unix, Stream)), path); err != syscall.ENOENT {
		t.Errorf("ConnectUnix to a removed path: %v, want ENOENT", err)
	}
}

func TestOpenSpare(t *testing.T) {
	fd := keep(t)(OpenSpare())
	fdfl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil || fdfl&unix.FD_CLOEXEC == 0 {
		t.Errorf("spare fd flags %#x, %v; want close-on-exec", fdfl, err)
	}
}

// TestAcceptFromNet accepts a connection that package net makes, and reads what it sent.
func TestAcceptFromNet(t *testing.T) {
	ln, addr := listener(t)
	conn, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("hi")); err != nil {
		t.Fatal(err)
	}
	pfd := []unix.PollFd{{Fd: int32(ln), Events: unix.POLLIN}}
	if _, err := unix.Poll(pfd, 5000); err != nil {
		t.Fatal(err)
	}
	s := keep(t)(Accept(ln))
	pfd[0].Fd = int32(s)
	if _, err := unix.Poll(pfd, 5000); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	n, err := Read(s, buf)
	if err != nil || !bytes.Equal(buf[:n], []byte("hi")) {
		t.Errorf("Read = %q, %v", buf[:n], err)
	}
}
