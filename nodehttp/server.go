package nodehttp

import (
	"net/netip"
	"strconv"
	"time"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// backlog is Node's default listen backlog.
const backlog = 511

// Server is Node's http.Server, on an http1.Server (the parser, keep-alive, limits and
// timeouts) and uvloop's TCP handles. Loop goroutine only.
//
// Events (Emit arguments in brackets; the typed On* methods wrap them):
//
//	"listening"                            from a nextTick after the listener is set up
//	"connection" [*Socket]                 a connection is accepted (poll phase)
//	"request" [*IncomingMessage, *ServerResponse]
//	                                       a request's head arrived (in the read callback)
//	"upgrade" [*IncomingMessage, *nodenet.Socket, []byte]
//	                                       an upgrade request, if there is a listener; the
//	                                       socket is the caller's, head the bytes after the
//	                                       request's head ("connect" for CONNECT; without
//	                                       a "connect" listener, a CONNECT's connection
//	                                       is destroyed, as Node's)
//	"checkContinue" [*IncomingMessage, *ServerResponse]
//	                                       instead of "request" for an HTTP/1.1 request
//	                                       with Expect: 100-continue, if there is a
//	                                       listener: it calls WriteContinue (and may emit
//	                                       "request") or answers without; without one the
//	                                       100 (Continue) goes before "request"
//	"checkExpectation" [*IncomingMessage, *ServerResponse]
//	                                       instead of "request" for an HTTP/1.1 request
//	                                       with an Expect other than 100-continue; without
//	                                       a listener the server answers 417
//	"clientError" [error, *Socket]         a request was refused (parse error, timeout):
//	                                       the listener answers on the socket (End) or
//	                                       destroys it; without a listener the server writes
//	                                       Node's 400 (431, 408) and closes
//	"error" [error]                        listening failed
//	"close"                                from a nextTick once Close was called and every
//	                                       connection is gone
//
// The fields are Node's server properties; set them before Listen.
type Server struct {
	nodenet.EventEmitter

	// KeepAliveTimeout, HeadersTimeout and RequestTimeout are Node's: 5 s, 60 s, 300 s.
	KeepAliveTimeout time.Duration
	HeadersTimeout   time.Duration
	RequestTimeout   time.Duration
	// MaxHeadersCount caps the fields of a request (2000); MaxHeaderSize its head (16 KiB).
	MaxHeadersCount int
	MaxHeaderSize   int
	// MaxRequestsPerSocket, if positive, makes the nth request on a connection its last
	// (server.maxRequestsPerSocket): its response closes the connection, and the responses
	// before it say "Keep-Alive: timeout=5, max=n". Node answers requests pipelined behind
	// the nth 503 ('dropRequest'); here they are not answered.
	MaxRequestsPerSocket int
	// MaxBodySize caps a request's body (-1, the default, for no cap, as Node: bodies
	// stream with backpressure).
	MaxBodySize int64
	// Options are more http1 options for the engine (MaxConnections, MaxBufferedBytes...).
	Options []http1.Option

	loop        *uvloop.Loop
	hs          *http1.Server
	ln          *uvloop.TCP
	closing     bool
	socks       Socket // sentinel of the list of connections
	connections int
	tk          *ticker
	args        [2]any // the "request" event's arguments (no slice per request)
}

// CreateServer is http.createServer(requestListener): requestListener, if not nil, is a
// "request" listener.
func CreateServer(l *uvloop.Loop, requestListener func(req *IncomingMessage, res *ServerResponse)) *Server {
	s := &Server{
		loop:             l,
		KeepAliveTimeout: 5 * time.Second,
		HeadersTimeout:   60 * time.Second,
		RequestTimeout:   300 * time.Second,
		MaxHeadersCount:  2000,
		MaxHeaderSize:    16 << 10,
		MaxBodySize:      -1,
	}
	s.socks.next, s.socks.prev = &s.socks, &s.socks
	s.tk = newTicker(l)
	s.SetClass(serverClass)
	if requestListener != nil {
		s.OnRequest(requestListener)
	}
	return s
}

func (s *Server) engine() *http1.Server {
	if s.hs != nil {
		return s.hs
	}
	opts := []http1.Option{
		http1.KeepAliveTimeout(s.KeepAliveTimeout),
		http1.HeadersTimeout(s.HeadersTimeout),
		http1.RequestTimeout(s.RequestTimeout),
		http1.MaxHeadersCount(s.MaxHeadersCount),
		http1.MaxRequestsPerConn(s.MaxRequestsPerSocket),
		http1.MaxHeaderSize(s.MaxHeaderSize),
		http1.MaxRequestLineSize(s.MaxHeaderSize), // Node caps the request line only with the head
		http1.MaxBodySize(s.MaxBodySize),
		http1.Backlog(backlog),
		http1.NodeHead(),
		http1.EndOnEOF(),
		http1.HandleExpect(),
		http1.RefuseAfterClose(),
		http1.OnConnection(s.onConnection),
		http1.ClientErrorHandler(s.onClientError),
		http1.OnUpgrade(s.onUpgrade),
		http1.ShouldUpgrade(s.shouldUpgrade),
	}
	s.hs = http1.NewServer(s.loop, http1.HandlerFunc(s.serve), append(opts, s.Options...)...)
	return s.hs
}

// Listen is server.listen(port, host, cb): it returns at once; cb, if not nil, is a
// Once("listening") listener. As nodenet.Server.Listen: without a host, "::" then
// "0.0.0.0"; with one (an IP address or "localhost"), from a nextTick.
func (s *Server) Listen(port int, host string, cb func()) *Server {
	if cb != nil {
		s.Once("listening", func(...any) { cb() })
	}
	if s.ln != nil {
		s.loop.NextTick(func() { s.Emit("error", nodenet.ErrServerAlreadyListen) })
		return s
	}
	s.closing = false
	if host == "" {
		if err := s.listenTCP(netip.IPv6Unspecified(), port); err != nil {
			s.listenOrFail(netip.IPv4Unspecified(), port, "0.0.0.0")
		}
		return s
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	s.loop.NextTick(func() {
		ip, err := netip.ParseAddr(host)
		if err != nil {
			s.Emit("error", &nodenet.Error{Code: "ENOTFOUND", Message: "getaddrinfo ENOTFOUND " + host, Syscall: "getaddrinfo", Err: err})
			return
		}
		s.listenOrFail(ip, port, host)
	})
	return s
}

func (s *Server) listenOrFail(ip netip.Addr, port int, host string) {
	if err := s.listenTCP(ip, port); err != nil {
		e := listenError(err, host, port)
		s.loop.NextTick(func() { s.Emit("error", e) })
	}
}

func listenError(err error, host string, port int) error {
	code := "UNKNOWN"
	if ne, ok := err.(interface{ Unwrap() error }); ok && ne.Unwrap() != nil {
		code = errnoName(ne.Unwrap())
	} else {
		code = errnoName(err)
	}
	return &nodenet.Error{Code: code, Message: "listen " + code + " " + host + ":" + strconv.Itoa(port),
		Syscall: "listen", Address: host, Port: port, Err: err}
}

func (s *Server) listenTCP(ip netip.Addr, port int) error {
	t, err := s.loop.NewTCP()
	if err != nil {
		return err
	}
	if err = t.Bind(netip.AddrPortFrom(ip, uint16(port)), 0); err == nil {
		err = s.engine().ServeTCP(t)
	}
	if err != nil {
		t.Close(nil)
		return err
	}
	s.ln = t
	s.loop.NextTick(func() {
		if s.ln != nil {
			s.Emit("listening")
		}
	})
	return nil
}

// Address is server.address(): nil when not listening.
func (s *Server) Address() *nodenet.AddressInfo {
	if s.ln == nil {
		return nil
	}
	ap, err := s.ln.LocalAddr()
	if err != nil {
		return nil
	}
	return addressInfo(ap)
}

func addressInfo(ap netip.AddrPort) *nodenet.AddressInfo {
	fam := "IPv4"
	if ap.Addr().Is6() && !ap.Addr().Is4In6() {
		fam = "IPv6"
	}
	return &nodenet.AddressInfo{Address: ap.Addr().Unmap().String(), Family: fam, Port: int(ap.Port())}
}

// Listening reports whether the server listens.
func (s *Server) Listening() bool { return s.ln != nil }

// Connections is the number of open connections.
func (s *Server) Connections() int { return s.connections }

// Close is server.close(cb): it stops listening, closes the idle connections at once
// (Node 19+), and lets the others finish; "close" (then cb, with nil, or
// ErrServerNotRunning if the server was not listening) comes from a nextTick once the last
// connection is gone.
func (s *Server) Close(cb func(err error)) *Server {
	if cb != nil {
		if s.ln == nil {
			s.Once("close", func(...any) { cb(ErrServerNotRunning) })
		} else {
			s.Once("close", func(...any) { cb(nil) })
		}
	}
	s.closing = true
	if s.hs != nil {
		s.hs.CloseIdle()
	}
	if s.ln != nil {
		s.ln.Close(nil)
		s.ln = nil
	}
	s.emitCloseIfDrained()
	return s
}

func (s *Server) emitCloseIfDrained() {
	if s.ln != nil || s.connections > 0 || !s.closing {
		return
	}
	if hs := s.hs; hs != nil { // its timers go with it; a later Listen makes a new one
		s.hs = nil
		hs.Close(nil)
	}
	s.loop.NextTick(func() { s.Emit("close") })
}

// CloseAllConnections destroys every connection (server.closeAllConnections()).
func (s *Server) CloseAllConnections() {
	for k := s.socks.next; k != &s.socks; {
		next := k.next
		k.Destroy(nil)
		k = next
	}
}

// CloseIdleConnections destroys the connections that wait for a request
// (server.closeIdleConnections()).
func (s *Server) CloseIdleConnections() {
	if s.hs != nil {
		s.hs.CloseIdle()
	}
}

// Ref and Unref: whether the listener keeps the loop alive.
func (s *Server) Ref() *Server {
	if s.ln != nil {
		s.ln.Ref()
	}
	return s
}

// Unref lets the loop end while the server listens.
func (s *Server) Unref() *Server {
	if s.ln != nil {
		s.ln.Unref()
	}
	return s
}

// OnRequest adds a "request" listener.
func (s *Server) OnRequest(fn func(req *IncomingMessage, res *ServerResponse)) *nodenet.Listener {
	return s.On("request", func(a ...any) { fn(a[0].(*IncomingMessage), a[1].(*ServerResponse)) })
}

// OnConnection adds a "connection" listener.
func (s *Server) OnConnection(fn func(*Socket)) *nodenet.Listener {
	return s.On("connection", func(a ...any) { fn(a[0].(*Socket)) })
}

// OnClientError adds a "clientError" listener.
func (s *Server) OnClientError(fn func(err error, sock *Socket)) *nodenet.Listener {
	return s.On("clientError", func(a ...any) { fn(a[0].(error), a[1].(*Socket)) })
}

// OnUpgrade adds an "upgrade" listener.
func (s *Server) OnUpgrade(fn func(req *IncomingMessage, sock *nodenet.Socket, head []byte)) *nodenet.Listener {
	return s.On("upgrade", func(a ...any) { fn(a[0].(*IncomingMessage), a[1].(*nodenet.Socket), a[2].([]byte)) })
}

// OnListening adds a "listening" listener.
func (s *Server) OnListening(fn func()) *nodenet.Listener {
	return s.On("listening", func(...any) { fn() })
}

// OnClose adds a "close" listener.
func (s *Server) OnClose(fn func()) *nodenet.Listener { return s.On("close", func(...any) { fn() }) }

// OnError adds an "error" listener.
func (s *Server) OnError(fn func(err error)) *nodenet.Listener {
	return s.On("error", func(a ...any) { fn(a[0].(error)) })
}

// ---- the engine's hooks ----

func (s *Server) onConnection(k *http1.Conn) {
	sock := &Socket{k: k, srv: s}
	sock.onBody, sock.onBodyEnd = sock.body, sock.bodyEnd
	k.SetValue(sock)
	k.SetOnDestroy(sock.destroyed)
	k.SetOnClose(sock.closed)
	sock.prev, sock.next = s.socks.prev, &s.socks
	s.socks.prev.next = sock
	s.socks.prev = sock
	s.connections++
	s.Emit("connection", sock)
}

func (s *Server) onClientError(k *http1.Conn, err error, status int) bool {
	sock, _ := k.Value().(*Socket)
	e := parseError(err)
	if sock != nil {
		sock.hadError = true
	}
	if s.ListenerCount("clientError") > 0 && sock != nil {
		s.Emit("clientError", e, sock)
		return true
	}
	// Node's answers: a bare status line and "Connection: close", then the socket goes;
	// nothing in the middle of a response (Node: one whose head went out and whose
	// 'finish' has not come). A refused request held behind a response is parsed once that
	// response ended: it is answered, as Node answers one that comes after the finish.
	if sock == nil || sock.res == nil || !sock.res.headerSent || sock.res.finished {
		switch {
		case status == 431, status == 414:
			k.Write([]byte("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n"))
		case status == 408:
			k.Write([]byte("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"))
		case status == 413:
			k.Write([]byte("HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n"))
		default:
			k.Write([]byte("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"))
		}
	}
	k.End()
	return true
}

// shouldUpgrade: CONNECT always leaves the engine (onUpgrade destroys it when nobody
// listens for "connect", as Node); another upgrade request only for "upgrade" listeners.
func (s *Server) shouldUpgrade(r *http1.Request) bool {
	return string(r.Method) == "CONNECT" || s.ListenerCount("upgrade") > 0
}

func (s *Server) onUpgrade(r *http1.Request, st uvloop.Stream, head []byte) {
	var sock *Socket
	if k := r.Conn(); k != nil {
		sock, _ = k.Value().(*Socket)
	}
	if string(r.Method) == "CONNECT" && s.ListenerCount("connect") == 0 {
		// Node: "Got CONNECT method, but have no handler": the socket is destroyed, with
		// no answer and no "request".
		if sock != nil {
			sock.unlink()
		}
		st.Close(nil)
		s.emitCloseIfDrained()
		return
	}
	req := s.newRequest(r, sock)
	req.Upgrade = true
	req.Complete = true
	if sock != nil { // the connection leaves the server
		sock.unlink()
	}
	ns := nodenet.Wrap(s.loop, st, true)
	event := "upgrade"
	if req.Method == "CONNECT" {
		event = "connect"
	}
	s.Emit(event, req, ns, append([]byte(nil), head...))
	s.emitCloseIfDrained()
}

// exchange is a request and its response, allocated together, with room for the fields
// of a short request. (Its size is kept within one of the allocator's classes: 576 bytes.)
type exchange struct {
	req IncomingMessage
	res ServerResponse
	raw [6]string // req.RawHeaders, up to 3 fields
}

// newRequest copies the request's head into an IncomingMessage.
func (s *Server) newRequest(r *http1.Request, sock *Socket) *IncomingMessage {
	return &s.newExchange(r, sock).req
}

func (s *Server) newExchange(r *http1.Request, sock *Socket) *exchange {
	x := &exchange{}
	req := &x.req
	req.init(s.tk)
	var prev []string // the connection's previous request: its strings serve again when equal
	if sock != nil {
		prev = sock.lastRaw[:sock.nLast]
		req.socket = sock
	}
	req.Method = knownMethod(r.Method)
	req.URL = knownTarget(r.Target)
	if sock != nil && req.URL != "/" && sock.lastURL == string(r.Target) {
		req.URL = sock.lastURL
	}
	req.HTTPVersionMajor, req.HTTPVersionMinor = 1, r.Minor
	req.HTTPVersion = "1.1"
	if r.Minor == 0 {
		req.HTTPVersion = "1.0"
	}
	var raw []string
	if n := 2 * len(r.Headers); n <= len(x.raw) {
		raw = x.raw[:n:n]
	} else {
		raw = make([]string, n)
	}
	for i, h := range r.Headers {
		raw[2*i] = sameOrKnown(h.Name, prev, 2*i)
		raw[2*i+1] = sameOrKnown(h.Value, prev, 2*i+1)
	}
	req.RawHeaders = raw
	if sock != nil {
		sock.nLast = copy(sock.lastRaw[:], raw)
		sock.lastURL = req.URL
	}
	return x
}

// sameOrKnown returns prev[i] if it holds b, else knownName(b).
func sameOrKnown(b []byte, prev []string, i int) string {
	if i < len(prev) && prev[i] == string(b) {
		return prev[i]
	}
	return knownName(b)
}

// serve is the engine's handler: Node's parserOnIncoming.
func (s *Server) serve(w *http1.Response, r *http1.Request) {
	var sock *Socket
	if k := r.Conn(); k != nil {
		sock, _ = k.Value().(*Socket)
	}
	x := s.newExchange(r, sock)
	req, res := &x.req, &x.res
	res.init(s, req, w, sock)
	event := "request"
	if r.Minor == 1 && r.Expect100 && s.ListenerCount("checkContinue") > 0 {
		// Node's "checkContinue": the listener sends the 100 (WriteContinue) or answers
		// without it; without one, the 100 goes before "request".
		event = "checkContinue"
		r.HoldContinue()
	}
	if sock != nil {
		sock.req, sock.res, sock.hreq = req, res, r
		req.r.src = sock
		r.OnBody(sock.onBody, sock.onBodyEnd)
	}
	if r.Minor == 1 && !r.Expect100 && r.Header("expect") != nil {
		// An expectation other than 100-continue (http1 takes it: HandleExpect): Node's
		// "checkExpectation", or 417 without a listener.
		if s.ListenerCount("checkExpectation") == 0 {
			res.WriteHead(417)
			res.End(nil)
			return
		}
		event = "checkExpectation"
	}
	s.args[0], s.args[1] = req, res
	s.Emit(event, s.args[:]...)
	s.args = [2]any{}
}

// ---- Socket ----

// Socket is a server connection as Node's "connection" and "clientError" listeners, and
// req.Socket(), see it: its addresses, Write/End for a clientError listener's answer,
// Destroy, and its "close" event [hadError bool] from the loop's close phase. Loop
// goroutine only.
type Socket struct {
	nodenet.EventEmitter

	k          *http1.Conn
	srv        *Server
	prev, next *Socket
	req        *IncomingMessage
	res        *ServerResponse
	hreq       *http1.Request
	hadError   bool
	gone       bool            // destroyed
	finTail    *ServerResponse // the last ended response whose 'finish' is queued

	lastRaw [16]string // the previous request's RawHeaders (the first 8 fields)
	nLast   int
	lastURL string // and its URL

	onBody    func([]byte)
	onBodyEnd func(error)
}

// RemoteAddress is socket.remoteAddress.
func (k *Socket) RemoteAddress() string { return k.k.RemoteAddr().Addr().Unmap().String() }

// RemotePort is socket.remotePort.
func (k *Socket) RemotePort() int { return int(k.k.RemoteAddr().Port()) }

// LocalAddress is socket.localAddress.
func (k *Socket) LocalAddress() string { return k.k.LocalAddr().Addr().Unmap().String() }

// LocalPort is socket.localPort.
func (k *Socket) LocalPort() int { return int(k.k.LocalAddr().Port()) }

// Destroyed reports whether the connection is destroyed.
func (k *Socket) Destroyed() bool { return k.gone }

// Write writes raw bytes (for a "clientError" listener's answer); false once the
// connection is gone.
func (k *Socket) Write(data []byte) bool { return !k.gone && k.k.Write(data) == nil }

// End writes data (may be nil), then ends the connection.
func (k *Socket) End(data []byte) *Socket {
	if !k.gone {
		if len(data) > 0 {
			k.k.Write(data)
		}
		k.k.End()
	}
	return k
}

// EndString is End for a string.
func (k *Socket) EndString(s string) *Socket { return k.End([]byte(s)) }

// Destroy closes the connection at once; err, if not nil, marks the "close" as hadError.
func (k *Socket) Destroy(err error) *Socket {
	if err != nil {
		k.hadError = true
	}
	if !k.gone {
		k.k.Destroy()
	}
	return k
}

// OnClose adds a "close" listener.
func (k *Socket) OnClose(fn func(hadError bool)) *nodenet.Listener {
	return k.On("close", func(a ...any) { fn(a[0].(bool)) })
}

func (k *Socket) unlink() {
	if k.next != nil {
		k.prev.next, k.next.prev = k.next, k.prev
		k.prev, k.next = nil, nil
		k.srv.connections--
	}
}

// destroyed runs when the engine destroys the connection (Node's socket _destroy).
func (k *Socket) destroyed() {
	k.gone = true
	k.unlink()
	k.srv.emitCloseIfDrained()
}

// closed runs in the close phase (Node's socket 'close'): the request in progress is
// aborted, the listeners run, then the response in progress closes.
func (k *Socket) closed() {
	if req := k.req; req != nil { // its response did not finish
		k.req = nil
		req.r.destroy(connReset("aborted"))
	}
	k.Emit("close", k.hadError)
	if res := k.res; res != nil {
		k.res = nil
		res.emitClose()
	}
}

func (k *Socket) body(b []byte) {
	if req := k.req; req != nil {
		req.r.push(append([]byte(nil), b...))
	}
}

func (k *Socket) bodyEnd(err error) {
	req := k.req
	if req == nil || err != nil {
		return
	}
	req.Complete = true
	if tr := k.hreq.Trailers(); len(tr) > 0 {
		raw := make([]string, 0, 2*len(tr))
		for _, h := range tr {
			raw = append(raw, string(h.Name), string(h.Value))
		}
		req.RawTrailers = raw
	}
	req.r.pushEOF()
}

func (k *Socket) sourceRead() {
	if k.hreq != nil && !k.gone {
		k.hreq.ResumeBody()
	}
}

func (k *Socket) sourcePause() {
	if k.hreq != nil && !k.gone {
		k.hreq.PauseBody()
	}
}

func (k *Socket) sourceDestroy(err error, done func()) {
	if k.gone {
		done()
		return
	}
	k.Once("close", func(...any) { done() })
	k.Destroy(err)
}
