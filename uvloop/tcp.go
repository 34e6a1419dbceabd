package uvloop

import (
	"math"
	"net/netip"
	"os"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/internal/sock"
)

// TCP is a TCP stream or listener (uv_tcp_t), over IPv4 or IPv6. Its socket is created
// when it is first needed — by Bind, Connect or Listen (then IPv4) — or adopted with Open,
// or given by a listener's Accept. See Stream for reading, writing and the lifetime of
// the bytes. Loop goroutine only.
type TCP struct {
	stream // SetNoDelay's choice is the flag sNoDelay, SetKeepAlive's is in the rare part
}

// TCPFlags are Bind's options.
type TCPFlags uint8

const (
	// TCPIPv6Only binds an IPv6 socket to IPv6 only (IPV6_V6ONLY); otherwise an IPv6
	// wildcard address takes IPv4 connections too.
	TCPIPv6Only TCPFlags = 1 << iota
	// TCPReusePort sets SO_REUSEPORT, so that several sockets (one per loop, say) may bind
	// the same address and the kernel spreads the connections between them.
	TCPReusePort
)

// NewTCP creates a TCP handle without a socket.
func (l *Loop) NewTCP() (*TCP, error) {
	if l.closed {
		return nil, ErrClosed
	}
	t := &TCP{}
	t.stream.init(l, t, KindTCP)
	return t, nil
}

// ensureSocket creates the socket for family unless the handle has one (maybe_new_socket).
func (t *TCP) ensureSocket(family int) error {
	if t.io.fd >= 0 {
		return nil
	}
	fd, err := sock.Socket(family, sock.Stream)
	if err != nil {
		return sysErr("socket", err)
	}
	if err := t.open(fd, 0); err != nil {
		sock.Close(fd)
		return err
	}
	return nil
}

// Open adopts fd, a TCP socket (fresh, bound, connected or listening), as the handle's socket
// and takes ownership of it: Close closes it. It is made non-blocking. A socket not yet
// connected may then Connect (uv_tcp_open). An fd another handle of the loop watches fails
// with an error wrapping both ErrFdInUse and syscall.EEXIST. To adopt a net.Listener's or
// net.Conn's socket, dup the fd of its File() (and close the File), or hand over the File's
// fd and never close the File.
func (t *TCP) Open(fd int) error {
	if err := t.usable(); err != nil {
		return err
	}
	if fd < 0 {
		return ErrBadFd
	}
	if err := sock.SetNonblock(fd); err != nil {
		return sysErr("fcntl", err)
	}
	flags := sReadable | sWritable
	if _, _, err := sock.Peername(fd); err == nil {
		flags |= sConnected // a fresh or bound socket may still Connect, as after uv_tcp_open
	}
	return t.open(fd, flags)
}

// Bind binds the handle to addr (uv_tcp_bind), creating the socket for addr's family.
// SO_REUSEADDR is always set. As in libuv, EADDRINUSE is reported later, by Listen or
// through Connect's callback.
func (t *TCP) Bind(addr netip.AddrPort, flags TCPFlags) error {
	if err := t.usable(); err != nil {
		return err
	}
	family, scope, err := tcpTarget(addr)
	if err != nil {
		return sysErr("bind", err)
	}
	if flags&TCPIPv6Only != 0 && family != sock.IPv6 {
		return os.NewSyscallError("bind", syscall.EINVAL)
	}
	if err := t.ensureSocket(family); err != nil {
		return err
	}
	if err := sock.SetReuseAddr(t.io.fd); err != nil {
		return sysErr("setsockopt", err)
	}
	if flags&TCPReusePort != 0 {
		if err := sock.SetReusePort(t.io.fd); err != nil {
			return sysErr("setsockopt", err)
		}
	}
	if family == sock.IPv6 {
		if err := sock.SetIPv6Only(t.io.fd, flags&TCPIPv6Only != 0); err != nil {
			return sysErr("setsockopt", err)
		}
	}
	err = sock.Bind(t.io.fd, addr, scope)
	switch {
	case err == syscall.EADDRINUSE:
		t.rare().delayedErr = sysErr("bind", err)
	case err == syscall.EAFNOSUPPORT:
		return os.NewSyscallError("bind", syscall.EINVAL)
	case err != nil:
		return sysErr("bind", err)
	default:
		t.clearDelayed()
	}
	t.sflags |= sBound
	return nil
}

// BindString is Bind with an address such as "127.0.0.1:0", "[::1]:8080" or
// "localhost:8080". A host name is looked up at once, on the loop goroutine, which waits for
// the answer (bindName); to bind without waiting, look the name up with GetAddrInfo first.
func (t *TCP) BindString(addr string, flags TCPFlags) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return t.bindName(addr, flags)
	}
	return t.Bind(ap, flags)
}

// Listen makes the handle a listener (uv_listen); cb runs in the poll phase for each
// incoming connection (err nil: call Accept) or for an accept failure other than running
// out of fds, which is handled as libuv does (see Accept). A bind error delayed by Bind
// is returned here. The handle is active while listening.
func (t *TCP) Listen(backlog int, cb func(err error)) error {
	if err := t.usable(); err != nil {
		return err
	}
	if cb == nil {
		return ErrNilCallback
	}
	if err := t.delayed(); err != nil {
		return err
	}
	if t.sflags&sConnecting != 0 {
		return errInval
	}
	if err := t.ensureSocket(sock.IPv4); err != nil {
		return err
	}
	if err := sock.Listen(t.io.fd, backlog); err != nil {
		return sysErr("listen", err)
	}
	t.sflags |= sBound
	t.listen(cb)
	return nil
}

// Accept takes the connection announced to Listen's callback into client, a new TCP
// handle without a socket. Without a connection waiting it fails with an error wrapping
// EAGAIN. While a connection waits to be accepted the listener accepts no other. (On the
// io_uring backend, where the kernel accepts as connections arrive (AcceptsThroughRing), the
// connections it took before the listener parked wait as open fds in the listener's backlog
// rather than in the kernel's listen queue: a parked listener holds up to a burst's worth of
// fds, closed with it.)
//
// When the process runs out of fds (EMFILE, ENFILE), the listener does as libuv does: it
// closes an fd it holds in reserve, accepts every queued connection and closes it at once
// (the clients see the connection closed rather than hang), and reopens the reserve. The
// callback is not told.
func (t *TCP) Accept(client *TCP) error {
	if client == nil {
		return ErrBadFd
	}
	return t.stream.accept(&client.stream)
}

// Connect connects to addr (uv_tcp_connect). The outcome arrives in cb: nil, or an error
// such as one wrapping ECONNREFUSED — never from inside Connect; a refusal the kernel
// reports at once arrives in the pending phase, as in libuv. Writes made before the
// connection completes are queued. Closing the handle first completes cb with ECANCELED.
// An IPv6 link-local address without a zone goes by the first interface that has a
// link-local address, as in libuv (1.47 on).
func (t *TCP) Connect(addr netip.AddrPort, cb func(err error)) error {
	if err := t.usable(); err != nil {
		return err
	}
	if t.sflags&sConnecting != 0 {
		return errAlready
	}
	if t.sflags&(sListening|sConnected) != 0 {
		return os.NewSyscallError("connect", syscall.EISCONN)
	}
	if t.delayed() == nil {
		family, scope, err := tcpTarget(addr)
		if err != nil {
			return sysErr("connect", err)
		}
		if err := t.ensureSocket(family); err != nil {
			return err
		}
		if scope == 0 && sock.IsLinkLocal6(addr.Addr()) {
			scope = sock.LinkLocalScope() // as uv__tcp_connect: it does not route without one
		}
		err = sock.Connect(t.io.fd, addr, scope)
		switch err {
		case nil, syscall.EINPROGRESS:
		case syscall.ECONNREFUSED:
			t.rare().delayedErr = sysErr("connect", err)
		default:
			return sysErr("connect", err)
		}
		t.sflags |= sReadable | sWritable
	}
	t.startConnect(cb)
	return nil
}

// ConnectString is Connect with an address such as "127.0.0.1:8080" or "localhost:8080". A
// host name is looked up on the work pool first (GetAddrInfo) and the first address is
// connected to; a failed lookup arrives in cb as a *DNSError. The lookup counts as the
// connect in flight: writes wait for the connection, Close cancels both.
func (t *TCP) ConnectString(addr string, cb func(err error)) error {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return t.connectName(addr, cb)
	}
	return t.Connect(ap, cb)
}

// SetNoDelay turns Nagle's algorithm off (TCP_NODELAY) or on. Before the socket exists, the
// choice is kept and applied when it is created.
func (t *TCP) SetNoDelay(on bool) error {
	if err := t.usable(); err != nil {
		return err
	}
	if t.io.fd >= 0 {
		if err := sock.SetNoDelay(t.io.fd, on); err != nil {
			return sysErr("setsockopt", err)
		}
	}
	if on {
		t.sflags |= sNoDelay
	} else {
		t.sflags &^= sNoDelay
	}
	return nil
}

// SetKeepAlive turns TCP keep-alive on, with delay before the first probe (rounded to
// seconds, at least 1s), or off. Before the socket exists, the choice is kept and applied
// when it is created.
func (t *TCP) SetKeepAlive(on bool, delay time.Duration) error {
	if err := t.usable(); err != nil {
		return err
	}
	if !on {
		delay = 0
	} else if delay < time.Second {
		delay = time.Second
	}
	secs := int32(min(delay/time.Second, math.MaxInt32)) // the kernel takes far fewer
	if t.io.fd >= 0 {
		if err := setKeepAlive(t.io.fd, secs); err != nil {
			return err
		}
	}
	if secs != 0 || t.x != nil { // keep-alive is rare: a connection without it carries nothing
		t.rare().keepalive = secs
	}
	return nil
}

// applyOptions gives a new or adopted socket the options set before it existed.
func (t *TCP) applyOptions(fd int) error {
	if t.sflags&sNoDelay != 0 {
		if err := sock.SetNoDelay(fd, true); err != nil {
			return sysErr("setsockopt", err)
		}
	}
	if t.x != nil && t.x.keepalive > 0 {
		return setKeepAlive(fd, t.x.keepalive)
	}
	return nil
}

// setKeepAlive sets SO_KEEPALIVE with libuv's probes: the first after secs seconds (0: off),
// then every second, ten of them.
func setKeepAlive(fd int, secs int32) error {
	return sysErr("setsockopt", sock.SetKeepAlive(fd, int(secs)))
}

// tcpTarget is the socket family for addr and the interface index of its zone.
func tcpTarget(addr netip.AddrPort) (family int, scope uint32, err error) {
	family = sock.FamilyOf(addr.Addr())
	if family == 0 {
		return 0, 0, syscall.EINVAL // an address of no family, as libuv's unknown sa_family
	}
	scope, err = sock.ZoneIndex(addr.Addr().Zone())
	return family, scope, err
}

// LocalAddr returns the address the socket is bound to (getsockname).
func (t *TCP) LocalAddr() (netip.AddrPort, error) {
	if err := t.delayed(); err != nil {
		return netip.AddrPort{}, err
	}
	if t.io.fd < 0 {
		return netip.AddrPort{}, os.NewSyscallError("getsockname", syscall.EBADF)
	}
	ap, scope, err := sock.Sockname(t.io.fd)
	if err != nil {
		return netip.AddrPort{}, sysErr("getsockname", err)
	}
	return tcpNamedZone(ap, scope), nil
}

// RemoteAddr returns the peer's address (getpeername); ENOTCONN if there is none.
func (t *TCP) RemoteAddr() (netip.AddrPort, error) {
	if err := t.delayed(); err != nil {
		return netip.AddrPort{}, err
	}
	if t.io.fd < 0 {
		return netip.AddrPort{}, os.NewSyscallError("getpeername", syscall.EBADF)
	}
	ap, scope, err := sock.Peername(t.io.fd)
	if err != nil {
		return netip.AddrPort{}, sysErr("getpeername", err)
	}
	return tcpNamedZone(ap, scope), nil
}

// tcpNamedZone gives ap the zone of an IPv6 scope: the interface's name, or its number.
func tcpNamedZone(ap netip.AddrPort, scope uint32) netip.AddrPort {
	if scope == 0 {
		return ap
	}
	return netip.AddrPortFrom(ap.Addr().WithZone(sock.ZoneName(scope)), ap.Port())
}

// CloseReset closes the connection with a reset (RST) instead of an orderly close, by
// setting SO_LINGER to zero first (uv_tcp_close_reset). It fails with EINVAL while a
// Shutdown is pending or done.
func (t *TCP) CloseReset(cb func()) error {
	if err := t.usable(); err != nil {
		return err
	}
	if t.sflags&(sShutting|sShut) != 0 {
		return os.NewSyscallError("close", syscall.EINVAL)
	}
	if t.io.fd >= 0 {
		if err := sock.SetLingerZero(t.io.fd); err != nil && err != syscall.EINVAL {
			return sysErr("setsockopt", err)
		}
	}
	return t.Close(cb)
}
