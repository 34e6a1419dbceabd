package nodenet

import (
	"net/netip"
	"time"

	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/uvloop"
)

// backlog is Node's default listen backlog.
const backlog = 511

// Server is Node's net.Server over a uvloop TCP or Pipe listener. Loop goroutine only.
//
// Events (Emit arguments in brackets):
//
//	"listening"            from a nextTick after the listener is set up
//	"connection" [*Socket] for each accepted connection, in the poll phase
//	"error" [error]        a listen failure (from a nextTick) or an accept failure
//	"close"                from a nextTick once Close was called and every connection
//	                       it accepted is destroyed
type Server struct {
	EventEmitter

	// AllowHalfOpen is given to the sockets the server accepts (Node's allowHalfOpen
	// option, false by default).
	AllowHalfOpen bool
	// HighWaterMark, if above 0, is both high-water marks of the sockets the server
	// accepts (Node's highWaterMark option); 16 KiB otherwise.
	HighWaterMark int
	// NoDelay turns Nagle's algorithm off on each accepted TCP connection (Node's noDelay
	// option).
	NoDelay bool
	// KeepAlive turns TCP keep-alive on for each accepted connection, with the first probe
	// after KeepAliveInitialDelay (Node's keepAlive and keepAliveInitialDelay options).
	KeepAlive             bool
	KeepAliveInitialDelay time.Duration

	loop        *uvloop.Loop
	h           uvloop.Stream // the listener; nil when not listening
	connections int           // accepted sockets not yet destroyed
}

// CreateServer is net.createServer(connectionListener); connectionListener, if not nil,
// is an On("connection") listener.
func CreateServer(l *uvloop.Loop, connectionListener func(*Socket)) *Server {
	s := &Server{loop: l}
	s.SetClass(serverClass)
	if connectionListener != nil {
		s.OnConnection(connectionListener)
	}
	return s
}

// Listen is server.listen(port, host, cb): it returns at once; cb, if not nil, is a
// Once("listening") listener. Port 0 picks a free port (see Address).
//
// Without a host the listener is set up at once on "::", dual-stack, so that IPv4 peers
// show as "::ffff:127.0.0.1" (RemoteAddress, Address), as in Node. Only when the system has
// no IPv6 (binding "::" fails) does it listen on "0.0.0.0" instead, as Node's
// createServerHandle falls back; a port already taken is reported for "::" (listen
// EADDRINUSE: address already in use :::PORT), as Node reports it. With a host the listener
// is set up once the host is looked up (nodedns.Lookup: from a nextTick for an IP address,
// from the poll phase for a name); a failed lookup emits "error" with the lookup's
// *nodedns.Error (ENOTFOUND). Either way "listening" comes from a later nextTick, or "error"
// (an *Error with Syscall "listen", Address and Port) if it failed.
func (s *Server) Listen(port int, host string, cb func()) *Server {
	if cb != nil {
		s.Once("listening", func(...any) { cb() })
	}
	if s.h != nil {
		s.loop.NextTick(func() { s.Emit("error", ErrServerAlreadyListen) })
		return s
	}
	if err := checkPort(port); err != nil { // Node throws it
		s.fail(err)
		return s
	}
	if host == "" {
		t, err := s.bindTCP(netip.IPv6Unspecified(), port)
		if err != nil { // no IPv6 here
			s.listenOrFail(netip.IPv4Unspecified(), port, "0.0.0.0")
			return s
		}
		s.listenBound(t, port, "::")
		return s
	}
	err := nodedns.Lookup(s.loop, host, nil, func(err error, address string, family int) {
		if err != nil {
			s.Emit("error", err)
			return
		}
		s.listenOrFail(netip.MustParseAddr(address), port, address)
	})
	if err != nil {
		s.loop.NextTick(func() { s.Emit("error", err) })
	}
	return s
}

func (s *Server) listenOrFail(ip netip.Addr, port int, host string) {
	t, err := s.bindTCP(ip, port)
	if err != nil {
		s.fail(uvError(err, "listen", host, port))
		return
	}
	s.listenBound(t, port, host)
}

// bindTCP is createServerHandle: a TCP handle bound to ip:port. As in libuv, a port in use
// is reported by Listen, not here.
func (s *Server) bindTCP(ip netip.Addr, port int) (*uvloop.TCP, error) {
	t, err := s.loop.NewTCP()
	if err != nil {
		return nil, err
	}
	if err = t.Bind(netip.AddrPortFrom(ip, uint16(port)), 0); err != nil {
		t.Close(nil)
		return nil, err
	}
	return t, nil
}

func (s *Server) listenBound(t *uvloop.TCP, port int, host string) {
	if err := t.Listen(backlog, s.onConnection); err != nil {
		t.Close(nil)
		s.fail(uvError(err, "listen", host, port))
		return
	}
	s.started(t)
}

func (s *Server) fail(err error) {
	s.loop.NextTick(func() { s.Emit("error", err) })
}

// ListenPath is server.listen(path, cb) over a Unix domain socket (the path must not
// exist; it is removed when the server closes).
func (s *Server) ListenPath(path string, cb func()) *Server {
	if cb != nil {
		s.Once("listening", func(...any) { cb() })
	}
	if s.h != nil {
		s.loop.NextTick(func() { s.Emit("error", ErrServerAlreadyListen) })
		return s
	}
	p, err := s.loop.NewPipe()
	if err == nil {
		if err = p.Bind(path); err == nil {
			err = p.Listen(backlog, s.onConnection)
		}
		if err != nil {
			p.Close(nil)
		}
	}
	if err != nil {
		s.fail(uvError(err, "listen", path, 0))
		return s
	}
	s.started(p)
	return s
}

func (s *Server) started(h uvloop.Stream) {
	s.h = h
	s.loop.NextTick(func() { // emitListeningNT
		if s.h != nil {
			s.Emit("listening")
		}
	})
}

// onConnection is Node's onconnection: accept, count, announce.
func (s *Server) onConnection(err error) {
	if err != nil {
		s.Emit("error", sysError(err, "accept", "", 0))
		return
	}
	sock := newSocket(s.loop)
	switch h := s.h.(type) {
	case *uvloop.TCP:
		c, err := s.loop.NewTCP()
		if err == nil {
			if err = h.Accept(c); err != nil {
				c.Close(nil)
			}
		}
		if err != nil {
			return
		}
		sock.adopt(c, s)
	case *uvloop.Pipe:
		c, err := s.loop.NewPipe()
		if err == nil {
			if err = h.Accept(c); err != nil {
				c.Close(nil)
			}
		}
		if err != nil {
			return
		}
		sock.adopt(c, s)
	default:
		return
	}
	sock.SetHighWaterMark(s.HighWaterMark, s.HighWaterMark)
	if s.NoDelay {
		sock.SetNoDelay(true)
	}
	if s.KeepAlive {
		sock.SetKeepAlive(true, s.KeepAliveInitialDelay)
	}
	s.connections++
	s.Emit("connection", sock)
}

// Close stops accepting connections (the listener is closed at once); the connections
// stay open. "close" follows, from a nextTick, once every connection the server accepted
// is destroyed. cb, if not nil, is a Once("close") listener called with nil, or with
// ErrServerNotRunning if the server was not listening.
func (s *Server) Close(cb func(err error)) *Server {
	if cb != nil {
		if s.h == nil {
			s.Once("close", func(...any) { cb(ErrServerNotRunning) })
		} else {
			s.Once("close", func(...any) { cb(nil) })
		}
	}
	if s.h != nil {
		s.h.Close(nil)
		s.h = nil
	}
	s.emitCloseIfDrained()
	return s
}

func (s *Server) emitCloseIfDrained() {
	if s.h != nil || s.connections > 0 {
		return
	}
	s.loop.NextTick(func() { s.Emit("close") })
}

// Listening reports whether the server is listening.
func (s *Server) Listening() bool { return s.h != nil }

// Connections is the number of accepted connections not yet destroyed.
func (s *Server) Connections() int { return s.connections }

// Address is the address the server listens on, or nil if it does not listen (yet: with a
// host, Listen sets up the listener from a nextTick).
func (s *Server) Address() *AddressInfo {
	switch h := s.h.(type) {
	case *uvloop.TCP:
		if ap, err := h.LocalAddr(); err == nil {
			return addressInfo(ap)
		}
	case *uvloop.Pipe:
		if p, err := h.LocalAddr(); err == nil {
			return &AddressInfo{Address: p}
		}
	}
	return nil
}

// Ref and Unref: whether the listener keeps the loop alive.
func (s *Server) Ref() *Server {
	if s.h != nil {
		s.h.Ref()
	}
	return s
}

func (s *Server) Unref() *Server {
	if s.h != nil {
		s.h.Unref()
	}
	return s
}

// OnListening adds a "listening" listener.
func (s *Server) OnListening(fn func()) *Listener { return s.On("listening", func(...any) { fn() }) }

// OnConnection adds a "connection" listener.
func (s *Server) OnConnection(fn func(*Socket)) *Listener {
	return s.On("connection", func(a ...any) { fn(a[0].(*Socket)) })
}

// OnError adds an "error" listener.
func (s *Server) OnError(fn func(err error)) *Listener {
	return s.On("error", func(a ...any) { fn(a[0].(error)) })
}

// OnClose adds a "close" listener.
func (s *Server) OnClose(fn func()) *Listener { return s.On("close", func(...any) { fn() }) }
