package sock

import (
	"encoding/binary"
	"net/netip"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Recvfrom and Sendto on Linux are raw system calls with the caller's in-place address, so
// that neither allocates (unix.Recvfrom returns a freshly allocated Sockaddr for every
// datagram).

// Sockaddr is a datagram socket's scratch address: Recvfrom fills it, Set prepares it for
// Sendto. One goroutine at a time.
type Sockaddr struct {
	raw unix.RawSockaddrAny
	n   uint32 // socklen_t: the length recvfrom reports, or the length to hand to sendto
}

// Recvfrom reads one datagram into buf and the sender's address into sa; on error it returns
// 0 and the errno (EAGAIN: nothing waiting).
func Recvfrom(fd int, buf []byte, sa *Sockaddr) (int, error) {
	var p unsafe.Pointer
	if len(buf) > 0 {
		p = unsafe.Pointer(&buf[0])
	}
	for {
		sa.n = unix.SizeofSockaddrAny
		n, _, e := unix.Syscall6(unix.SYS_RECVFROM, uintptr(fd), uintptr(p), uintptr(len(buf)), 0,
			uintptr(unsafe.Pointer(&sa.raw)), uintptr(unsafe.Pointer(&sa.n)))
		if e == 0 {
			return int(n), nil
		}
		if e != syscall.EINTR {
			return 0, e
		}
	}
}

// Sendto sends data to the address Set stored in sa, or to the connected peer if sa is nil.
func Sendto(fd int, data []byte, sa *Sockaddr) error {
	var p, to unsafe.Pointer
	if len(data) > 0 {
		p = unsafe.Pointer(&data[0])
	}
	var n uint32
	if sa != nil {
		to, n = unsafe.Pointer(&sa.raw), sa.n
	}
	for {
		_, _, e := unix.Syscall6(unix.SYS_SENDTO, uintptr(fd), uintptr(p), uintptr(len(data)),
			unix.MSG_NOSIGNAL, uintptr(to), uintptr(n))
		if e == 0 {
			return nil
		}
		if e != syscall.EINTR {
			return e
		}
	}
}

// Disconnect dissolves the association of a connected datagram socket (connect with
// AF_UNSPEC).
func Disconnect(fd int) error {
	sa := unix.RawSockaddr{Family: unix.AF_UNSPEC}
	_, _, e := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
	if e != 0 {
		return e
	}
	return nil
}

// Set stores ap for Sendto: IPv4 if ap's address is IPv4, else IPv6 with scope (the address
// must already be of the socket's family; a zone is ignored).
func (sa *Sockaddr) Set(ap netip.AddrPort, scope uint32) {
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

// AddrPort returns the address Recvfrom stored, without a zone, and its IPv6 scope (0 if
// none).
func (sa *Sockaddr) AddrPort() (netip.AddrPort, uint32) {
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
