package http1

import (
	"errors"
	"net/netip"

	"github.com/uvgo/uvgo/uvloop"
)

// Conn is one connection of a Server, as the hooks (OnConnection, ClientErrorHandler) and
// Request.Conn see it: its addresses, and ways to write raw bytes to it, end it and
// destroy it. A Conn is valid until its close callback (SetOnClose) has run; loop
// goroutine only.
type Conn struct {
	c *conn
}

// ErrConnClosed is returned by the methods of a Conn that is closed or closing.
var ErrConnClosed = errors.New("http1: connection closed")

// Stream returns the connection's stream (a *uvloop.TCP or *uvloop.Pipe). It belongs to
// the server: read it, write it or close it only through the Conn.
func (k *Conn) Stream() uvloop.Stream { return k.c.st }

// RemoteAddr returns the peer's address (the zero AddrPort for a pipe).
func (k *Conn) RemoteAddr() netip.AddrPort {
	if k.c.tcp == nil {
		return netip.AddrPort{}
	}
	ap, _ := k.c.tcp.RemoteAddr()
	return ap
}

// LocalAddr returns the connection's local address (the zero AddrPort for a pipe).
func (k *Conn) LocalAddr() netip.AddrPort {
	if k.c.tcp == nil {
		return netip.AddrPort{}
	}
	ap, _ := k.c.tcp.LocalAddr()
	return ap
}

// Server returns the server the connection belongs to.
func (k *Conn) Server() *Server { return k.c.s }

// Closed reports whether the connection is closed, or closing after its last response.
func (k *Conn) Closed() bool { return k.c.phase >= phaseClosing && k.c.phase != phaseUpgraded }

// Idle reports whether the connection waits for a request, having received nothing of it.
func (k *Conn) Idle() bool {
	c := k.c
	return c.phase == phaseIdle || c.phase == phaseRequest && c.p.Idle()
}

// Write gathers raw bytes for the connection, written when the current callback returns
// (after any response output gathered before them). It is meant for ClientErrorHandler,
// which answers a refused request itself; on a connection serving a request it would
// corrupt the response.
func (k *Conn) Write(p []byte) error {
	c := k.c
	if c.phase == phaseClosed || c.phase == phaseUpgraded || c.phase == phaseLinger {
		return ErrConnClosed
	}
	c.out = append(c.out, p...)
	c.queueFlush()
	return nil
}

// End writes what is gathered, then shuts the connection down (reading and dropping what
// the client still sends, up to LingerTimeout) and closes it. A response in progress is
// cut short.
func (k *Conn) End() {
	c := k.c
	if c.phase >= phaseClosing {
		return
	}
	c.endBody(errConnClosed)
	c.w.ended = true
	c.w.closeAfter = true
	c.closeNow()
}

// Destroy closes the connection at once; what is not written yet is dropped.
func (k *Conn) Destroy() { k.c.destroy(nil) }

// SetOnDestroy sets a callback to run once when the connection is destroyed (at once,
// from the call that destroys it: the client went away, a timeout, its linger ended,
// Destroy, Server.Close); not for a connection handed to OnUpgrade.
func (k *Conn) SetOnDestroy(fn func()) { k.c.onDestroy = fn }

// SetOnClose sets a callback to run once the destroyed connection's stream is closed: from
// the stream's close callback, in the loop's close phase (where Node emits a socket's
// 'close'). Set it before the connection is destroyed.
func (k *Conn) SetOnClose(fn func()) { k.c.onClose = fn }

// SetValue attaches v to the connection (for the caller's own state); Value returns it.
func (k *Conn) SetValue(v any) { k.c.value = v }

// Value returns what SetValue attached, or nil.
func (k *Conn) Value() any { return k.c.value }

// Conn returns the connection the request arrived on (nil outside a Server).
func (r *Request) Conn() *Conn {
	if r.c == nil {
		return nil
	}
	return &r.c.pub
}

// Conn returns the connection the response goes to.
func (w *Response) Conn() *Conn { return &w.c.pub }
