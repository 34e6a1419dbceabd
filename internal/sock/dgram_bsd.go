//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package sock

import (
	"net/netip"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Recvfrom and Sendto on the BSDs and macOS go through unix.Recvfrom and unix.Sendto, which
// is portable but allocates a Sockaddr for every datagram received; the zero-allocation
// receive path is Linux's (dgram_linux.go).

// Sockaddr is a datagram socket's scratch address: Recvfrom fills it, Set prepares it for
// Sendto. One goroutine at a time.
type Sockaddr struct {
	to   unix.Sockaddr // what Set stored, for sendto: &v4 or &v6
	from unix.Sockaddr // what the last recvfrom returned
	v4   unix.SockaddrInet4
	v6   unix.SockaddrInet6
}

// errnoOf is err as an errno; x/sys/unix returns nothing else, but its type says error.
func errnoOf(err error) error {
	if _, ok := err.(syscall.Errno); ok {
		return err
	}
	return syscall.EIO
}

// Recvfrom reads one datagram into buf and the sender's address into sa; on error it returns
// 0 and the errno (EAGAIN: nothing waiting).
func Recvfrom(fd int, buf []byte, sa *Sockaddr) (int, error) {
	for {
		n, from, err := unix.Recvfrom(fd, buf, 0)
		if err == nil {
			sa.from = from
			return n, nil
		}
		if err != syscall.EINTR {
			return 0, errnoOf(err)
		}
	}
}

// Sendto sends data to the address Set stored in sa, or to the connected peer if sa is nil.
func Sendto(fd int, data []byte, sa *Sockaddr) error {
	var to unix.Sockaddr
	if sa != nil {
		to = sa.to
	}
	for {
		err := unix.Sendto(fd, data, 0, to)
		if err == nil {
			return nil
		}
		if err != syscall.EINTR {
			return errnoOf(err)
		}
	}
}

// Disconnect dissolves the association of a connected datagram socket (connect with
// AF_UNSPEC). Some systems report EAFNOSUPPORT or EINVAL although they did disconnect.
func Disconnect(fd int) error {
	sa := unix.RawSockaddrInet6{Len: unix.SizeofSockaddrInet6, Family: unix.AF_UNSPEC}
	_, _, e := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
	if e == 0 || e == unix.EAFNOSUPPORT || e == unix.EINVAL {
		return nil
	}
	return e
}

// Set stores ap for Sendto: IPv4 if ap's address is IPv4, else IPv6 with scope (the address
// must already be of the socket's family; a zone is ignored).
func (sa *Sockaddr) Set(ap netip.AddrPort, scope uint32) {
	a := ap.Addr()
	if a.Is4() {
		sa.v4 = unix.SockaddrInet4{Port: int(ap.Port()), Addr: a.As4()}
		sa.to = &sa.v4
		return
	}
	sa.v6 = unix.SockaddrInet6{Port: int(ap.Port()), ZoneId: scope, Addr: a.As16()}
	sa.to = &sa.v6
}

// AddrPort returns the address Recvfrom stored, without a zone, and its IPv6 scope (0 if
// none).
func (sa *Sockaddr) AddrPort() (netip.AddrPort, uint32) { return inetAddrPort(sa.from) }
