//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package uvloop

import (
	"net/netip"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The system calls of the UDP handle on the BSDs and macOS. They go through unix.Recvfrom and
// unix.Sendto, which is portable but allocates a Sockaddr for every datagram received; the
// zero-allocation receive path is Linux's (udp_linux.go).

// udpSockaddr is a UDP handle's scratch socket address. Loop goroutine only.
type udpSockaddr struct {
	to   unix.Sockaddr // what set stored, for sendto: &v4 or &v6
	from unix.Sockaddr // what the last recvfrom returned
	v4   unix.SockaddrInet4
	v6   unix.SockaddrInet6
}

// udpReuseAddr lets several sockets bind the same address and port (UDPReuseAddr). As libuv
// does on the BSDs, it sets SO_REUSEPORT too: only that lets two sockets share a multicast
// address and port there.
func udpReuseAddr(fd int) error {
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err != nil {
		return err
	}
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
}

// udpSetMulticastOpt sets IP_MULTICAST_TTL, IP_MULTICAST_LOOP or their IPv6 counterparts.
// OpenBSD takes the IPv4 ones as an unsigned char only, as libuv knows; the others take ints.
func udpSetMulticastOpt(fd, level, opt, v int) error {
	if runtime.GOOS == "openbsd" && level == unix.IPPROTO_IP {
		return unix.SetsockoptByte(fd, level, opt, byte(v))
	}
	return unix.SetsockoptInt(fd, level, opt, v)
}

func udpErrno(err error) unix.Errno {
	if e, ok := err.(unix.Errno); ok {
		return e
	}
	return unix.EIO
}

// udpRecvfrom reads one datagram into buf and the sender's address into sa.
func udpRecvfrom(fd int, buf []byte, sa *udpSockaddr) (int, unix.Errno) {
	n, from, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return 0, udpErrno(err)
	}
	sa.from = from
	return n, 0
}

// udpSendto sends data to the address in sa, or to the connected peer if sa is nil.
func udpSendto(fd int, data []byte, sa *udpSockaddr) unix.Errno {
	var to unix.Sockaddr
	if sa != nil {
		to = sa.to
	}
	if err := unix.Sendto(fd, data, 0, to); err != nil {
		return udpErrno(err)
	}
	return 0
}

// udpDisconnect dissolves the association of a connected datagram socket (connect with
// AF_UNSPEC). Some systems report EAFNOSUPPORT or EINVAL although they did disconnect.
func udpDisconnect(fd int) unix.Errno {
	sa := unix.RawSockaddrInet6{Len: unix.SizeofSockaddrInet6, Family: unix.AF_UNSPEC}
	_, _, e := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
	if e == unix.EAFNOSUPPORT || e == unix.EINVAL {
		return 0
	}
	return e
}

// set stores ap (whose address is already of the socket's family) for sendto.
func (sa *udpSockaddr) set(ap netip.AddrPort, scope uint32) {
	a := ap.Addr()
	if a.Is4() {
		sa.v4 = unix.SockaddrInet4{Port: int(ap.Port()), Addr: a.As4()}
		sa.to = &sa.v4
		return
	}
	sa.v6 = unix.SockaddrInet6{Port: int(ap.Port()), ZoneId: scope, Addr: a.As16()}
	sa.to = &sa.v6
}

// addrPort returns the address recvfrom stored, with the IPv6 scope (0 if none).
func (sa *udpSockaddr) addrPort() (netip.AddrPort, uint32) {
	switch from := sa.from.(type) {
	case *unix.SockaddrInet4:
		return netip.AddrPortFrom(netip.AddrFrom4(from.Addr), uint16(from.Port)), 0
	case *unix.SockaddrInet6:
		return netip.AddrPortFrom(netip.AddrFrom16(from.Addr), uint16(from.Port)), from.ZoneId
	}
	return netip.AddrPort{}, 0
}
