//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sock

import (
	"net/netip"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// The system calls that x/sys/unix makes the same way on every system uvgo supports. They
// are not on a hot path: binding, connecting and the options allocate what x/sys/unix
// allocates (a Sockaddr).

// UnixPathMax is the size of sun_path: a Unix socket's path must be shorter.
const UnixPathMax = len(unix.RawSockaddrUnix{}.Path)

// Close closes fd. EINTR is not retried: the descriptor is gone whatever close reports.
func Close(fd int) error { return unix.Close(fd) }

// CloseReset closes fd, a connection no one took, so that its peer sees a reset (SO_LINGER
// on with a zero timeout, best effort) as when a listener's queue is dropped: for a
// connection accepted ahead of the caller (io_uring's multishot accept) that it never saw.
func CloseReset(fd int) error {
	SetLingerZero(fd)
	return unix.Close(fd)
}

// SetNonblock makes fd non-blocking (fcntl O_NONBLOCK).
func SetNonblock(fd int) error { return unix.SetNonblock(fd, true) }

// IsSocket reports whether fd is a socket.
func IsSocket(fd int) bool {
	var st unix.Stat_t
	return unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFSOCK
}

// ReadNoWait, WriteNoWait and WritevNoWait are Read, Write and Writev with MSG_DONTWAIT, for
// a socket whose open file description may be blocking (shared with a child process, which
// wants it so): each call is non-blocking whatever O_NONBLOCK says. Off the hot path: they
// allocate what x/sys/unix does.

// ReadNoWait reads into p; on error it returns 0 and the errno (EAGAIN: nothing to read).
func ReadNoWait(fd int, p []byte) (int, error) {
	for {
		n, _, err := unix.Recvfrom(fd, p, unix.MSG_DONTWAIT)
		if err == nil {
			return n, nil
		}
		if err != syscall.EINTR {
			return 0, err
		}
	}
}

// WriteNoWait writes p; on error it returns 0 and the errno (EAGAIN: the socket is full).
func WriteNoWait(fd int, p []byte) (int, error) {
	return WritevNoWait(fd, [][]byte{p})
}

// WritevNoWait writes bufs with one sendmsg(2); on error it returns 0 and the errno.
func WritevNoWait(fd int, bufs [][]byte) (int, error) {
	for {
		n, err := unix.SendmsgBuffers(fd, bufs, nil, nil, unix.MSG_DONTWAIT)
		if err == nil {
			return n, nil
		}
		if err != syscall.EINTR {
			return 0, err
		}
	}
}

// Listen makes fd a listening socket.
func Listen(fd, backlog int) error { return unix.Listen(fd, backlog) }

// ShutdownWrite shuts down fd's writing side (shutdown SHUT_WR).
func ShutdownWrite(fd int) error { return unix.Shutdown(fd, unix.SHUT_WR) }

// Unlink removes path, a Unix socket's file.
func Unlink(path string) error { return unix.Unlink(path) }

// OpenSpare opens a descriptor to hold in reserve (/dev/null, or / if that fails), for a
// listener that runs out of descriptors to close and so make room for one accept.
func OpenSpare() (int, error) {
	fd, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd, err = unix.Open("/", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	return fd, err
}

// ErrnoName is the symbol of errno ("ECONNREFUSED"), or "" for a value the system lacks.
func ErrnoName(errno syscall.Errno) string { return unix.ErrnoName(errno) }

// inetSockaddr is ap in the kernel's form: IPv4 for an IPv4 address, IPv6 (with the scope)
// for any other; EAFNOSUPPORT for the zero AddrPort.
func inetSockaddr(ap netip.AddrPort, scope uint32) (unix.Sockaddr, error) {
	a := ap.Addr()
	switch {
	case a.Is4():
		return &unix.SockaddrInet4{Port: int(ap.Port()), Addr: a.As4()}, nil
	case a.Is6():
		return &unix.SockaddrInet6{Port: int(ap.Port()), ZoneId: scope, Addr: a.As16()}, nil
	}
	return nil, syscall.EAFNOSUPPORT
}

// inetAddrPort converts a kernel address back, with the IPv6 scope (0 if none); other
// families give the zero AddrPort.
func inetAddrPort(sa unix.Sockaddr) (netip.AddrPort, uint32) {
	switch sa := sa.(type) {
	case *unix.SockaddrInet4:
		return netip.AddrPortFrom(netip.AddrFrom4(sa.Addr), uint16(sa.Port)), 0
	case *unix.SockaddrInet6:
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr), uint16(sa.Port)), sa.ZoneId
	}
	return netip.AddrPort{}, 0
}

// Bind binds fd to ap (IPv4 if ap's address is IPv4, else IPv6 with the interface index
// scope; any zone on ap is ignored).
func Bind(fd int, ap netip.AddrPort, scope uint32) error {
	sa, err := inetSockaddr(ap, scope)
	if err != nil {
		return err
	}
	return unix.Bind(fd, sa)
}

// Connect starts connecting fd to ap, as Bind takes it. On a non-blocking socket it fails
// with EINPROGRESS while the connection is being made.
func Connect(fd int, ap netip.AddrPort, scope uint32) error {
	sa, err := inetSockaddr(ap, scope)
	if err != nil {
		return err
	}
	return connect(fd, sa)
}

func connect(fd int, sa unix.Sockaddr) error {
	for {
		err := unix.Connect(fd, sa)
		if err != syscall.EINTR {
			return err
		}
	}
}

// UnixPathOK reports whether path can name a Unix socket: not empty, short enough for
// sun_path with its terminating NUL, and with no NUL of its own (the kernel would take the
// path only up to it, so bind would create, and close fail to unlink, another file).
func UnixPathOK(path string) bool {
	return path != "" && len(path) < UnixPathMax && strings.IndexByte(path, 0) < 0
}

// BindUnix binds fd, a Unix socket, to path. EINVAL unless UnixPathOK(path).
func BindUnix(fd int, path string) error {
	if !UnixPathOK(path) {
		return syscall.EINVAL
	}
	return unix.Bind(fd, &unix.SockaddrUnix{Name: path})
}

// ConnectUnix starts connecting fd, a Unix socket, to path. EINVAL unless UnixPathOK(path).
func ConnectUnix(fd int, path string) error {
	if !UnixPathOK(path) {
		return syscall.EINVAL
	}
	return connect(fd, &unix.SockaddrUnix{Name: path})
}

// Sockname is fd's local address (getsockname) and its IPv6 scope (0 if none); the zero
// AddrPort if fd is not an IPv4 or IPv6 socket.
func Sockname(fd int) (netip.AddrPort, uint32, error) {
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return netip.AddrPort{}, 0, err
	}
	ap, scope := inetAddrPort(sa)
	return ap, scope, nil
}

// Peername is fd's peer address (getpeername), as Sockname gives it.
func Peername(fd int) (netip.AddrPort, uint32, error) {
	sa, err := unix.Getpeername(fd)
	if err != nil {
		return netip.AddrPort{}, 0, err
	}
	ap, scope := inetAddrPort(sa)
	return ap, scope, nil
}

// SocknameUnix is the path fd, a Unix socket, is bound to (getsockname); "" if none.
func SocknameUnix(fd int) (string, error) { return unixPath(unix.Getsockname(fd)) }

// PeernameUnix is the path of the peer of fd, a Unix socket (getpeername); "" if none.
func PeernameUnix(fd int) (string, error) { return unixPath(unix.Getpeername(fd)) }

func unixPath(sa unix.Sockaddr, err error) (string, error) {
	if err != nil {
		return "", err
	}
	// x/sys/unix reports an unnamed socket (a client that never bound) as "@", the mark of
	// an abstract name with nothing after it.
	if u, ok := sa.(*unix.SockaddrUnix); ok && u.Name != "@" {
		return u.Name, nil
	}
	return "", nil
}

// SocketError takes fd's pending error (getsockopt SO_ERROR): 0 if there is none; err is
// getsockopt's own failure.
func SocketError(fd int) (syscall.Errno, error) {
	v, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ERROR)
	return syscall.Errno(v), err
}

// SetReuseAddr sets SO_REUSEADDR.
func SetReuseAddr(fd int) error {
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
}

// SetReuseAddrDgram lets several datagram sockets bind the same address and port:
// SO_REUSEADDR, and on the BSDs and macOS SO_REUSEPORT too, as libuv does there, since only
// that lets two sockets share a multicast address and port.
func SetReuseAddrDgram(fd int) error {
	if err := SetReuseAddr(fd); err != nil || runtime.GOOS == "linux" {
		return err
	}
	return SetReusePort(fd)
}

// SetReusePort sets SO_REUSEPORT.
func SetReusePort(fd int) error {
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
}

// SetIPv6Only sets IPV6_V6ONLY.
func SetIPv6Only(fd int, on bool) error {
	return unix.SetsockoptInt(fd, unix.IPPROTO_IPV6, unix.IPV6_V6ONLY, boolInt(on))
}

// SetNoDelay sets TCP_NODELAY (Nagle's algorithm off).
func SetNoDelay(fd int, on bool) error {
	return unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, boolInt(on))
}

// SetKeepAlive sets SO_KEEPALIVE: off if idleSecs is 0; otherwise on with libuv's probes, the
// first after idleSecs seconds of silence, then one a second, ten of them (where the system
// lets a socket choose: OpenBSD sets the timing system-wide only).
func SetKeepAlive(fd, idleSecs int) error {
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_KEEPALIVE, boolInt(idleSecs > 0)); err != nil {
		return err
	}
	if idleSecs == 0 {
		return nil
	}
	return setKeepAliveIdle(fd, idleSecs)
}

// SetLingerZero sets SO_LINGER to on with a zero timeout, so that close resets the
// connection.
func SetLingerZero(fd int) error {
	return unix.SetsockoptLinger(fd, unix.SOL_SOCKET, unix.SO_LINGER, &unix.Linger{Onoff: 1, Linger: 0})
}

// SetBroadcast sets SO_BROADCAST.
func SetBroadcast(fd int, on bool) error {
	return unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_BROADCAST, boolInt(on))
}

// SetTTL sets the unicast time to live of fd, a socket of family: IP_TTL or
// IPV6_UNICAST_HOPS.
func SetTTL(fd, family, ttl int) error {
	if family == IPv6 {
		return unix.SetsockoptInt(fd, unix.IPPROTO_IPV6, unix.IPV6_UNICAST_HOPS, ttl)
	}
	return unix.SetsockoptInt(fd, unix.IPPROTO_IP, unix.IP_TTL, ttl)
}

// SetMulticastTTL sets IP_MULTICAST_TTL or IPV6_MULTICAST_HOPS on fd, a socket of family.
func SetMulticastTTL(fd, family, ttl int) error {
	return setMulticast(fd, family, unix.IP_MULTICAST_TTL, unix.IPV6_MULTICAST_HOPS, ttl)
}

// SetMulticastLoop sets IP_MULTICAST_LOOP or IPV6_MULTICAST_LOOP on fd, a socket of family.
func SetMulticastLoop(fd, family int, on bool) error {
	return setMulticast(fd, family, unix.IP_MULTICAST_LOOP, unix.IPV6_MULTICAST_LOOP, boolInt(on))
}

// setMulticast sets opt4 at IPPROTO_IP or opt6 at IPPROTO_IPV6. OpenBSD takes the IPv4 ones
// as an unsigned char only, as libuv knows; the others take ints.
func setMulticast(fd, family, opt4, opt6, v int) error {
	if family == IPv6 {
		return unix.SetsockoptInt(fd, unix.IPPROTO_IPV6, opt6, v)
	}
	if runtime.GOOS == "openbsd" {
		return unix.SetsockoptByte(fd, unix.IPPROTO_IP, opt4, byte(v))
	}
	return unix.SetsockoptInt(fd, unix.IPPROTO_IP, opt4, v)
}

// SetMulticastInterface4 sets IP_MULTICAST_IF: the interface with address iface (0.0.0.0:
// the system's choice).
func SetMulticastInterface4(fd int, iface [4]byte) error {
	return unix.SetsockoptInet4Addr(fd, unix.IPPROTO_IP, unix.IP_MULTICAST_IF, iface)
}

// SetMulticastInterface6 sets IPV6_MULTICAST_IF: the interface with index idx (0: the
// system's choice).
func SetMulticastInterface6(fd int, idx uint32) error {
	return unix.SetsockoptInt(fd, unix.IPPROTO_IPV6, unix.IPV6_MULTICAST_IF, int(idx))
}

// Membership4 joins (or leaves) the IPv4 multicast group on the interface with address
// iface (0.0.0.0: the system's choice): IP_ADD_MEMBERSHIP or IP_DROP_MEMBERSHIP.
func Membership4(fd int, group, iface [4]byte, join bool) error {
	opt := unix.IP_ADD_MEMBERSHIP
	if !join {
		opt = unix.IP_DROP_MEMBERSHIP
	}
	return unix.SetsockoptIPMreq(fd, unix.IPPROTO_IP, opt, &unix.IPMreq{Multiaddr: group, Interface: iface})
}

// Membership6 joins (or leaves) the IPv6 multicast group on the interface with index idx (0:
// the system's choice): IPV6_JOIN_GROUP or IPV6_LEAVE_GROUP.
func Membership6(fd int, group [16]byte, idx uint32, join bool) error {
	opt := unix.IPV6_JOIN_GROUP
	if !join {
		opt = unix.IPV6_LEAVE_GROUP
	}
	return unix.SetsockoptIPv6Mreq(fd, unix.IPPROTO_IPV6, opt, &unix.IPv6Mreq{Multiaddr: group, Interface: idx})
}
