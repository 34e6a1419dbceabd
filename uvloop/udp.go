package uvloop

import (
	"net/netip"
	"os"
	"strconv"
	"syscall"

	"github.com/uvgo/uvgo/internal/queue"
	"github.com/uvgo/uvgo/internal/sock"
)

// UDPFlags are the options of UDP.Bind.
type UDPFlags uint

const (
	// UDPIPv6Only binds an IPv6 socket to IPv6 alone (IPV6_V6ONLY); without it an IPv6
	// socket bound to [::] also receives IPv4 datagrams, from IPv4-mapped addresses.
	UDPIPv6Only UDPFlags = 1 << iota
	// UDPReuseAddr lets several sockets bind the same address and port (SO_REUSEADDR; on the
	// BSDs and macOS also SO_REUSEPORT, as libuv does), which multicast receivers need.
	UDPReuseAddr
	// UDPReusePort sets SO_REUSEPORT: on Linux the kernel spreads datagrams among the sockets
	// bound to the same address and port.
	UDPReusePort

	udpFlagsAll = UDPIPv6Only | UDPReuseAddr | UDPReusePort
)

const (
	udpRecvBufSize = 64 << 10 // larger than any UDP payload (65507 bytes over IPv4)
	udpRecvBatch   = 32       // datagrams read per readiness report, as libuv does
)

// Pre-boxed errors: the EAGAIN path and the misuse checks format nothing. A misuse that no
// system call reported is the bare errno libuv returns for it.
var (
	errUDPAgain       error = os.NewSyscallError("sendto", syscall.EAGAIN)
	errUDPCanceled    error = os.NewSyscallError("sendto", syscall.ECANCELED)
	errUDPIsConn      error = os.NewSyscallError("sendto", syscall.EISCONN)
	errUDPNoDest      error = os.NewSyscallError("sendto", syscall.EDESTADDRREQ)
	errUDPNotConn     error = syscall.ENOTCONN
	errUDPAlready     error = syscall.EALREADY
	errUDPNoSocket    error = syscall.EBADF
	errUDPAddrInvalid error = syscall.EINVAL
	errUDPFamily      error = syscall.EAFNOSUPPORT
)

// udpSend is one queued Send (libuv's uv_udp_send_t).
type udpSend struct {
	data  []byte
	to    netip.AddrPort // invalid on a connected socket
	scope uint32         // the IPv6 scope of to
	cb    func(error)
	err   error // the outcome, once written or failed
}

// UDP is a datagram socket (uv_udp_t): bind, connect, send with a completion callback,
// receive with the sender's address, broadcast and multicast.
//
// The socket is created by Bind, or implicitly by Connect, Send, TrySend, RecvStart or
// JoinGroup, which bind it to the unspecified address of the family at hand and port 0
// (RecvStart: IPv4), as libuv does; or it is adopted with Open.
//
// Sends are queued in order. A send that the kernel takes at once still reports through its
// callback, in the pending phase of the loop (never from inside Send); one that would block
// waits for the socket to become writable. Every send in flight counts as a request that
// keeps the loop alive, even while the handle is unref'd. Close closes the socket at once.
// In the close phase, before the close callback, the send callbacks that have not run yet
// run in order: first those of the sends already written (or failed), with their outcome,
// then those of the sends not yet written, with an error wrapping ECANCELED.
//
// The receive callback gets the datagram in a buffer that the loop shares among its UDP
// handles: it is valid only until the callback returns (copy it to keep it). An IPv6 address
// with a scope arrives with a numeric zone ("fe80::1%2"). Receiving allocates nothing per
// datagram on Linux.
//
// All methods are for the loop goroutine only. Errors from the system wrap the errno
// (errors.Is(err, syscall.ECONNREFUSED) works); misuse returns ErrClosed, ErrNilCallback or
// the errno libuv returns for it (EISCONN, EDESTADDRREQ, ENOTCONN, EALREADY, EINVAL).
type UDP struct {
	handle
	// Every field is for the loop goroutine only.
	io        ioWatcher
	fd        int // -1 until the socket exists, and again after Close
	family    int // sock.IPv4 or sock.IPv6 once the socket exists
	connected bool

	recvCb func(u *UDP, data []byte, from netip.AddrPort, err error) // nil while not receiving
	rbuf   *[udpRecvBufSize]byte                                     // shared by the loop's UDP handles
	sa     sock.Sockaddr                                             // scratch address of recvfrom and sendto

	queue      queue.Ring[udpSend] // sends not yet written, oldest first
	queueBytes int                 // bytes in queue
	done       queue.Ring[udpSend] // written or failed, callbacks not yet run, oldest first
	completing bool                // runCompleted is queued for the pending phase
	processing bool                // runCompleted is running: Send queues without writing inline

	runCompletedFn func() // u.onCompleted, made once
}

// NewUDP creates a UDP handle. It has no socket until it is bound (explicitly or
// implicitly, see UDP). It fails with ErrClosed on a closed loop.
func (l *Loop) NewUDP() (*UDP, error) {
	if l.closed {
		return nil, ErrClosed
	}
	u := &UDP{fd: -1}
	u.runCompletedFn = u.onCompleted
	u.handle.init(l, u, KindUDP)
	return u, nil
}

// Fd returns the socket's file descriptor, or -1 if there is none yet (or any more).
func (u *UDP) Fd() int { return u.fd }

// Open adopts fd, an IPv4 or IPv6 datagram socket (bound or not, connected or not), as the
// handle's socket and takes ownership of it: Close closes it (uv_udp_open). It is made
// non-blocking and its address reusable (SO_REUSEADDR), as libuv does; a connected socket
// sends without an address. It fails with an error wrapping EBUSY if the handle has a socket
// already, wrapping both ErrFdInUse and EEXIST if another handle of the loop watches fd, and
// wrapping EINVAL for a socket of another family.
func (u *UDP) Open(fd int) error {
	if err := u.usable(); err != nil {
		return err
	}
	if fd < 0 {
		return ErrBadFd
	}
	if u.fd >= 0 {
		return os.NewSyscallError("open", syscall.EBUSY)
	}
	local, _, err := sock.Sockname(fd)
	if err != nil {
		return os.NewSyscallError("getsockname", err)
	}
	family := sock.FamilyOf(local.Addr())
	if family == 0 {
		return os.NewSyscallError("open", syscall.EINVAL)
	}
	if err := sock.SetNonblock(fd); err != nil {
		return os.NewSyscallError("fcntl", err)
	}
	if err := sock.SetReuseAddrDgram(fd); err != nil {
		return os.NewSyscallError("setsockopt", err)
	}
	if err := u.loop.io.attach(&u.io, fd, u.ready); err != nil {
		return err
	}
	u.fd, u.family = fd, family
	_, _, err = sock.Peername(fd)
	u.connected = err == nil
	return nil
}

// Bind binds the socket to addr (port 0: the system picks one), creating it for addr's
// family. Binding a handle whose socket exists fails as the system says (EINVAL if it is
// already bound); so do an address of another family than the socket's, UDPIPv6Only with an
// IPv4 address and unknown flags.
func (u *UDP) Bind(addr netip.AddrPort, flags UDPFlags) error {
	if err := u.usable(); err != nil {
		return err
	}
	if !addr.IsValid() || flags&^udpFlagsAll != 0 {
		return errUDPAddrInvalid
	}
	family := sock.FamilyOf(addr.Addr())
	if flags&UDPIPv6Only != 0 && family != sock.IPv6 {
		return errUDPAddrInvalid
	}
	created := u.fd < 0
	if created {
		if err := u.openSocket(family); err != nil {
			return err
		}
	} else if family != u.family {
		return errUDPAddrInvalid
	}
	err := u.bind(addr, flags)
	if err != nil && created {
		u.closeSocket()
	}
	return err
}

func (u *UDP) bind(addr netip.AddrPort, flags UDPFlags) error {
	if flags&UDPReuseAddr != 0 {
		if err := sock.SetReuseAddrDgram(u.fd); err != nil {
			return os.NewSyscallError("setsockopt", err)
		}
	}
	if flags&UDPReusePort != 0 {
		if err := sock.SetReusePort(u.fd); err != nil {
			return os.NewSyscallError("setsockopt", err)
		}
	}
	if u.family == sock.IPv6 {
		if flags&UDPIPv6Only != 0 {
			if err := sock.SetIPv6Only(u.fd, true); err != nil {
				return os.NewSyscallError("setsockopt", err)
			}
		} else {
			// Dual stack where the system allows it: FreeBSD defaults to IPv6 only, OpenBSD
			// is IPv6 only and refuses the option, and an already bound socket refuses it too
			// (bind then reports the second Bind).
			_ = sock.SetIPv6Only(u.fd, false)
		}
	}
	addr, scope, err := u.target(addr)
	if err != nil {
		return err
	}
	if err := sock.Bind(u.fd, addr, scope); err != nil {
		return os.NewSyscallError("bind", err)
	}
	return nil
}

// openSocket creates the socket and registers it with the loop (no interest yet).
func (u *UDP) openSocket(family int) error {
	fd, err := sock.Socket(family, sock.Datagram)
	if err != nil {
		return os.NewSyscallError("socket", err)
	}
	if err := u.loop.io.attach(&u.io, fd, u.ready); err != nil {
		sock.Close(fd)
		return err
	}
	u.fd, u.family = fd, family
	return nil
}

// closeSocket forgets and closes the socket.
func (u *UDP) closeSocket() {
	if u.fd < 0 {
		return
	}
	u.loop.io.detach(u.loop.poller, &u.io)
	sock.Close(u.fd)
	u.fd = -1
	u.io.fd = -1
}

// maybeBind binds a socket-less handle to the unspecified address of family, port 0, with
// flags (uv__udp_maybe_deferred_bind).
func (u *UDP) maybeBind(family int, flags UDPFlags) error {
	if u.fd >= 0 {
		return nil
	}
	unspec := netip.AddrPortFrom(netip.IPv4Unspecified(), 0)
	if family == sock.IPv6 {
		unspec = netip.AddrPortFrom(netip.IPv6Unspecified(), 0)
	}
	return u.Bind(unspec, flags)
}

// Connect associates the socket with addr: sends then go there (Send and TrySend take no
// address) and only datagrams from there are received. It fails with EISCONN if the handle
// is already connected (Disconnect first).
func (u *UDP) Connect(addr netip.AddrPort) error {
	if err := u.usable(); err != nil {
		return err
	}
	if !addr.IsValid() {
		return errUDPAddrInvalid
	}
	if u.connected {
		return os.NewSyscallError("connect", syscall.EISCONN)
	}
	if err := u.maybeBind(sock.FamilyOf(addr.Addr()), 0); err != nil {
		return err
	}
	addr, scope, err := u.target(addr)
	if err != nil {
		return err
	}
	if err := sock.Connect(u.fd, addr, scope); err != nil {
		return os.NewSyscallError("connect", err)
	}
	u.connected = true
	return nil
}

// Disconnect dissolves the association made by Connect. It fails with ENOTCONN if the
// handle is not connected.
func (u *UDP) Disconnect() error {
	if err := u.usable(); err != nil {
		return err
	}
	if !u.connected {
		return errUDPNotConn
	}
	if err := sock.Disconnect(u.fd); err != nil {
		return os.NewSyscallError("connect", err)
	}
	u.connected = false
	return nil
}

// Send queues data for to (the zero AddrPort on a connected handle) and calls cb (which may
// be nil) with the outcome in a later pending phase. data must not change until cb runs.
// Send itself fails, without queueing, on a closed handle, with EISCONN when given an address
// on a connected handle, EDESTADDRREQ without one on an unconnected handle, and EAFNOSUPPORT
// for an address the socket's family cannot reach. A datagram too large for the socket
// (EMSGSIZE) or a refused one on a connected socket (ECONNREFUSED, after an earlier
// datagram drew an ICMP port unreachable) reports to cb.
func (u *UDP) Send(data []byte, to netip.AddrPort, cb func(error)) error {
	to, scope, err := u.prepareSend(to)
	if err != nil {
		return err
	}
	u.queue.Push(udpSend{data: data, to: to, scope: scope, cb: cb})
	u.queueBytes += len(data)
	u.loop.reqStart(ReqUDPSend)
	u.handle.start()
	if u.queue.Len() == 1 && !u.processing {
		u.flushSends()
	} else {
		u.loop.io.start(&u.io, Writable)
	}
	return nil
}

// TrySend sends data to to (the zero AddrPort on a connected handle) at once, or fails: with
// an error wrapping EAGAIN if the socket's buffer is full or sends are still queued (their
// callbacks not yet run), and otherwise as Send does, with the system's error (EMSGSIZE,
// ECONNREFUSED, ...) returned here.
func (u *UDP) TrySend(data []byte, to netip.AddrPort) error {
	if err := u.usable(); err != nil {
		return err
	}
	if u.SendQueueCount() > 0 { // before any implicit bind, as libuv
		return errUDPAgain
	}
	to, scope, err := u.prepareSend(to)
	if err != nil {
		return err
	}
	if to.IsValid() {
		u.sa.Set(to, scope)
		err = sock.Sendto(u.fd, data, &u.sa)
	} else {
		err = sock.Sendto(u.fd, data, nil)
	}
	switch err {
	case nil:
		return nil
	case syscall.EAGAIN, syscall.ENOBUFS: // as libuv: both mean "try later"
		return errUDPAgain
	}
	return os.NewSyscallError("sendto", err)
}

// prepareSend checks a send's destination, binds the socket if need be, and returns the
// destination in the socket's family.
func (u *UDP) prepareSend(to netip.AddrPort) (netip.AddrPort, uint32, error) {
	if err := u.usable(); err != nil {
		return to, 0, err
	}
	if u.connected {
		if to.IsValid() {
			return to, 0, errUDPIsConn
		}
		return to, 0, nil
	}
	if !to.IsValid() {
		return to, 0, errUDPNoDest
	}
	if err := u.maybeBind(sock.FamilyOf(to.Addr()), 0); err != nil {
		return to, 0, err
	}
	return u.target(to)
}

// target converts to to the socket's family: an IPv4 address becomes IPv4-mapped on an IPv6
// socket, an IPv4-mapped one plain on an IPv4 socket; a zone becomes the scope.
func (u *UDP) target(to netip.AddrPort) (netip.AddrPort, uint32, error) {
	a := to.Addr()
	if u.family == sock.IPv4 {
		a = a.Unmap()
		if !a.Is4() {
			return to, 0, errUDPFamily
		}
		return netip.AddrPortFrom(a, to.Port()), 0, nil
	}
	if a.Is4() {
		return netip.AddrPortFrom(netip.AddrFrom16(a.As16()), to.Port()), 0, nil
	}
	var scope uint32
	if z := a.Zone(); z != "" {
		var err error
		if scope, err = sock.ZoneIndex(z); err != nil {
			return to, 0, err
		}
		a = a.WithZone("")
	}
	return netip.AddrPortFrom(a, to.Port()), scope, nil
}

// flushSends writes queued sends until the queue is empty or the socket's buffer is full, and
// queues the completions for the pending phase (uv__udp_sendmsg).
func (u *UDP) flushSends() {
	for u.queue.Len() > 0 {
		s := u.queue.Front()
		var err error
		if s.to.IsValid() {
			u.sa.Set(s.to, s.scope)
			err = sock.Sendto(u.fd, s.data, &u.sa)
		} else {
			err = sock.Sendto(u.fd, s.data, nil)
		}
		switch err {
		case nil:
		case syscall.EAGAIN, syscall.ENOBUFS: // as libuv: wait for writability
			u.loop.io.start(&u.io, Writable)
			u.scheduleCompleted()
			return
		default:
			s.err = os.NewSyscallError("sendto", err)
		}
		u.complete(s)
	}
	u.loop.io.stop(&u.io, Writable)
	u.scheduleCompleted()
}

// complete moves the send at the front of the queue to the completed list.
func (u *UDP) complete(s *udpSend) {
	u.queueBytes -= len(s.data)
	u.done.Push(*s)
	u.queue.Pop()
}

func (u *UDP) scheduleCompleted() {
	if u.done.Len() > 0 && !u.completing {
		u.completing = true
		u.loop.deferPending(u.runCompletedFn)
	}
}

// onCompleted is runCompleted in the pending phase. A closing handle leaves the callbacks to
// its close phase, as libuv's uv__io_close takes the handle off the pending queue.
func (u *UDP) onCompleted() {
	u.completing = false
	if u.flags&flagClosing == 0 {
		u.runCompleted()
	}
}

// runCompleted runs the callbacks of the finished sends (uv__udp_run_completed). Sends made by
// these callbacks wait for writability rather than being written inline.
func (u *UDP) runCompleted() {
	if u.processing {
		return
	}
	u.processing = true
	defer u.endCompleted()
	for u.done.Len() > 0 {
		s, _ := u.done.Pop()
		u.loop.reqDone(ReqUDPSend)
		if s.cb != nil {
			s.cb(s.err)
			u.loop.afterCallback()
		}
	}
}

// endCompleted ends runCompleted, also when a callback panicked: what is left runs in the
// next pending phase (or, once the handle is closing, in the next close phase).
func (u *UDP) endCompleted() {
	u.processing = false
	if u.flags&flagClosing == 0 {
		u.scheduleCompleted()
	}
	u.updateActive()
}

// updateActive stops the handle when it neither receives nor has sends in flight.
func (u *UDP) updateActive() {
	if u.recvCb == nil && u.queue.Len() == 0 && u.done.Len() == 0 {
		u.handle.stop()
	}
}

// SendQueueSize returns the number of bytes queued and not yet written.
func (u *UDP) SendQueueSize() int { return u.queueBytes }

// SendQueueCount returns the number of sends whose callback has not run yet.
func (u *UDP) SendQueueCount() int { return u.queue.Len() + u.done.Len() }

// RecvStart starts receiving: cb runs for every datagram with its payload (valid only until
// cb returns) and its sender, or with a non-nil err (data nil) when a receive fails — for
// example ECONNREFUSED on a connected socket after a datagram drew an ICMP port unreachable.
// An empty datagram arrives as an empty data with a valid from. A handle without a socket is
// bound to 0.0.0.0:0 first. It fails with EALREADY while receiving.
func (u *UDP) RecvStart(cb func(u *UDP, data []byte, from netip.AddrPort, err error)) error {
	if err := u.usable(); err != nil {
		return err
	}
	if cb == nil {
		return ErrNilCallback
	}
	if u.recvCb != nil {
		return errUDPAlready
	}
	if err := u.maybeBind(sock.IPv4, 0); err != nil {
		return err
	}
	if u.rbuf == nil {
		u.rbuf = u.loop.udpRecvBuffer()
	}
	u.recvCb = cb
	u.loop.io.start(&u.io, Readable)
	u.handle.start()
	return nil
}

// udpRecvBuffer returns the receive buffer the loop's UDP handles share, making it if none
// of them has it yet. Callbacks run one at a time, so one buffer serves them all.
func (l *Loop) udpRecvBuffer() *[udpRecvBufSize]byte {
	for h := l.handles.head; h != nil; h = h.next {
		if o, ok := h.self.(*UDP); ok && o.rbuf != nil {
			return o.rbuf
		}
	}
	return new([udpRecvBufSize]byte)
}

// RecvStop stops receiving. Datagrams that arrive meanwhile wait in the socket's buffer.
func (u *UDP) RecvStop() error {
	if u.recvCb == nil {
		return nil
	}
	u.recvCb = nil
	u.loop.io.stop(&u.io, Readable)
	u.updateActive()
	return nil
}

// closeStart stops receiving and closes the socket at once (uv__udp_close).
func (u *UDP) closeStart() {
	u.recvCb = nil
	u.closeSocket()
}

// closeFinish runs, in order, the callbacks of the sends already written (or failed), with
// their outcome, then those of the sends not yet written, with an error wrapping ECANCELED
// (uv__udp_finish_close). If one panics, the rest run in the next close phase, before the
// close callback.
func (u *UDP) closeFinish() {
	for u.queue.Len() > 0 {
		s := u.queue.Front()
		s.err = errUDPCanceled
		u.complete(s)
	}
	u.runCompleted()
	u.rbuf = nil
}

// ready is the socket's readiness dispatch.
func (u *UDP) ready(events Events, err error) {
	if err != nil { // the poller refused the socket: nothing more can arrive or leave
		u.failAll(err)
		return
	}
	fd := u.fd
	if events&(Readable|Hangup|Error) != 0 && u.recvCb != nil {
		u.receive()
	}
	if events&(Writable|Error) != 0 && u.fd == fd && u.queue.Len() > 0 {
		u.flushSends()
	}
}

// receive reads up to udpRecvBatch datagrams, stopping early when the handle stops receiving.
func (u *UDP) receive() {
	fd := u.fd
	for i := 0; i < udpRecvBatch && u.recvCb != nil && u.fd == fd; i++ {
		buf := u.rbuf[:]
		n, err := sock.Recvfrom(fd, buf, &u.sa)
		switch err {
		case nil:
		case syscall.EAGAIN:
			return
		default:
			u.recvCb(u, nil, netip.AddrPort{}, os.NewSyscallError("recvfrom", err))
			u.loop.afterCallback()
			return
		}
		from, scope := u.sa.AddrPort()
		if scope != 0 {
			from = udpNumericZone(from, scope)
		}
		u.recvCb(u, buf[:n:n], from, nil)
		u.loop.afterCallback()
	}
}

// failAll reports a failure of the socket's registration to the receiver and to every
// queued send.
func (u *UDP) failAll(err error) {
	for u.queue.Len() > 0 {
		s := u.queue.Front()
		s.err = err
		u.complete(s)
	}
	u.scheduleCompleted()
	if cb := u.recvCb; cb != nil {
		u.RecvStop()
		cb(u, nil, netip.AddrPort{}, err)
	}
}

// LocalAddr returns the address the socket is bound to.
func (u *UDP) LocalAddr() (netip.AddrPort, error) {
	fd, err := u.socket()
	if err != nil {
		return netip.AddrPort{}, err
	}
	ap, scope, err := sock.Sockname(fd)
	if err != nil {
		return netip.AddrPort{}, os.NewSyscallError("getsockname", err)
	}
	return udpNumericZone(ap, scope), nil
}

// RemoteAddr returns the address the handle is connected to; ENOTCONN if it is not.
func (u *UDP) RemoteAddr() (netip.AddrPort, error) {
	fd, err := u.socket()
	if err != nil {
		return netip.AddrPort{}, err
	}
	if !u.connected {
		return netip.AddrPort{}, os.NewSyscallError("getpeername", syscall.ENOTCONN)
	}
	ap, scope, err := sock.Peername(fd)
	if err != nil {
		return netip.AddrPort{}, os.NewSyscallError("getpeername", err)
	}
	return udpNumericZone(ap, scope), nil
}

// socket returns the fd for an option or an address query: ErrClosed on a closed handle,
// EBADF before the socket exists.
func (u *UDP) socket() (int, error) {
	if err := u.usable(); err != nil {
		return -1, err
	}
	if u.fd < 0 {
		return -1, errUDPNoSocket
	}
	return u.fd, nil
}

// sockopt runs set with the socket and its family, and wraps its failure as setsockopt's.
func (u *UDP) sockopt(set func(fd, family int) error) error {
	fd, err := u.socket()
	if err != nil {
		return err
	}
	if err := set(fd, u.family); err != nil {
		return os.NewSyscallError("setsockopt", err)
	}
	return nil
}

// SetBroadcast allows or forbids sending to broadcast addresses (SO_BROADCAST).
func (u *UDP) SetBroadcast(on bool) error {
	return u.sockopt(func(fd, _ int) error { return sock.SetBroadcast(fd, on) })
}

// SetTTL sets the time to live (IPv4) or hop limit (IPv6) of unicast datagrams, 1 to 255.
func (u *UDP) SetTTL(ttl int) error {
	if ttl < 1 || ttl > 255 {
		return errUDPAddrInvalid
	}
	return u.sockopt(func(fd, family int) error { return sock.SetTTL(fd, family, ttl) })
}

// SetMulticastTTL sets the time to live (hop limit) of multicast datagrams, 0 to 255.
func (u *UDP) SetMulticastTTL(ttl int) error {
	if ttl < 0 || ttl > 255 {
		return errUDPAddrInvalid
	}
	return u.sockopt(func(fd, family int) error { return sock.SetMulticastTTL(fd, family, ttl) })
}

// SetMulticastLoop sets whether multicast datagrams sent are looped back to local receivers.
func (u *UDP) SetMulticastLoop(on bool) error {
	return u.sockopt(func(fd, family int) error { return sock.SetMulticastLoop(fd, family, on) })
}

// SetMulticastInterface selects the interface multicast datagrams leave by: on an IPv4 socket
// the interface with address iface, on an IPv6 socket the interface named by iface's zone
// ("fe80::1%eth0" or "::%2"). The zero Addr restores the system's choice.
func (u *UDP) SetMulticastInterface(iface netip.Addr) error {
	fd, err := u.socket()
	if err != nil {
		return err
	}
	if u.family == sock.IPv4 {
		var a [4]byte
		if iface.IsValid() {
			if iface = iface.Unmap(); !iface.Is4() {
				return errUDPAddrInvalid
			}
			a = iface.As4()
		}
		if err := sock.SetMulticastInterface4(fd, a); err != nil {
			return os.NewSyscallError("setsockopt", err)
		}
		return nil
	}
	idx, err := sock.ZoneIndex(iface.Zone())
	if err != nil {
		return err
	}
	if err := sock.SetMulticastInterface6(fd, idx); err != nil {
		return os.NewSyscallError("setsockopt", err)
	}
	return nil
}

// JoinGroup joins the multicast group on the interface iface (as in SetMulticastInterface;
// the zero Addr lets the system choose). A handle without a socket is bound to the group's
// family first.
func (u *UDP) JoinGroup(group, iface netip.Addr) error { return u.membership(group, iface, true) }

// LeaveGroup leaves a multicast group joined with JoinGroup.
func (u *UDP) LeaveGroup(group, iface netip.Addr) error { return u.membership(group, iface, false) }

func (u *UDP) membership(group, iface netip.Addr, join bool) error {
	if err := u.usable(); err != nil {
		return err
	}
	if !group.IsValid() || !group.IsMulticast() {
		return errUDPAddrInvalid
	}
	// A group's receivers share its port: the implicit bind reuses the address, as libuv's.
	if err := u.maybeBind(sock.FamilyOf(group), UDPReuseAddr); err != nil {
		return err
	}
	var err error
	if group.Is4() {
		if u.family != sock.IPv4 {
			return errUDPFamily
		}
		var a [4]byte
		if iface.IsValid() {
			if iface = iface.Unmap(); !iface.Is4() {
				return errUDPAddrInvalid
			}
			a = iface.As4()
		}
		err = sock.Membership4(u.fd, group.As4(), a, join)
	} else {
		if u.family != sock.IPv6 {
			return errUDPFamily
		}
		idx, ierr := sock.ZoneIndex(iface.Zone())
		if ierr != nil {
			return ierr
		}
		err = sock.Membership6(u.fd, group.As16(), idx, join)
	}
	if err != nil {
		return os.NewSyscallError("setsockopt", err)
	}
	return nil
}

// udpNumericZone gives ap the zone of an IPv6 scope as a number ("fe80::1%2"): no lookup of
// the interface's name on the receive path.
func udpNumericZone(ap netip.AddrPort, scope uint32) netip.AddrPort {
	if scope == 0 {
		return ap
	}
	return netip.AddrPortFrom(ap.Addr().WithZone(strconv.FormatUint(uint64(scope), 10)), ap.Port())
}
