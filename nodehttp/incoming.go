package nodehttp

import (
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/promise"
)

// IncomingMessage is Node's http.IncomingMessage: a request as a server's "request"
// listener gets it, or a response as a client's "response" listener gets it. It is a
// Readable stream of the body, with Node's timing (see the package documentation).
// Loop goroutine only.
//
// Events (Emit arguments in brackets; the typed On* methods wrap them):
//
//	"data" [[]byte]  a chunk of the body, a fresh copy the listener owns; a "data"
//	                 listener makes the message flow, from a nextTick
//	"end"            the body was read to its end: from a nextTick
//	"aborted"        the message was destroyed before its end
//	"error" [error]  destroyed with an error, if there is a listener
//	"close"          two ticks after "end" (or after the connection closed)
type IncomingMessage struct {
	nodenet.EventEmitter

	// Method and URL are the request's (server side): "GET", "/path?query".
	Method, URL string
	// StatusCode and StatusMessage are the response's (client side).
	StatusCode    int
	StatusMessage string
	// HTTPVersion is "1.1" or "1.0".
	HTTPVersion                        string
	HTTPVersionMajor, HTTPVersionMinor int
	// RawHeaders is the header fields as received: name, value, name, value...
	RawHeaders []string
	// RawTrailers is the trailer fields of a chunked body, set by "end".
	RawTrailers []string
	// Complete is set once the whole message was received.
	Complete bool
	// Aborted is set when the message was destroyed before its end.
	Aborted bool
	// Upgrade is set for a request the server handed to "upgrade" (and responses to them).
	Upgrade bool

	r        readable
	headers  *headerSet
	trailers *headerSet
	socket   any // *Socket (server side) or *nodenet.Socket (client side)
}

func newIncoming(tk *ticker) *IncomingMessage {
	m := &IncomingMessage{}
	m.init(tk)
	return m
}

func (m *IncomingMessage) init(tk *ticker) {
	m.r.init(tk, m)
	m.SetClass(incomingClass)
}

func (m *IncomingMessage) destroyHook(err error) bool {
	if !m.r.endEmitted || !m.Complete {
		m.Aborted = true
		m.Emit("aborted")
	}
	return m.Aborted
}

// On adds a listener (see EventEmitter.On); a "data" listener makes the message flow.
func (m *IncomingMessage) On(event string, fn func(args ...any)) *nodenet.Listener {
	l := m.EventEmitter.On(event, fn)
	m.r.on(event)
	return l
}

// Once adds a one-time listener; a "data" listener makes the message flow.
func (m *IncomingMessage) Once(event string, fn func(args ...any)) *nodenet.Listener {
	l := m.EventEmitter.Once(event, fn)
	m.r.on(event)
	return l
}

// OnData adds a "data" listener.
func (m *IncomingMessage) OnData(fn func(chunk []byte)) *nodenet.Listener {
	return m.On("data", func(a ...any) { fn(a[0].([]byte)) })
}

// OnEnd adds an "end" listener.
func (m *IncomingMessage) OnEnd(fn func()) *nodenet.Listener {
	return m.On("end", func(...any) { fn() })
}

// OnClose adds a "close" listener.
func (m *IncomingMessage) OnClose(fn func()) *nodenet.Listener {
	return m.On("close", func(...any) { fn() })
}

// OnError adds an "error" listener.
func (m *IncomingMessage) OnError(fn func(err error)) *nodenet.Listener {
	return m.On("error", func(a ...any) { fn(a[0].(error)) })
}

// Resume makes the message flow (from a nextTick), as readable.resume().
func (m *IncomingMessage) Resume() *IncomingMessage { m.r.resume(); return m }

// Pause stops the "data" events, as readable.pause().
func (m *IncomingMessage) Pause() *IncomingMessage { m.r.pause(); return m }

// IsPaused reports whether the message was paused.
func (m *IncomingMessage) IsPaused() bool { return m.r.flowing == 0 }

// Destroy destroys the message (and, if it did not end, the connection), as
// message.destroy(err).
func (m *IncomingMessage) Destroy(err error) *IncomingMessage { m.r.destroy(err); return m }

// Destroyed reports whether the message was destroyed.
func (m *IncomingMessage) Destroyed() bool { return m.r.destroyed }

// ReadableEnded reports whether "end" was emitted.
func (m *IncomingMessage) ReadableEnded() bool { return m.r.endEmitted }

// Headers returns message.headers: lower-case names, with Node's rules for repeated
// fields (Set-Cookie: a []string; Cookie: joined with "; "; Content-Type, Host,
// Content-Length, Authorization, User-Agent and the other single-valued fields: the first
// kept; the others joined with ", "). Values are strings, or []string for set-cookie. The
// map is built on first use and shared: do not change it.
func (m *IncomingMessage) Headers() map[string]any {
	if m.headers == nil {
		h := buildHeaders(m.RawHeaders)
		m.headers = &h
	}
	return m.headers.m
}

// HeaderNames returns the keys of Headers in the order they were first received, as
// Object.keys(message.headers).
func (m *IncomingMessage) HeaderNames() []string {
	m.Headers()
	return m.headers.keys
}

// Header returns one header's value as a string ("" if absent); a Set-Cookie list is
// joined with ", ".
func (m *IncomingMessage) Header(name string) string {
	switch v := m.Headers()[lowerASCII(name)].(type) {
	case string:
		return v
	case []string:
		s := ""
		for i, x := range v {
			if i > 0 {
				s += ", "
			}
			s += x
		}
		return s
	}
	return ""
}

// HeadersDistinct returns message.headersDistinct: every received value of each field,
// by lower-case name.
func (m *IncomingMessage) HeadersDistinct() map[string][]string {
	d := make(map[string][]string)
	for i := 0; i+1 < len(m.RawHeaders); i += 2 {
		k := lowerASCII(m.RawHeaders[i])
		d[k] = append(d[k], m.RawHeaders[i+1])
	}
	return d
}

// Trailers returns message.trailers (valid once "end" was emitted), folded as Headers.
func (m *IncomingMessage) Trailers() map[string]any {
	if m.trailers == nil {
		h := buildHeaders(m.RawTrailers)
		m.trailers = &h
	}
	return m.trailers.m
}

// Socket returns the connection: a *Socket for a server's request, a *nodenet.Socket for a
// client's response (nil once it went back to its agent).
func (m *IncomingMessage) Socket() any { return m.socket }

// ReadAll reads the whole body: the promise resolves with it at "end", or rejects with
// the error (or ErrAborted) if the message is destroyed first, as
// `await buffer(message)` of node:stream/consumers. It makes the message flow.
func (m *IncomingMessage) ReadAll() *promise.Promise[[]byte] {
	p, res := promise.WithResolvers[[]byte](m.r.tk.loop)
	var body []byte
	m.OnData(func(b []byte) { body = append(body, b...) })
	m.Once("end", func(...any) { res.Resolve(body) })
	m.Once("error", func(a ...any) { res.Reject(a[0].(error)) })
	m.Once("close", func(...any) {
		if !m.r.endEmitted {
			res.Reject(ErrAborted)
		}
	})
	return p
}

// Text is ReadAll as a string (`await text(message)`).
func (m *IncomingMessage) Text() *promise.Promise[string] {
	return promise.Then(m.ReadAll(), func(b []byte) (string, error) { return string(b), nil }, nil)
}
