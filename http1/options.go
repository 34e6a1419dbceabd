package http1

import (
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Defaults of the Server's options. The timeouts and the header size are Node's.
const (
	DefaultHeadersTimeout   = 60 * time.Second
	DefaultRequestTimeout   = 300 * time.Second
	DefaultKeepAliveTimeout = 5 * time.Second
	DefaultMaxBufferedBytes = 32 << 20 // input held by all the connections of a server
	DefaultMaxConnections   = 16384
	DefaultHighWaterMark    = 64 << 10 // output queued per connection before reading pauses
	DefaultLingerTimeout    = 2 * time.Second
	// maxDiscard is how much of a request body the server reads and drops after the
	// response ended, to keep the connection; past it, the connection closes (net/http's
	// figure).
	maxDiscard = 256 << 10
	// maxStash is how many bytes of the next (pipelined) requests a connection holds while
	// a response is in progress before it stops reading.
	maxStash = 64 << 10
)

// Option configures a Server.
type Option func(*options)

type options struct {
	headersTimeout     time.Duration
	requestTimeout     time.Duration
	keepAliveTimeout   time.Duration
	lingerTimeout      time.Duration
	maxHeaderSize      int
	maxRequestLineSize int
	maxHeadersCount    int
	maxBodySize        int64
	maxBuffered        int64
	maxConns           int
	highWater          int
	backlog            int
	onUpgrade          func(r *Request, s uvloop.Stream, head []byte)
	onClientError      func(err error, status int)
	clientErrorHandler func(c *Conn, err error, status int) bool
	onConnection       func(c *Conn)
	nodeHead           bool
	shouldUpgrade      func(r *Request) bool
	endOnEOF           bool
	handleExpect       bool
	refuseAfterClose   bool
	maxRequests        int
}

func defaultOptions() options {
	return options{
		headersTimeout:     DefaultHeadersTimeout,
		requestTimeout:     DefaultRequestTimeout,
		keepAliveTimeout:   DefaultKeepAliveTimeout,
		lingerTimeout:      DefaultLingerTimeout,
		maxHeaderSize:      DefaultMaxHeaderSize,
		maxRequestLineSize: DefaultMaxRequestLineSize,
		maxHeadersCount:    DefaultMaxHeadersCount,
		maxBodySize:        DefaultMaxBodySize,
		maxBuffered:        DefaultMaxBufferedBytes,
		maxConns:           DefaultMaxConnections,
		highWater:          DefaultHighWaterMark,
		backlog:            1024,
	}
}

// HeadersTimeout limits the time from the first byte of a request (or from the
// connection's start) to the end of its head; on expiry the server answers 408 and closes.
// 0 disables it. Default 60 s (Node's server.headersTimeout).
func HeadersTimeout(d time.Duration) Option { return func(o *options) { o.headersTimeout = d } }

// RequestTimeout limits the time from the first byte of a request to the end of its body;
// on expiry the server answers 408 (if no response began) and closes. 0 disables it.
// Default 300 s (Node's server.requestTimeout).
func RequestTimeout(d time.Duration) Option { return func(o *options) { o.requestTimeout = d } }

// KeepAliveTimeout limits how long a connection waits for its next request after a
// response; on expiry it closes. 0 disables it. Default 5 s (Node's
// server.keepAliveTimeout). It also bounds how long output may wait for a client that
// takes none of it: while a response is being written after Connection: close or the
// client's end, between keep-alive requests, or with pipelined requests held behind it, a
// connection is closed once a whole timeout (one to two in all) passes with no byte of it
// taken (read by the client, by what the socket reports as acknowledged on Linux); a
// client that reads slowly goes on. Node has no such limit by default.
func KeepAliveTimeout(d time.Duration) Option { return func(o *options) { o.keepAliveTimeout = d } }

// LingerTimeout limits how long a connection that the server ends (after a refused
// request, or Connection: close) reads and discards what the client still sends, so that
// the client reads the last response rather than a reset. Default 2 s.
func LingerTimeout(d time.Duration) Option { return func(o *options) { o.lingerTimeout = d } }

// MaxHeaderSize caps a request's head: the request line and the header fields (431).
// Default 16 KiB (Node's maxHeaderSize).
func MaxHeaderSize(n int) Option { return func(o *options) { o.maxHeaderSize = n } }

// MaxRequestLineSize caps the request line (414). Default 8 KiB.
func MaxRequestLineSize(n int) Option { return func(o *options) { o.maxRequestLineSize = n } }

// MaxHeadersCount caps the number of header fields of a request (431). Default 2000
// (Node's server.maxHeadersCount, which truncates where this refuses).
func MaxHeadersCount(n int) Option { return func(o *options) { o.maxHeadersCount = n } }

// MaxBodySize caps a request's body (413); -1 for no limit. Default 1 MiB.
func MaxBodySize(n int64) Option { return func(o *options) { o.maxBodySize = n } }

// MaxBufferedBytes caps the input that all the connections of the server hold at once:
// heads that arrived in pieces, pipelined requests waiting for their turn, bodies
// gathered by BufferBody. A connection that would go over the cap is answered 503 and
// closed. Default 32 MiB.
func MaxBufferedBytes(n int64) Option { return func(o *options) { o.maxBuffered = n } }

// MaxConnections caps the open connections; past it a new connection is closed at once
// (Node's server.maxConnections). Default 16384.
func MaxConnections(n int) Option { return func(o *options) { o.maxConns = n } }

// HighWaterMark is the output a connection queues before it stops reading (and before
// Response.Write asks its caller to wait for OnDrain). Default 64 KiB.
func HighWaterMark(n int) Option { return func(o *options) { o.highWater = n } }

// Backlog sets the listen backlog of the listeners the server opens. Default 1024.
func Backlog(n int) Option { return func(o *options) { o.backlog = n } }

// OnUpgrade hands the connection of an upgrade request (Connection: upgrade with an
// Upgrade header, or CONNECT) to fn, as Node's 'upgrade' and 'connect' events do: the
// server writes what it still had to write, stops reading, forgets the stream, and calls fn
// with the request (valid only during the call), the stream (now the caller's: it writes
// the 101 response, reads and closes it) and the bytes that followed the head (valid only
// during the call). Without OnUpgrade, upgrade requests go to the handler as ordinary
// requests, and the connection closes after a CONNECT.
func OnUpgrade(fn func(r *Request, s uvloop.Stream, head []byte)) Option {
	return func(o *options) { o.onUpgrade = fn }
}

// OnClientError is called when the server refuses a request (err is an *Error, status
// what it answers) or a timeout ends one (status 408), before it answers and closes.
func OnClientError(fn func(err error, status int)) Option {
	return func(o *options) { o.onClientError = fn }
}

// ClientErrorHandler lets fn answer a refused request (err is an *Error, status what the
// server would answer) or a timed-out one (status 408) itself, as a listener of Node's
// 'clientError' event does: if fn reports true, the server writes nothing of its own, and
// once fn returns it ends the connection (Conn.End) unless fn ended or destroyed it. If
// fn reports false, the server answers status and closes, as without the option.
func ClientErrorHandler(fn func(c *Conn, err error, status int) (handled bool)) Option {
	return func(o *options) { o.clientErrorHandler = fn }
}

// OnConnection is called with each connection the server starts serving, before any of
// its bytes are read (Node's 'connection' event).
func OnConnection(fn func(c *Conn)) Option { return func(o *options) { o.onConnection = fn } }

// NodeHead makes responses' heads look like Node's: the fields the handler added come
// first, then Date, then "Connection: keep-alive" with "Keep-Alive: timeout=N" (the
// KeepAliveTimeout in seconds) or "Connection: close", then the framing (Content-Length
// or Transfer-Encoding); a Content-Length the handler added stays where it was added.
// Framing follows Node's ServerResponse too: End gives neither an HTTP/1.0 request's
// response (which then closes the connection) nor a HEAD response a Content-Length that
// the handler did not set (nor a HEAD response Transfer-Encoding). Package nodehttp uses
// it.
func NodeHead() Option { return func(o *options) { o.nodeHead = true } }

// MaxRequestsPerConn makes the nth request on a connection its last (n > 0; 0, the
// default, for no limit): its response says Connection: close and the connection closes
// after it, as Node's server.maxRequestsPerSocket; under NodeHead the responses before it
// say so in their Keep-Alive field ("timeout=5, max=n"). Requests a client pipelined
// behind the nth are not answered (Node answers each 503).
func MaxRequestsPerConn(n int) Option { return func(o *options) { o.maxRequests = n } }

// ShouldUpgrade decides, when OnUpgrade is set, which upgrade requests go to it: those for
// which fn reports true (the others go to the handler as ordinary requests). Without it,
// all of them do.
func ShouldUpgrade(fn func(r *Request) bool) Option {
	return func(o *options) { o.shouldUpgrade = fn }
}

// EndOnEOF makes a connection whose client ends its side while a response is in progress
// end at once, what was written going out and the rest of the response dropped, as Node's
// server does (httpAllowHalfOpen false). Without it the server answers the request, then
// closes.
func EndOnEOF() Option { return func(o *options) { o.endOnEOF = true } }

// HandleExpect hands a request whose Expect is other than 100-continue to the handler
// (Request.Header("Expect") holds it), which answers it, as Node's server does (417
// Expectation Failed, unless a 'checkExpectation' listener answers); without it the
// server refuses such a request with 417 and closes. A value that has the token
// 100-continue among others ("100-continue, foo") is then taken as 100-continue, as Node
// takes it. Package nodehttp uses it.
func HandleExpect() Option { return func(o *options) { o.handleExpect = true } }

// RefuseAfterClose refuses what a client sends after a request that closes the connection
// (Connection: close, or HTTP/1.0 without keep-alive) and before the server closed it, as
// Node's parser does (HPE_CLOSED_CONNECTION): with ErrAfterClose (400) if the response
// has not begun, else by closing once what was written goes out. Without it such bytes
// are ignored. Empty lines are not refused. Package nodehttp uses it.
func RefuseAfterClose() Option { return func(o *options) { o.refuseAfterClose = true } }
