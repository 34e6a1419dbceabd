package nodenet

import (
	"errors"
	"net/netip"
	"strconv"
	"syscall"

	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/uvloop"
)

// DgramSocket is Node's dgram.Socket over a uvloop UDP handle. Loop goroutine only.
//
// Events (Emit arguments in brackets), in Node's order:
//
//	"listening"                   the socket is bound and receiving: from a nextTick after
//	                              Bind (Node's lookup of the address), or after the first
//	                              Send or Connect bound it implicitly
//	"message" [[]byte, RemoteInfo] a datagram, from the poll phase; the bytes are a copy
//	                              the listener owns
//	"connect"                     from a nextTick once Connect is done
//	"error" [error]               a bind, connect, send (without a callback) or receive
//	                              failure
//	"close"                       from a nextTick after Close
//
// A send that the kernel takes at once calls back from a nextTick with the byte count; one
// that has to wait calls back from the pending phase once written.
type DgramSocket struct {
	EventEmitter

	// ReuseAddr lets several sockets bind the same address and port (Node's reuseAddr
	// option); IPv6Only keeps a "udp6" socket from IPv4 traffic (ipv6Only). Set them before
	// Bind.
	ReuseAddr bool
	IPv6Only  bool

	loop   *uvloop.Loop
	h      *uvloop.UDP // nil once closed
	family int         // 4 or 6

	bindState    int8 // 0 unbound, 1 binding, 2 bound
	connectState int8 // 0 disconnected, 1 connecting, 2 connected
	queue        []func()
	closed       bool
}

// RemoteInfo is the sender of a datagram (Node's rinfo).
type RemoteInfo struct {
	Address string
	Family  string // "IPv4" or "IPv6"
	Port    int
	Size    int
}

// Errors of dgram, with Node's codes and messages.
var (
	// ErrBadSocketType: CreateDgramSocket with a type other than "udp4" or "udp6".
	ErrBadSocketType = &Error{Code: "ERR_SOCKET_BAD_TYPE", Message: "Bad socket type specified. Valid types are: udp4, udp6"}
	// ErrSocketAlreadyBound: Bind of a bound (or binding) socket.
	ErrSocketAlreadyBound = &Error{Code: "ERR_SOCKET_ALREADY_BOUND", Message: "Socket is already bound"}
	// ErrDgramNotRunning: a call on a closed socket.
	ErrDgramNotRunning = &Error{Code: "ERR_SOCKET_DGRAM_NOT_RUNNING", Message: "Not running"}
	// ErrDgramIsConnected: Connect of a connected socket, or Send with an address on one.
	ErrDgramIsConnected = &Error{Code: "ERR_SOCKET_DGRAM_IS_CONNECTED", Message: "Already connected"}
	// ErrDgramNotConnected: Disconnect or RemoteAddress of a socket that is not connected.
	ErrDgramNotConnected = &Error{Code: "ERR_SOCKET_DGRAM_NOT_CONNECTED", Message: "Not connected"}
)

// CreateDgramSocket is dgram.createSocket(type, listener): typ is "udp4" or "udp6";
// onMessage, if not nil, is an On("message") listener.
func CreateDgramSocket(l *uvloop.Loop, typ string, onMessage func(msg []byte, rinfo RemoteInfo)) (*DgramSocket, error) {
	fam := 0
	switch typ {
	case "udp4":
		fam = 4
	case "udp6":
		fam = 6
	default:
		return nil, ErrBadSocketType
	}
	h, err := l.NewUDP()
	if err != nil {
		return nil, err
	}
	s := &DgramSocket{loop: l, h: h, family: fam}
	if onMessage != nil {
		s.OnMessage(onMessage)
	}
	return s, nil
}

func (s *DgramSocket) any() netip.Addr {
	if s.family == 6 {
		return netip.IPv6Unspecified()
	}
	return netip.IPv4Unspecified()
}

func (s *DgramSocket) lookup(address string, cb func(ip netip.Addr, err error)) {
	err := nodedns.Lookup(s.loop, address, &nodedns.LookupOptions{Family: s.family}, func(err error, addr string, _ int) {
		if err != nil {
			cb(netip.Addr{}, err)
			return
		}
		if addr == "" { // an empty name: the caller picks
			cb(netip.Addr{}, nil)
			return
		}
		ip, perr := netip.ParseAddr(addr)
		if perr != nil {
			cb(netip.Addr{}, perr)
			return
		}
		cb(ip, nil)
	})
	if err != nil {
		s.loop.NextTick(func() { cb(netip.Addr{}, err) })
	}
}

// Bind is socket.bind(port, address, callback): the socket is bound once address ("" is
// every address of the family) is looked up, from a nextTick for an IP address, then it
// receives and emits "listening"; cb, if not nil, is a Once("listening") listener. A
// failure is emitted as "error" ("bind EADDRINUSE 0.0.0.0:41234"). It fails at once with
// ErrSocketAlreadyBound or ErrDgramNotRunning.
func (s *DgramSocket) Bind(port int, address string, cb func()) error {
	if s.h == nil {
		return ErrDgramNotRunning
	}
	if s.bindState != 0 {
		return ErrSocketAlreadyBound
	}
	if err := checkPort(port); err != nil {
		return err
	}
	if cb != nil {
		s.Once("listening", func(...any) { cb() })
	}
	s.bindState = 1
	s.lookup(address, func(ip netip.Addr, err error) {
		if s.h == nil {
			return
		}
		if err != nil {
			s.bindState = 0
			s.Emit("error", err)
			return
		}
		if !ip.IsValid() || address == "" {
			ip = s.any()
		}
		var flags uvloop.UDPFlags
		if s.ReuseAddr {
			flags |= uvloop.UDPReuseAddr
		}
		if s.IPv6Only {
			flags |= uvloop.UDPIPv6Only
		}
		if err := s.h.Bind(netip.AddrPortFrom(ip, uint16(port)), flags); err != nil {
			s.bindState = 0
			s.Emit("error", sysError(err, "bind", ip.String(), port))
			return
		}
		s.startListening()
	})
	return nil
}

func (s *DgramSocket) startListening() {
	if err := s.h.RecvStart(s.onRecv); err != nil {
		s.bindState = 0
		s.Emit("error", sysError(err, "recvStart", "", 0))
		return
	}
	s.bindState = 2
	s.Emit("listening")
	q := s.queue
	s.queue = nil
	for _, fn := range q {
		fn()
	}
}

// bindImplicitly binds an unbound socket to port 0 of every address, and runs fn once it is
// bound (Node's queue of sends made before "listening").
func (s *DgramSocket) whenBound(fn func()) {
	if s.bindState == 2 {
		fn()
		return
	}
	if s.bindState == 0 {
		s.Bind(0, "", nil)
	}
	s.queue = append(s.queue, fn)
}

func (s *DgramSocket) onRecv(_ *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
	if err != nil {
		s.Emit("error", sysError(err, "recvmsg", "", 0))
		return
	}
	msg := append([]byte(nil), data...)
	s.Emit("message", msg, RemoteInfo{Address: from.Addr().String(), Family: family(from.Addr()), Port: int(from.Port()), Size: len(data)})
}

// Send is socket.send(msg, port, address, callback): msg goes as one datagram to
// address:port ("" is 127.0.0.1 for udp4, ::1 for udp6), or, on a connected socket, with
// port 0 and address "", to its peer. An unbound socket is bound first (to port 0), as in
// Node. cb, if not nil, gets (nil, len(msg)) once sent, or the error ("send ECONNREFUSED
// 127.0.0.1:41234"); without cb a failure is emitted as "error". msg must not change until
// cb runs. It fails at once with ErrDgramNotRunning, or ErrDgramIsConnected for an address
// on a connected socket.
func (s *DgramSocket) Send(msg []byte, port int, address string, cb func(err error, bytes int)) error {
	if s.h == nil {
		return ErrDgramNotRunning
	}
	connected := s.connectState == 2
	if connected && (port != 0 || address != "") {
		return ErrDgramIsConnected
	}
	if !connected {
		if err := checkPort(port); err != nil {
			return err
		}
		if port == 0 {
			return &Error{Code: "ERR_SOCKET_BAD_PORT", Message: "Port should be > 0 and < 65536. Received type number (0)."}
		}
		if address == "" {
			address = "127.0.0.1"
			if s.family == 6 {
				address = "::1"
			}
		}
	}
	s.whenBound(func() {
		if connected {
			s.doSend(msg, netip.AddrPort{}, "", 0, cb)
			return
		}
		s.lookup(address, func(ip netip.Addr, err error) {
			if s.h == nil {
				return
			}
			if err != nil {
				s.fail(err, cb)
				return
			}
			s.doSend(msg, netip.AddrPortFrom(ip, uint16(port)), ip.String(), port, cb)
		})
	})
	return nil
}

// SendString is Send of a string.
func (s *DgramSocket) SendString(msg string, port int, address string, cb func(err error, bytes int)) error {
	return s.Send([]byte(msg), port, address, cb)
}

func (s *DgramSocket) fail(err error, cb func(error, int)) {
	if cb != nil {
		s.loop.NextTick(func() { cb(err, 0) })
		return
	}
	s.loop.NextTick(func() { s.Emit("error", err) })
}

// doSend is Node's doSend: a send the kernel takes at once calls back from a nextTick.
func (s *DgramSocket) doSend(msg []byte, to netip.AddrPort, host string, port int, cb func(error, int)) {
	n := len(msg)
	err := s.h.TrySend(msg, to)
	if err == nil {
		if cb != nil {
			s.loop.NextTick(func() { cb(nil, n) })
		}
		return
	}
	if !errors.Is(err, syscall.EAGAIN) {
		s.fail(sysError(err, "send", host, port), cb)
		return
	}
	err = s.h.Send(msg, to, func(err error) {
		if cb == nil {
			return
		}
		if err != nil {
			cb(sysError(err, "send", host, port), 0)
			return
		}
		cb(nil, n)
	})
	if err != nil {
		s.fail(sysError(err, "send", host, port), cb)
	}
}

// Connect is socket.connect(port, address, callback): datagrams go to address:port ("" is
// 127.0.0.1 for udp4, ::1 for udp6) and only its datagrams are received. "connect" (cb, if
// not nil, is a Once("connect") listener) comes from a nextTick once done; a failure goes to
// cb, or to "error" without one. An unbound socket is bound first. It fails at once with
// ErrDgramIsConnected if the socket is connected or connecting.
func (s *DgramSocket) Connect(port int, address string, cb func(err error)) error {
	if s.h == nil {
		return ErrDgramNotRunning
	}
	if s.connectState != 0 {
		return ErrDgramIsConnected
	}
	if err := checkPort(port); err != nil {
		return err
	}
	if address == "" {
		address = "127.0.0.1"
		if s.family == 6 {
			address = "::1"
		}
	}
	var l *Listener
	if cb != nil {
		l = s.Once("connect", func(...any) { cb(nil) })
	}
	s.connectState = 1
	s.whenBound(func() {
		s.lookup(address, func(ip netip.Addr, err error) {
			if s.h == nil {
				return
			}
			if err == nil {
				if cerr := s.h.Connect(netip.AddrPortFrom(ip, uint16(port))); cerr != nil {
					err = sysError(cerr, "connect", ip.String(), port)
				}
			}
			if err != nil {
				s.connectState = 0
				s.loop.NextTick(func() {
					if cb != nil {
						s.Off("connect", l)
						cb(err)
						return
					}
					s.Emit("error", err)
				})
				return
			}
			s.connectState = 2
			s.loop.NextTick(func() { s.Emit("connect") })
		})
	})
	return nil
}

// Disconnect is socket.disconnect(): the socket sends and receives anywhere again.
func (s *DgramSocket) Disconnect() error {
	if s.h == nil {
		return ErrDgramNotRunning
	}
	if s.connectState != 2 {
		return ErrDgramNotConnected
	}
	if err := s.h.Disconnect(); err != nil {
		return sysError(err, "disconnect", "", 0)
	}
	s.connectState = 0
	return nil
}

// RemoteAddress is socket.remoteAddress(): the peer of a connected socket.
func (s *DgramSocket) RemoteAddress() (*AddressInfo, error) {
	if s.h == nil {
		return nil, ErrDgramNotRunning
	}
	if s.connectState != 2 {
		return nil, ErrDgramNotConnected
	}
	ap, err := s.h.RemoteAddr()
	if err != nil {
		return nil, sysError(err, "getpeername", "", 0)
	}
	return addressInfo(ap), nil
}

// Address is socket.address(): where the socket is bound ("getsockname EBADF" before).
func (s *DgramSocket) Address() (*AddressInfo, error) {
	if s.h == nil {
		return nil, ErrDgramNotRunning
	}
	ap, err := s.h.LocalAddr()
	if err != nil {
		return nil, sysError(err, "getsockname", "", 0)
	}
	return addressInfo(ap), nil
}

// Close is socket.close(callback): the socket stops at once; "close" (cb, if not nil, is a
// Once("close") listener) follows from a nextTick. A second Close fails with
// ErrDgramNotRunning.
func (s *DgramSocket) Close(cb func()) error {
	if s.h == nil {
		return ErrDgramNotRunning
	}
	if cb != nil {
		s.Once("close", func(...any) { cb() })
	}
	h := s.h
	s.h = nil
	s.queue = nil
	s.bindState, s.connectState = 0, 0
	h.Close(nil)
	s.loop.NextTick(func() { s.Emit("close") })
	return nil
}

func (s *DgramSocket) opt(name string, set func(h *uvloop.UDP) error) error {
	if s.h == nil {
		return ErrDgramNotRunning
	}
	if err := set(s.h); err != nil {
		return sysError(err, name, "", 0)
	}
	return nil
}

// SetBroadcast is socket.setBroadcast(flag) (SO_BROADCAST). Call it once bound.
func (s *DgramSocket) SetBroadcast(on bool) error {
	return s.opt("setBroadcast", func(h *uvloop.UDP) error { return h.SetBroadcast(on) })
}

// SetTTL is socket.setTTL(ttl), 1 to 255.
func (s *DgramSocket) SetTTL(ttl int) error {
	return s.opt("setTTL", func(h *uvloop.UDP) error { return h.SetTTL(ttl) })
}

// SetMulticastTTL is socket.setMulticastTTL(ttl), 0 to 255.
func (s *DgramSocket) SetMulticastTTL(ttl int) error {
	return s.opt("setMulticastTTL", func(h *uvloop.UDP) error { return h.SetMulticastTTL(ttl) })
}

// SetMulticastLoopback is socket.setMulticastLoopback(flag).
func (s *DgramSocket) SetMulticastLoopback(on bool) error {
	return s.opt("setMulticastLoopback", func(h *uvloop.UDP) error { return h.SetMulticastLoop(on) })
}

// SetMulticastInterface is socket.setMulticastInterface(multicastInterface): an IPv4
// interface address, or for udp6 "::%eth0" (the zone names the interface).
func (s *DgramSocket) SetMulticastInterface(iface string) error {
	ip, err := netip.ParseAddr(iface)
	if err != nil {
		return &Error{Code: "EINVAL", Message: "setMulticastInterface EINVAL", Syscall: "setMulticastInterface", Err: syscall.EINVAL}
	}
	return s.opt("setMulticastInterface", func(h *uvloop.UDP) error { return h.SetMulticastInterface(ip) })
}

func parseMembership(group, iface string) (netip.Addr, netip.Addr, error) {
	g, err := netip.ParseAddr(group)
	if err != nil {
		return g, netip.Addr{}, &Error{Code: "ERR_INVALID_ARG_TYPE", Message: "The \"multicastAddress\" argument must be an IP address. Received " + strconv.Quote(group)}
	}
	var i netip.Addr
	if iface != "" {
		if i, err = netip.ParseAddr(iface); err != nil {
			return g, i, &Error{Code: "EINVAL", Message: "addMembership EINVAL", Syscall: "addMembership", Err: syscall.EINVAL}
		}
	}
	return g, i, nil
}

// AddMembership is socket.addMembership(multicastAddress, multicastInterface): join the
// group on the interface with that address ("" lets the system choose).
func (s *DgramSocket) AddMembership(group, iface string) error {
	g, i, err := parseMembership(group, iface)
	if err != nil {
		return err
	}
	return s.opt("addMembership", func(h *uvloop.UDP) error { return h.JoinGroup(g, i) })
}

// DropMembership is socket.dropMembership(multicastAddress, multicastInterface).
func (s *DgramSocket) DropMembership(group, iface string) error {
	g, i, err := parseMembership(group, iface)
	if err != nil {
		return err
	}
	return s.opt("dropMembership", func(h *uvloop.UDP) error { return h.LeaveGroup(g, i) })
}

// Ref and Unref: whether the socket keeps the loop alive.
func (s *DgramSocket) Ref() *DgramSocket {
	if s.h != nil {
		s.h.Ref()
	}
	return s
}

func (s *DgramSocket) Unref() *DgramSocket {
	if s.h != nil {
		s.h.Unref()
	}
	return s
}

// OnMessage adds a "message" listener.
func (s *DgramSocket) OnMessage(fn func(msg []byte, rinfo RemoteInfo)) *Listener {
	return s.On("message", func(a ...any) { fn(a[0].([]byte), a[1].(RemoteInfo)) })
}

// OnListening adds a "listening" listener.
func (s *DgramSocket) OnListening(fn func()) *Listener {
	return s.On("listening", func(...any) { fn() })
}

// OnError adds an "error" listener.
func (s *DgramSocket) OnError(fn func(err error)) *Listener {
	return s.On("error", func(a ...any) { fn(a[0].(error)) })
}

// OnClose adds a "close" listener.
func (s *DgramSocket) OnClose(fn func()) *Listener { return s.On("close", func(...any) { fn() }) }
