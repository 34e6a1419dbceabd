package nodehttp

import (
	"encoding/base64"
	"errors"
	"maps"
	"net/url"
	"slices"
	"strconv"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// RequestOptions are the options of Request and Get (Node's http.request(options)).
type RequestOptions struct {
	// Host is the server's address: an IP address or a name, looked up as dns.lookup
	// does ("localhost", the default, is 127.0.0.1); Hostname wins if set.
	Host, Hostname string
	// Port defaults to 80.
	Port int
	// Method defaults to "GET"; Path to "/".
	Method, Path string
	// Headers are sent in order (name, value pairs); HeaderMap's after them, sorted.
	Headers   []string
	HeaderMap map[string]string
	// Agent hands out the socket: nil for the loop's GlobalAgent.
	Agent *Agent
	// NoAgent gives the request a socket of its own, closed after the response (Node's
	// agent: false).
	NoAgent bool
	// MaxHeaderSize caps the response's head (16 KiB).
	MaxHeaderSize int
	// Auth is "user:password" for Basic authentication: it sets the Authorization field
	// (unless the headers have one), as Node's auth option.
	Auth string
	// Signal, if not nil, destroys the request with a *nodeevents.AbortError (Cause the
	// signal's reason) when aborted: "error" then "close", as Destroy(err). A signal
	// aborted already destroys it inside Request.
	Signal *nodeevents.AbortSignal
}

// ClientRequest is Node's http.ClientRequest: Request returns it with the head not sent,
// so that headers can still change; Write and End send the head with the first bytes.
// Loop goroutine only.
//
// Events:
//
//	"socket" [*nodenet.Socket]     from a nextTick, once the agent gave it a socket
//	"finish"                       End's bytes were written
//	"response" [*IncomingMessage]  the response's head arrived (in the read callback)
//	"information" [*IncomingMessage]  an interim (1xx) response; "continue" for a 100
//	"upgrade" [*IncomingMessage, *nodenet.Socket, []byte]  a 101 answer, if listened to
//	"error" [error]                the connection failed (ECONNREFUSED...) or ended
//	                               before a response ("socket hang up", ECONNRESET), or
//	                               the response could not be parsed
//	"close"                        the exchange is over: from a nextTick after the
//	                               response's "end" when the socket is kept, or when the
//	                               socket closes
type ClientRequest struct {
	nodenet.EventEmitter

	// Method, Path, Host and Port are the request's.
	Method, Path, Host string
	Port               int

	loop   *uvloop.Loop
	agent  *Agent
	host   string
	port   int
	hdrs   outHeaders
	socket *nodenet.Socket
	res    *IncomingMessage
	p      http1.Parser

	output      []pendingOut // written before the socket came
	headerSent  bool
	chunked     bool
	hasBody     bool
	contentLen  int64 // -1 unknown
	finished    bool  // End was called
	writableFin bool  // "finish" was emitted
	destroyed   bool
	closed      bool
	ended       bool // the response ended (Node's _ended)
	hadError    bool
	errored     error

	shouldKeepAlive bool
	reusedSocket    bool
	chunkedDefault  bool

	listeners [5]*nodenet.Listener // on the socket: error, data, end, close, drain
}

type pendingOut struct {
	data []byte
	cb   func(error)
}

// Request is http.request(options, cb): cb, if not nil, is a Once("response") listener.
// The request goes once End is called.
func Request(l *uvloop.Loop, o RequestOptions, cb func(res *IncomingMessage)) *ClientRequest {
	req := &ClientRequest{loop: l, Method: o.Method, Path: o.Path, Port: o.Port, contentLen: -1}
	req.SetClass(requestClass)
	if req.Method == "" {
		req.Method = "GET"
	}
	if req.Path == "" {
		req.Path = "/"
	}
	if req.Port == 0 {
		req.Port = 80
	}
	host := o.Hostname
	if host == "" {
		host = o.Host
	}
	if host == "" {
		host = "localhost"
	}
	req.Host = host
	req.host, req.port = host, req.Port
	if req.host == "localhost" {
		req.host = "127.0.0.1"
	}
	switch req.Method {
	case "GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT":
	default:
		req.chunkedDefault = true
	}
	req.p.MaxHeaderSize = o.MaxHeaderSize
	req.p.MaxBodySize = -1
	req.p.MaxHeadersCount = 2000
	if cb != nil {
		req.Once("response", func(a ...any) { cb(a[0].(*IncomingMessage)) })
	}
	for i := 0; i+1 < len(o.Headers); i += 2 {
		if err := req.hdrs.set(o.Headers[i], o.Headers[i+1]); err != nil {
			req.failSoon(err)
			return req
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o.HeaderMap)) {
		if err := req.hdrs.set(k, o.HeaderMap[k]); err != nil {
			req.failSoon(err)
			return req
		}
	}
	if req.hdrs.find("host") < 0 {
		hh := host
		if req.Port != 80 {
			hh += ":" + strconv.Itoa(req.Port)
		}
		req.hdrs.set("Host", hh)
	}
	if o.Auth != "" && req.hdrs.find("authorization") < 0 {
		req.hdrs.set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(o.Auth)))
	}
	switch {
	case o.NoAgent:
		req.agent = NewAgent(l, AgentOptions{})
	case o.Agent != nil:
		req.agent = o.Agent
	default:
		req.agent = GlobalAgent(l)
	}
	req.shouldKeepAlive = req.agent.KeepAlive || req.agent.MaxSockets > 0
	req.agent.addRequest(req)
	if sig := o.Signal; sig != nil {
		if sig.Aborted() {
			req.Destroy(sig.Err())
		} else {
			stop := sig.Watch(func(reason error) { req.Destroy(&nodeevents.AbortError{Cause: reason}) })
			req.Once("close", func(...any) { stop() })
		}
	}
	return req
}

// RequestURL is http.request(url[, options][, callback]): the URL ("http://host:port/path?q",
// with "user:password@" for Auth) gives Hostname, Port, Path and Auth, and o the rest; o's
// own Hostname, Port, Path and Auth win where they are set, as Node merges its options
// over the URL's. A URL that does not parse, has no host or has a port over 65535 is refused
// with ERR_INVALID_URL, and one that is not http: with ERR_INVALID_PROTOCOL, as Node throws
// them.
func RequestURL(l *uvloop.Loop, rawURL string, o RequestOptions, cb func(res *IncomingMessage)) (*ClientRequest, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" || u.Opaque != "" {
		return nil, errInvalidURL
	}
	if u.Scheme != "http" {
		return nil, &nodenet.Error{Code: "ERR_INVALID_PROTOCOL", Message: `Protocol "` + u.Scheme + `:" not supported. Expected "http:"`}
	}
	if u.Hostname() == "" {
		return nil, errInvalidURL
	}
	if o.Hostname == "" {
		o.Hostname = u.Hostname()
	}
	if ps := u.Port(); ps != "" {
		n, err := strconv.Atoi(ps) // (url.Parse let only digits through)
		if err != nil || n > 65535 {
			return nil, errInvalidURL
		}
		if o.Port == 0 {
			o.Port = n
		}
	}
	if o.Path == "" {
		o.Path = u.EscapedPath()
		if o.Path == "" {
			o.Path = "/"
		}
		if u.RawQuery != "" || u.ForceQuery {
			o.Path += "?" + u.RawQuery
		}
	}
	if o.Auth == "" && u.User != nil {
		pw, _ := u.User.Password()
		o.Auth = u.User.Username() + ":" + pw
	}
	return Request(l, o, cb), nil
}

// errInvalidURL is the error RequestURL refuses a URL with, as Node's URL parser throws it.
var errInvalidURL = &nodenet.Error{Code: "ERR_INVALID_URL", Message: "Invalid URL"}

// GetURL is http.get(url[, options][, callback]): RequestURL with the method GET, ended
// at once.
func GetURL(l *uvloop.Loop, rawURL string, o RequestOptions, cb func(res *IncomingMessage)) (*ClientRequest, error) {
	o.Method = "GET"
	req, err := RequestURL(l, rawURL, o, cb)
	if err != nil {
		return nil, err
	}
	req.End(nil)
	return req, nil
}

// Get is http.get: Request with the method GET, ended at once.
func Get(l *uvloop.Loop, o RequestOptions, cb func(res *IncomingMessage)) *ClientRequest {
	o.Method = "GET"
	req := Request(l, o, cb)
	req.End(nil)
	return req
}

func (req *ClientRequest) failSoon(err error) {
	req.destroyed = true
	req.loop.NextTick(func() {
		req.Emit("error", err)
		req.closed = true
		req.Emit("close")
	})
}

// SetHeader sets a request header before the head is sent.
func (req *ClientRequest) SetHeader(name string, value any) error {
	if req.headerSent {
		return ErrHeadersSent
	}
	return req.hdrs.set(name, value)
}

// GetHeader returns a header set, or nil.
func (req *ClientRequest) GetHeader(name string) any { return req.hdrs.get(name) }

// RemoveHeader removes a header before the head is sent.
func (req *ClientRequest) RemoveHeader(name string) error {
	if req.headerSent {
		return ErrHeadersSent
	}
	req.hdrs.remove(name)
	return nil
}

// Socket returns the request's socket, nil until "socket".
func (req *ClientRequest) Socket() *nodenet.Socket { return req.socket }

// ReusedSocket reports whether the request went on a kept-alive socket.
func (req *ClientRequest) ReusedSocket() bool { return req.reusedSocket }

// Destroyed reports whether the request was destroyed.
func (req *ClientRequest) Destroyed() bool { return req.destroyed }

// WritableEnded reports whether End was called; WritableFinished whether "finish" was
// emitted.
func (req *ClientRequest) WritableEnded() bool    { return req.finished }
func (req *ClientRequest) WritableFinished() bool { return req.writableFin }

// head renders the request's head, with Node's framing: Content-Length when End gives the
// whole body, chunked for a body written in pieces (methods other than GET, HEAD, DELETE,
// OPTIONS, TRACE and CONNECT), and "Connection: keep-alive" or "close".
func (req *ClientRequest) head(fromEnd bool, bodyLen int) []byte {
	b := make([]byte, 0, 128)
	b = append(b, req.Method...)
	b = append(b, ' ')
	b = append(b, req.Path...)
	b = append(b, " HTTP/1.1\r\n"...)
	hasCL, hasTE, hasConn := false, false, false
	for _, h := range req.hdrs {
		switch h.lower {
		case "content-length":
			hasCL = true
		case "transfer-encoding":
			hasTE = true
			for _, v := range h.values {
				if equalFoldASCII(v, "chunked") {
					req.chunked = true
				}
			}
		case "connection":
			hasConn = true
			for _, v := range h.values {
				if equalFoldASCII(v, "close") {
					req.shouldKeepAlive = false
				}
			}
		}
		for _, v := range h.values {
			b = append(b, h.name...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	if !hasConn {
		if req.shouldKeepAlive {
			b = append(b, "Connection: keep-alive\r\n"...)
		} else {
			b = append(b, "Connection: close\r\n"...)
		}
	}
	if !hasCL && !hasTE {
		switch {
		case !req.chunkedDefault && bodyLen == 0:
		case fromEnd:
			b = append(b, "Content-Length: "...)
			b = strconv.AppendInt(b, int64(bodyLen), 10)
			b = append(b, "\r\n"...)
		default:
			b = append(b, "Transfer-Encoding: chunked\r\n"...)
			req.chunked = true
		}
	}
	req.headerSent = true
	return append(b, "\r\n"...)
}

func equalFoldASCII(a, lower string) bool { return len(a) == len(lower) && lowerASCII(a) == lower }

// Write sends a chunk of the body (the head first); false if the socket's buffer is
// full ("drain" follows on the socket) or the request ended.
func (req *ClientRequest) Write(data []byte) bool {
	if req.finished {
		req.loop.NextTick(func() { req.emitError(ErrWriteAfterEnd) })
		return false
	}
	var out []byte
	if !req.headerSent {
		out = req.head(false, 0)
	}
	if len(data) > 0 {
		if req.chunked {
			out = strconv.AppendInt(out, int64(len(data)), 16)
			out = append(out, "\r\n"...)
			out = append(out, data...)
			out = append(out, "\r\n"...)
		} else {
			out = append(out, data...)
		}
	}
	return req.send(out, nil)
}

// WriteString is Write for a string.
func (req *ClientRequest) WriteString(s string) bool { return req.Write([]byte(s)) }

// End sends data (may be nil) as the last of the body and ends the request; "finish"
// follows once it is written.
func (req *ClientRequest) End(data []byte) *ClientRequest {
	if req.finished {
		return req
	}
	var out []byte
	if !req.headerSent {
		out = req.head(true, len(data))
	}
	if req.chunked {
		if len(data) > 0 {
			out = strconv.AppendInt(out, int64(len(data)), 16)
			out = append(out, "\r\n"...)
			out = append(out, data...)
			out = append(out, "\r\n"...)
		}
		out = append(out, "0\r\n\r\n"...)
	} else {
		out = append(out, data...)
	}
	req.finished = true
	req.send(out, func(error) { req.onFinish() })
	return req
}

// EndString is End for a string.
func (req *ClientRequest) EndString(s string) *ClientRequest { return req.End([]byte(s)) }

func (req *ClientRequest) send(out []byte, cb func(error)) bool {
	if req.destroyed {
		return false
	}
	if req.socket == nil {
		req.output = append(req.output, pendingOut{out, cb})
		return false
	}
	return req.socket.Write(out, cb)
}

func (req *ClientRequest) onFinish() {
	if req.hadError || req.writableFin {
		return
	}
	req.writableFin = true
	req.Emit("finish")
	if req.shouldKeepAlive && req.ended { // requestOnFinish: the response came first
		req.responseKeepAlive()
	}
}

// Destroy destroys the request and its socket (req.destroy(err)).
func (req *ClientRequest) Destroy(err error) *ClientRequest {
	if req.destroyed {
		return req
	}
	req.destroyed = true
	if req.res != nil {
		req.res.r.dump()
	}
	req.errored = err
	if req.socket != nil {
		req.socket.Destroy(err)
	}
	return req
}

func (req *ClientRequest) emitError(err error) {
	if req.ListenerCount("error") > 0 || !errors.Is(err, ErrWriteAfterEnd) {
		req.Emit("error", err)
	}
}

// OnResponse adds a "response" listener.
func (req *ClientRequest) OnResponse(fn func(res *IncomingMessage)) *nodenet.Listener {
	return req.On("response", func(a ...any) { fn(a[0].(*IncomingMessage)) })
}

// OnError adds an "error" listener.
func (req *ClientRequest) OnError(fn func(err error)) *nodenet.Listener {
	return req.On("error", func(a ...any) { fn(a[0].(error)) })
}

// OnClose adds a "close" listener.
func (req *ClientRequest) OnClose(fn func()) *nodenet.Listener {
	return req.On("close", func(...any) { fn() })
}

// OnFinish adds a "finish" listener.
func (req *ClientRequest) OnFinish(fn func()) *nodenet.Listener {
	return req.On("finish", func(...any) { fn() })
}

// ---- the socket ----

// onSocket is req.onSocket: the rest happens from a nextTick.
func (req *ClientRequest) onSocket(s *nodenet.Socket, err error) {
	req.loop.NextTick(func() { req.onSocketNT(s, err) })
}

func (req *ClientRequest) onSocketNT(s *nodenet.Socket, err error) {
	if req.destroyed || err != nil {
		req.destroyed = true
		if s != nil && err == nil && !s.Destroyed() {
			s.Emit("free")
		} else if s != nil {
			s.Destroy(err)
		}
		if err == nil {
			err = req.errored // Node's err || req[kError]
		}
		if err == nil {
			err = connReset("socket hang up")
		}
		if err != nil {
			req.Emit("error", err)
		}
		req.closed = true
		req.Emit("close")
		return
	}
	req.tickOnSocket(s)
	req.flush()
}

func (req *ClientRequest) tickOnSocket(s *nodenet.Socket) {
	req.socket = s
	if m := req.agent.meta[s]; m != nil {
		m.req = req
	}
	req.p.Reset()
	req.p.ExpectResponse(req.Method)
	req.listeners[0] = s.On("error", func(a ...any) { req.socketError(a[0].(error)) })
	req.listeners[1] = s.On("data", func(a ...any) { req.socketData(a[0].([]byte)) })
	req.listeners[2] = s.On("end", func(...any) { req.socketEnd() })
	req.listeners[3] = s.On("close", func(...any) { req.socketClose() })
	req.Emit("socket", s)
}

func (req *ClientRequest) detachListeners(which ...int) {
	names := [...]string{"error", "data", "end", "close", "drain"}
	for _, i := range which {
		if l := req.listeners[i]; l != nil && req.socket != nil {
			req.socket.Off(names[i], l)
			req.listeners[i] = nil
		}
	}
}

func (req *ClientRequest) flush() {
	out := req.output
	req.output = nil
	for _, o := range out {
		req.socket.Write(o.data, o.cb)
	}
}

// socketData is Node's socketOnData: the response parser.
func (req *ClientRequest) socketData(d []byte) {
	for {
		n, ev, err := req.p.Parse(d)
		d = d[n:]
		if err != nil {
			req.detachListeners(1, 2)
			req.socket.Destroy(nil)
			req.hadError = true
			req.Emit("error", responseParseError(err))
			return
		}
		switch ev {
		case EventNone:
			return
		case http1.EventHead:
			if !req.onResponseHead(d) {
				return
			}
		case http1.EventBody:
			if req.res != nil {
				req.res.r.push(req.p.Body())
			}
		case http1.EventEnd:
			if req.res == nil { // an interim response ended: the final one follows
				req.p.ExpectResponse(req.Method)
				continue
			}
			req.messageComplete()
			if len(d) > 0 {
				req.afterResponse(d)
			}
			return
		}
	}
}

// afterResponse parses what came after the response in the same read, as Node's parser
// goes on with it: bytes that are not a response's head fail the request ("error" after
// "response", before the response's "end") and the socket is destroyed; a second response
// destroys it too (Node's double response), without an error. Either way the socket is
// not kept for another request. An incomplete head is dropped with the parser, as Node's.
func (req *ClientRequest) afterResponse(d []byte) {
	s := req.socket
	if s == nil {
		return
	}
	req.p.ExpectResponse(req.Method)
	for len(d) > 0 {
		n, ev, err := req.p.Parse(d)
		d = d[n:]
		switch {
		case err != nil:
			s.Destroy(nil)
			req.hadError = true
			req.Emit("error", responseParseError(err))
			return
		case ev == http1.EventHead:
			s.Destroy(nil)
			return
		case ev == EventNone:
			return
		}
	}
}

// EventNone is http1.EventNone, for the switch above.
const EventNone = http1.EventNone

// onResponseHead is parserOnIncomingClient. It reports false if parsing stops (upgrade,
// a second response).
func (req *ClientRequest) onResponseHead(rest []byte) bool {
	h := req.p.Response()
	res := newIncoming(req.agent.ticker(req.loop))
	res.StatusCode = h.Status
	res.StatusMessage = string(h.Reason)
	res.HTTPVersionMajor, res.HTTPVersionMinor = 1, h.Minor
	res.HTTPVersion = "1.1"
	if h.Minor == 0 {
		res.HTTPVersion = "1.0"
	}
	raw := make([]string, 2*len(h.Headers))
	for i, f := range h.Headers {
		raw[2*i] = knownName(f.Name)
		raw[2*i+1] = knownName(f.Value)
	}
	res.RawHeaders = raw
	res.socket = req.socket
	if req.res != nil { // a double response
		req.socket.Destroy(nil)
		return false
	}
	if h.Upgrade && (h.Status == 101 || req.Method == "CONNECT") {
		res.Upgrade = true
		req.res = res
		req.detachListeners(1, 2)
		event := "upgrade"
		if req.Method == "CONNECT" {
			event = "connect"
		}
		if req.ListenerCount(event) == 0 {
			req.socket.Destroy(nil)
			return false
		}
		s := req.socket
		req.detachListeners(0, 3)
		if m := req.agent.meta[s]; m != nil {
			delete(req.agent.meta, s)
			req.agent.total--
			req.agent.removeFrom(req.agent.sockets, m.name, s)
		}
		req.Emit(event, res, s, append([]byte(nil), rest...))
		req.destroyed, req.closed = true, true
		req.Emit("close")
		return false
	}
	if h.Informational() {
		if h.Status == 100 {
			req.Emit("continue")
		}
		req.Emit("information", res)
		return true
	}
	if req.shouldKeepAlive && !h.KeepAlive {
		req.shouldKeepAlive = false
	}
	req.res = res
	res.r.src = clientSource{req, res}
	res.EventEmitter.On("end", func(...any) { req.responseOnEnd() })
	if !req.Emit("response", res) {
		res.r.dump()
	}
	return true
}

// clientSource is the source of a response's body: the request's socket.
type clientSource struct {
	req *ClientRequest
	res *IncomingMessage
}

func (cs clientSource) sourceRead() {
	if s := cs.req.socket; s != nil && !s.Destroyed() {
		s.Resume()
	}
}

func (cs clientSource) sourcePause() {
	if s := cs.req.socket; s != nil {
		s.Pause()
	}
}

func (cs clientSource) sourceDestroy(err error, done func()) {
	s := cs.res.socket.(*nodenet.Socket)
	if s == nil || s.Destroyed() {
		done()
		return
	}
	s.Once("close", func(...any) { done() })
	s.Destroy(err)
}

// messageComplete: the response's body ended.
func (req *ClientRequest) messageComplete() {
	res := req.res
	res.Complete = true
	if tr := req.p.Trailers(); len(tr) > 0 {
		raw := make([]string, 0, 2*len(tr))
		for _, h := range tr {
			raw = append(raw, string(h.Name), string(h.Value))
		}
		res.RawTrailers = raw
	}
	res.r.pushEOF()
	req.detachListeners(1, 2) // the parser is done with the socket
	// The socket reads again, as Node's parser restarts it at each message's end: a body
	// read paused may have stopped it (sourcePause), and the response's resume does not
	// reach a source once the end is in; kept alive, it must read the next response.
	if s := req.socket; s != nil && s.Readable() {
		s.Resume()
	}
}

// responseOnEnd: the socket goes back to the agent, or away.
func (req *ClientRequest) responseOnEnd() {
	req.ended = true
	s := req.socket
	if s == nil {
		return
	}
	if !req.shouldKeepAlive {
		if !s.Destroyed() {
			s.End(nil)
			s.Destroy(nil)
		}
		return
	}
	if req.writableFin && !req.res.Aborted {
		req.responseKeepAlive()
	}
}

func (req *ClientRequest) responseKeepAlive() {
	req.detachListeners(0, 1, 2, 3)
	req.loop.NextTick(func() { // emitFreeNT
		req.closed = true
		req.Emit("close")
		if req.socket != nil {
			req.socket.Emit("free")
		}
	})
	req.destroyed = true
	if req.res != nil {
		req.res.socket = (*nodenet.Socket)(nil)
	}
}

// socketEnd is socketOnEnd: the server ended its side.
func (req *ClientRequest) socketEnd() {
	if req.res == nil && !req.hadError {
		req.hadError = true
		req.Emit("error", connReset("socket hang up"))
	}
	if ev, err := req.p.Finish(); err == nil && ev == http1.EventEnd && req.res != nil {
		req.messageComplete()
	}
	req.socket.Destroy(nil)
}

// socketClose is socketCloseListener.
func (req *ClientRequest) socketClose() {
	req.destroyed = true
	if res := req.res; res != nil {
		if !res.Complete {
			res.r.destroy(connReset("aborted"))
		}
		req.closed = true
		req.Emit("close")
		if !res.Aborted && !res.r.ended {
			res.r.pushEOF()
		}
	} else {
		if !req.hadError {
			req.hadError = true
			req.Emit("error", connReset("socket hang up"))
		}
		req.closed = true
		req.Emit("close")
	}
	req.output = nil
}

// socketError is socketErrorListener.
func (req *ClientRequest) socketError(err error) {
	if !req.hadError {
		req.hadError = true
		req.Emit("error", err)
	}
	req.detachListeners(1, 2)
	req.socket.Destroy(nil)
}
