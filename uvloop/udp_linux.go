//go:build linux

package uvloop

import (
	"encoding/binary"
	"net/netip"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The system calls of the UDP handle on Linux. recvfrom and sendto go through the raw system
// call with the handle's scratch socket address, so that neither allocates (unix.Recvfrom
// returns a freshly allocated Sockaddr for every datagram).

// udpSockaddr is a UDP handle's scratch socket address: recvfrom fills it, sendto reads it.
// Loop goroutine only.
type udpSockaddr struct {
	raw unix.RawSockaddrAny
	n   uint32 // socklen_t: the length recvfrom reports, or the length to hand to sendto
}

// udpReuseAddr lets several sockets bind the same address and port (UDPReuseAddr).
func udpReuseAddr(fd int) error {
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
}

// udpSetMulticastOpt sets IP_MULTICAST_TTL, IP_MULTICAST_LOOP or their IPv6 counterparts,
// all ints on Linux.
func udpSetMulticastOpt(fd, level, opt, v int) error {
	return unix.SetsockoptInt(fd, level, opt, v)
}

// udpRecvfrom reads one datagram into buf and the sender's address into sa.
func udpRecvfrom(fd int, buf []byte, sa *udpSockaddr) (int, unix.Errno) {
	sa.n = unix.SizeofSockaddrAny
	var p unsafe.Pointer
	if len(buf) > 0 {
		p = unsafe.Pointer(&buf[0])
	}
	n, _, e := unix.Syscall6(unix.SYS_RECVFROM, uintptr(fd), uintptr(p), uintptr(len(buf)), 0,
		uintptr(unsafe.Pointer(&sa.raw)), uintptr(unsafe.Pointer(&sa.n)))
	return int(n), e
}

// udpSendto sends data to the address in sa, or to the connected peer if sa is nil.
func udpSendto(fd int, data []byte, sa *udpSockaddr) unix.Errno {
	var p, to unsafe.Pointer
	if len(data) > 0 {
		p = unsafe.Pointer(&data[0])
	}
	var n uint32
	if sa != nil {
		to, n = unsafe.Pointer(&sa.raw), sa.n
	}
	_, _, e := unix.Syscall6(unix.SYS_SENDTO, uintptr(fd), uintptr(p), uintptr(len(data)),
		unix.MSG_NOSIGNAL, uintptr(to), uintptr(n))
	return e
}

// udpDisconnect dissolves the association of a connected datagram socket (connect with
// AF_UNSPEC).
func udpDisconnect(fd int) unix.Errno {
	sa := unix.RawSockaddr{Family: unix.AF_UNSPEC}
	_, _, e := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
	return e
}

// set stores ap (whose address is already of the socket's family) for sendto.
func (sa *udpSockaddr) set(ap netip.AddrPort, scope uint32) {
	a := ap.Addr()
	if a.Is4() {
		p := (*unix.RawSockaddrInet4)(unsafe.Pointer(&sa.raw))
		*p = unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: a.As4()}
		binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&p.Port))[:], ap.Port())
		sa.n = unix.SizeofSockaddrInet4
		return
	}
	p := (*unix.RawSockaddrInet6)(unsafe.Pointer(&sa.raw))
	*p = unix.RawSockaddrInet6{Family: unix.AF_INET6, Addr: a.As16(), Scope_id: scope}
	binary.BigEndian.PutUint16((*[2]byte)(unsafe.Pointer(&p.Port))[:], ap.Port())
	sa.n = unix.SizeofSockaddrInet6
}

// addrPort returns the address recvfrom stored, with the IPv6 scope (0 if none).
func (sa *udpSockaddr) addrPort() (netip.AddrPort, uint32) {
	switch sa.raw.Addr.Family {
	case unix.AF_INET:
		p := (*unix.RawSockaddrInet4)(unsafe.Pointer(&sa.raw))
		port := binary.BigEndian.Uint16((*[2]byte)(unsafe.Pointer(&p.Port))[:])
		return netip.AddrPortFrom(netip.AddrFrom4(p.Addr), port), 0
	case unix.AF_INET6:
		p := (*unix.RawSockaddrInet6)(unsafe.Pointer(&sa.raw))
		port := binary.BigEndian.Uint16((*[2]byte)(unsafe.Pointer(&p.Port))[:])
		return netip.AddrPortFrom(netip.AddrFrom16(p.Addr), port), p.Scope_id
	}
	return netip.AddrPort{}, 0
}
