package http1

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// FromNetHTTP adapts h, a net/http Handler, to run on the loop goroutine.
//
// A service written for net/http moves onto uvgo by changing how it is served, not its
// handlers: NewServer(loop, FromNetHTTP(mux)) instead of http.ListenAndServe(addr, mux).
// Its handlers, and their httptest tests, stay as they are. Two modes:
//
//   - FromNetHTTP: the handler runs on the loop goroutine, after the request's body has
//     been read (up to the server's MaxBodySize, through BufferBody). It must not block:
//     no waiting on channels, locks held elsewhere, the network or the disk. This is the
//     fast mode: no goroutine and no hand-off per request.
//   - FromNetHTTPBlocking: the handler runs on a goroutine of its own (at most workers at
//     once; the requests beyond wait in order). The body streams to it as it arrives
//     (reading pauses while it holds more than a high-water mark), and what it writes
//     streams back through the loop (its writes block while the connection's output is
//     past the high-water mark); http.Flusher works. Use it for handlers that block.
//
// With FromNetHTTPBlocking the request's Context is canceled when the connection closes, the
// client ends its side of it (as net/http's server does; the response still goes out), or
// the handler returns (with FromNetHTTP it is context.Background(): nothing can happen
// while the handler runs); RemoteAddr is the peer's address (TCP) or "" (pipes); the response's
// head follows net/http's rules where they matter to clients: a Content-Type sniffed from
// the first bytes when none is set, a Content-Length when the whole body is written before
// the handler returns and fits in 4 KiB (FromNetHTTP; otherwise, and always with
// FromNetHTTPBlocking unless the handler sets one, chunked), the fields named by "Trailer"
// sent as trailers.
//
// FromNetHTTP reuses, for each request of a connection, the *http.Request (its Header,
// URL and Body) and the ResponseWriter of the one before: a handler must not keep them, or
// anything it got from them other than strings, after ServeHTTP returns (net/http says as
// much of the ResponseWriter and the Body; with FromNetHTTP it holds for the Request too).
// Copy what outlives the call (Request.Clone). FromNetHTTPBlocking makes them fresh.
func FromNetHTTP(h http.Handler) Handler {
	return BufferBody(HandlerFunc(func(w *Response, r *Request) {
		c := w.c
		nc := c.net
		if nc == nil {
			nc = &netConn{}
			nc.rw.hdr = make(http.Header)
			c.net = nc
		}
		req := nc.request(c, r)
		rw := &nc.rw
		rw.w, rw.req = w, req
		func() {
			defer func() {
				if p := recover(); p != nil {
					rw.panicked(p)
				}
			}()
			h.ServeHTTP(rw, req)
		}()
		rw.finish()
		nc.done()
	}))
}

// netConn is what FromNetHTTP keeps for a connection and reuses for each of its requests:
// the request, its header, URL and body, the response writer, and the strings of the
// request before (the next request of a connection mostly repeats them, and a string
// equal to its predecessor's is the predecessor's, not a new one).
type netConn struct {
	req  http.Request
	url  url.URL
	vals [16]string // the header's values, each a 1-element slice of this array
	body loopBody
	rw   netWriter
	// the previous request's strings:
	names  [16]string // field names, as received
	keys   [16]string // their canonical forms
	values [16]string
	nprev  int
	target string
	host   string
}

// request fills nc.req for r.
func (nc *netConn) request(c *conn, r *Request) *http.Request {
	hdr := nc.req.Header
	if hdr == nil {
		hdr = make(http.Header, len(r.Headers))
	}
	clear(hdr)
	target := nc.target
	if string(r.Target) != target {
		target = string(r.Target)
		nc.target = target
	}
	host := nc.host
	if string(r.Host) != host {
		host = string(r.Host)
		nc.host = host
	}
	proto := "HTTP/1.1"
	if r.Minor == 0 {
		proto = "HTTP/1.0"
	}
	nc.req = http.Request{
		Method:     knownMethod(r.Method),
		RequestURI: target,
		Proto:      proto,
		ProtoMajor: 1,
		ProtoMinor: r.Minor,
		Header:     hdr,
		Host:       host,
		Close:      !r.KeepAlive,
		Body:       http.NoBody,
	}
	req := &nc.req
	nvals := 0
	for i, f := range r.Headers {
		var key, value string
		if i < nc.nprev && string(f.Name) == nc.names[i] {
			key = nc.keys[i]
		} else {
			name := string(f.Name)
			key = textproto.CanonicalMIMEHeaderKey(name)
			if i < len(nc.names) {
				nc.names[i], nc.keys[i] = name, key
			}
		}
		if i < nc.nprev && string(f.Value) == nc.values[i] {
			value = nc.values[i]
		} else {
			value = string(f.Value)
			if i < len(nc.values) {
				nc.values[i] = value
			}
		}
		if key == "Host" {
			continue
		}
		if old := hdr[key]; old != nil || nvals == len(nc.vals) {
			hdr[key] = append(old, value)
		} else {
			nc.vals[nvals] = value
			hdr[key] = nc.vals[nvals : nvals+1 : nvals+1]
			nvals++
		}
	}
	nc.nprev = min(len(r.Headers), len(nc.names))
	u := &nc.url
	if !fastRequestURI(u, target) {
		u = parseTarget(req.Method, target)
	}
	req.URL = u
	if u.Host != "" { // net/http: an absolute-form target's host is the request's
		req.Host = u.Host
	}
	switch {
	case r.Chunked:
		req.ContentLength = -1
		req.TransferEncoding = []string{"chunked"}
		delete(hdr, "Transfer-Encoding")
		req.Trailer = declaredTrailer(hdr)
	default:
		req.ContentLength = r.ContentLength
	}
	if r.body != nil || r.Chunked { // (an empty chunked body may still have trailers)
		nc.body = loopBody{b: r.body}
		if r.Chunked {
			nc.body.trailer, nc.body.dst = trailerHeader(r.Trailers()), &req.Trailer
		}
		req.Body = &nc.body
	}
	req.RemoteAddr = c.remoteAddr()
	return req
}

// parseTarget is a request's URL as net/http's server makes it.
func parseTarget(method, target string) *url.URL {
	u, err := url.ParseRequestURI(target)
	if err != nil || method == "CONNECT" && !strings.HasPrefix(target, "/") {
		u = &url.URL{Host: target}
	}
	return u
}

// remoteAddr returns the peer's address as net/http's RemoteAddr ("" for a pipe), made
// once per connection.
func (c *conn) remoteAddr() string {
	if c.remote == "" && c.tcp != nil {
		if ap, err := c.tcp.RemoteAddr(); err == nil {
			c.remote = ap.String()
		}
	}
	return c.remote
}

// keepFields is the most fields a connection's reused header maps keep room for: a map
// grown by a request with more is dropped (a cleared map keeps its size).
const keepFields = 32

// done forgets the exchange once its response ended: the body, the handler's header
// values, what the writer held.
func (nc *netConn) done() {
	nc.body = loopBody{}
	if len(nc.req.Header) > keepFields {
		nc.req.Header = nil
	}
	hdr := nc.rw.hdr
	if len(hdr) > keepFields {
		hdr = make(http.Header)
	}
	clear(hdr)
	buf := nc.rw.buf[:0]
	if cap(buf) > 4096 {
		buf = nil
	}
	nc.rw = netWriter{hdr: hdr, buf: buf, trailer: nc.rw.trailer[:0]}
}

// fastRequestURI sets *u to what url.ParseRequestURI makes of target, for the common
// targets: a path of bytes that need no escaping, and an optional query without control
// bytes. It reports false, leaving u alone, for anything else.
func fastRequestURI(u *url.URL, target string) bool {
	if len(target) == 0 || target[0] != '/' {
		return false
	}
	path, query, hasQuery := strings.Cut(target, "?")
	for i := 0; i < len(path); i++ {
		if !pathSafe[path[i]] {
			return false
		}
	}
	for i := 0; i < len(query); i++ {
		if c := query[i]; c < ' ' || c == 0x7f {
			return false
		}
	}
	*u = url.URL{Path: path, RawQuery: query, ForceQuery: hasQuery && query == ""}
	return true
}

// pathSafe holds the bytes that url.URL's path encoding leaves as they are: letters,
// digits, "-_.~" and "$&+,/:;=@".
var pathSafe = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "-_.~$&+,/:;=@" {
		t[c] = true
	}
	return t
}()

// knownMethod returns a constant string for the common methods.
func knownMethod(b []byte) string {
	switch string(b) {
	case "GET":
		return "GET"
	case "HEAD":
		return "HEAD"
	case "POST":
		return "POST"
	case "PUT":
		return "PUT"
	case "DELETE":
		return "DELETE"
	case "OPTIONS":
		return "OPTIONS"
	case "PATCH":
		return "PATCH"
	}
	return string(b)
}

// newNetRequest builds the *http.Request for r (copying what it keeps). The context ends
// when the connection closes or cancel is called.
func newNetRequest(c *conn, r *Request) (*http.Request, context.CancelFunc) {
	req := newNetRequestNoContext(c, r)
	ctx, cancel := context.WithCancel(context.Background())
	return req.WithContext(ctx), cancel
}

// newNetRequestNoContext builds the *http.Request for r, whose Context is
// context.Background(): for a handler that runs to its end on the loop, where no
// cancellation can reach it.
func newNetRequestNoContext(c *conn, r *Request) *http.Request {
	req := &http.Request{
		Method:     string(r.Method),
		RequestURI: string(r.Target),
		Proto:      "HTTP/1." + strconv.Itoa(r.Minor),
		ProtoMajor: 1,
		ProtoMinor: r.Minor,
		Header:     make(http.Header, len(r.Headers)),
		Host:       string(r.Host),
		Close:      !r.KeepAlive,
		Body:       http.NoBody,
	}
	for _, f := range r.Headers {
		k := textproto.CanonicalMIMEHeaderKey(string(f.Name))
		if k == "Host" {
			continue
		}
		req.Header[k] = append(req.Header[k], string(f.Value))
	}
	u := parseTarget(req.Method, req.RequestURI)
	req.URL = u
	if u.Host != "" { // net/http: an absolute-form target's host is the request's
		req.Host = u.Host
	}
	switch {
	case r.Chunked:
		req.ContentLength = -1
		req.TransferEncoding = []string{"chunked"}
		delete(req.Header, "Transfer-Encoding")
		req.Trailer = declaredTrailer(req.Header)
	default:
		req.ContentLength = r.ContentLength
	}
	req.RemoteAddr = c.remoteAddr()
	return req
}

// declaredTrailer is a request's Trailer as net/http's server makes it before the body is
// read: the names the "Trailer" field declares, with no values; nil if it declares none.
// It takes the "Trailer" field out of hdr, as net/http does for a chunked body.
func declaredTrailer(hdr http.Header) http.Header {
	var t http.Header
	for _, v := range hdr["Trailer"] {
		for _, name := range strings.Split(v, ",") {
			switch name = textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(name)); name {
			case "", "Transfer-Encoding", "Content-Length", "Trailer":
			default:
				if t == nil {
					t = make(http.Header)
				}
				t[name] = nil
			}
		}
	}
	delete(hdr, "Trailer")
	return t
}

// trailerHeader copies a chunked body's trailer fields; nil if there are none.
func trailerHeader(fields []Header) http.Header {
	if len(fields) == 0 {
		return nil
	}
	t := make(http.Header, len(fields))
	for _, f := range fields {
		k := textproto.CanonicalMIMEHeaderKey(string(f.Name))
		t[k] = append(t[k], string(f.Value))
	}
	return t
}

// mergeTrailer sets the request's Trailer values once its body is read to the end (as
// net/http's body does at EOF).
func mergeTrailer(dst *http.Header, src http.Header) {
	if *dst == nil {
		*dst = src
		return
	}
	for k, vs := range src {
		(*dst)[k] = vs
	}
}

// loopBody is a body read in full before the handler runs.
type loopBody struct {
	b       []byte
	off     int
	trailer http.Header  // the trailer fields, set in *dst at EOF
	dst     *http.Header // the request's Trailer
	closed  bool
}

func (b *loopBody) Read(p []byte) (int, error) {
	if b.closed {
		return 0, http.ErrBodyReadAfterClose
	}
	if b.off >= len(b.b) {
		if b.trailer != nil {
			mergeTrailer(b.dst, b.trailer)
			b.trailer = nil
		}
		return 0, io.EOF
	}
	n := copy(p, b.b[b.off:])
	b.off += n
	return n, nil
}

// Close makes further reads fail, as net/http's body does.
func (b *loopBody) Close() error {
	b.closed = true
	return nil
}

// netWriter is the http.ResponseWriter of FromNetHTTP: on the loop goroutine.
//
// As net/http's, it takes the header's fields when the status is set (WriteHeader, or the
// first Write or Flush): what the handler changes in Header after that is not sent, but
// for the trailers (the fields "Trailer" named then, and those named with
// http.TrailerPrefix).
type netWriter struct {
	w       *Response
	hdr     http.Header
	req     *http.Request
	status  int
	sent    bool   // buf went to w, after the head
	buf     []byte // up to 4 KiB held back so that a short body gets a Content-Length
	done    bool
	trailer []string
	written int64 // body bytes the handler wrote
	head    headFacts
}

// headFacts is what net/http's server decides from the fields taken with the status.
type headFacts struct {
	noSniff  bool // a Content-Type (even nil), a Content-Encoding or a Transfer-Encoding was set
	length   bool // a Content-Length was set
	trailers bool // trailers were declared: the body is chunked
}

func (rw *netWriter) Header() http.Header { return rw.hdr }

func (rw *netWriter) WriteHeader(code int) {
	checkWriteHeaderCode(code)
	if rw.status != 0 || rw.done {
		return // a second call: net/http keeps the first
	}
	if code < 200 && code != 101 {
		rw.w.c.interim(code, rw.hdr)
		return
	}
	rw.status = code
	w := rw.w
	w.WriteHeader(code)
	rw.trailer, rw.head = takeHeader(rw.hdr, rw.trailer[:0], w.AddHeader)
}

// checkWriteHeaderCode panics, as net/http's server does, for a status code out of range.
func checkWriteHeaderCode(code int) {
	if code < 100 || code > 999 {
		panic("invalid WriteHeader code " + strconv.Itoa(code))
	}
}

// takeHeader gives hdr's fields to add, but those named with http.TrailerPrefix, and
// returns the trailer names declared (appended to trailer, canonical) and what net/http
// decides from the fields.
func takeHeader(hdr http.Header, trailer []string, add func(name, value string) error) ([]string, headFacts) {
	var f headFacts
	for k, vs := range hdr {
		switch k {
		case "Trailer":
			for _, v := range vs {
				for _, t := range strings.Split(v, ",") {
					switch t = textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(t)); t {
					case "", "Transfer-Encoding", "Content-Length", "Trailer":
					default:
						trailer = append(trailer, t)
						f.trailers = true
					}
				}
			}
		case "Content-Type":
			f.noSniff = true
		case "Content-Encoding", "Transfer-Encoding":
			f.noSniff = f.noSniff || len(vs) > 0 && vs[0] != ""
		case "Content-Length":
			f.length = len(vs) > 0 && vs[0] != ""
		}
		if strings.HasPrefix(k, http.TrailerPrefix) {
			f.trailers = true
			continue
		}
		for _, v := range vs {
			if strings.ContainsAny(v, "\r\n") {
				v = newlineToSpace.Replace(v) // as net/http's Header.Write does
			}
			add(k, v)
		}
	}
	return trailer, f
}

var newlineToSpace = strings.NewReplacer("\n", " ", "\r", " ")

// bodyAllowed reports whether a response with status may have a body (net/http's
// bodyAllowedForStatus).
func bodyAllowed(status int) bool {
	return status >= 200 && status != 204 && status != 304
}

func (rw *netWriter) Write(p []byte) (int, error) {
	if rw.done {
		return 0, http.ErrHandlerTimeout
	}
	if rw.status == 0 {
		rw.WriteHeader(200)
	}
	if !bodyAllowed(rw.status) {
		return 0, http.ErrBodyNotAllowed
	}
	rw.written += int64(len(p))
	if cl := rw.w.cl; rw.head.length && cl >= 0 && rw.written > cl {
		return 0, http.ErrContentLength
	}
	if !rw.sent && len(rw.buf)+len(p) <= 4096 {
		rw.buf = append(rw.buf, p...)
		return len(p), nil
	}
	if !rw.sent && len(rw.buf) == 0 {
		rw.sniff(p)
	}
	rw.sendHead(-1)
	return rw.w.Write(p)
}

// sniff sets the Content-Type from the body's first bytes if the handler set none (as
// net/http's server does).
func (rw *netWriter) sniff(p []byte) {
	if !rw.head.noSniff && len(p) > 0 && bodyAllowed(rw.status) {
		rw.head.noSniff = true
		rw.w.AddHeader("Content-Type", http.DetectContentType(p))
	}
}

func (rw *netWriter) Flush() {
	if rw.status == 0 {
		rw.WriteHeader(200)
	}
	rw.sendHead(-1)
	rw.w.Flush()
}

// sendHead gives w what buf holds, and sends the head; length is the Content-Length if
// known, else -1.
func (rw *netWriter) sendHead(length int) {
	if rw.sent {
		return
	}
	rw.sent = true
	w := rw.w
	rw.sniff(rw.buf)
	frame(w, rw.head, length)
	if len(rw.buf) > 0 {
		w.Write(rw.buf)
		rw.buf = rw.buf[:0] // (kept for the connection's next request)
	}
}

// finish ends the response once the handler returned.
func (rw *netWriter) finish() {
	if rw.done {
		return
	}
	if rw.status == 0 {
		rw.WriteHeader(200)
	}
	rw.sendHead(len(rw.buf))
	addTrailers(rw.w, rw.hdr, rw.trailer)
	rw.done = true
	if !rw.w.Ended() {
		rw.w.End(nil)
	}
}

// frame sets the response's framing as net/http's server does, the body's length being
// length (-1 if not known): the handler's Content-Length if it set one; chunked if it
// declared trailers; no framing field for a HEAD of no known length; else length.
func frame(w *Response, f headFacts, length int) {
	switch {
	case f.length:
	case f.trailers || w.isHead && length <= 0:
		w.LengthUnknown()
		w.headBare = w.isHead
	case length >= 0:
		w.SetContentLength(int64(length))
	}
}

// addTrailers gives w the trailer fields as net/http's server sends them: those named
// with http.TrailerPrefix, and the values of those declared.
func addTrailers(w *Response, hdr http.Header, declared []string) {
	if len(declared) == 0 && len(hdr) == 0 {
		return
	}
	for k, vs := range hdr {
		if name, ok := strings.CutPrefix(k, http.TrailerPrefix); ok {
			for _, v := range vs {
				w.AddTrailer(name, v)
			}
		}
	}
	for _, k := range declared {
		for _, v := range hdr[k] {
			w.AddTrailer(k, v)
		}
	}
}

// interim sends a 1xx response with hdr's fields (net/http's, for WriteHeader with a 1xx
// code), unless the final head is gathered or the connection closed.
func (c *conn) interim(code int, hdr http.Header) {
	if c.w.headSent || c.w.ended || c.phase == phaseClosed {
		return
	}
	out := append(c.out, "HTTP/1.1 "...)
	out = appendInt(out, int64(code), 10)
	out = append(out, ' ')
	if text := http.StatusText(code); text != "" {
		out = append(out, text...)
	} else {
		out = append(out, "status code "...)
		out = appendInt(out, int64(code), 10)
	}
	out = append(out, "\r\n"...)
	for k, vs := range hdr {
		if k == "Content-Length" || k == "Transfer-Encoding" || !validName(k) {
			continue
		}
		for _, v := range vs {
			if validValue(v) {
				out = append(out, k...)
				out = append(out, ": "...)
				out = append(out, v...)
				out = append(out, "\r\n"...)
			}
		}
	}
	c.out = append(out, "\r\n"...)
	if code == 100 {
		c.sent100 = true
	}
	c.queueFlush()
}

// panicked answers 500 if nothing was sent, and ends the connection.
func (rw *netWriter) panicked(p any) {
	rw.done = true
	w := rw.w
	if w.Ended() {
		return
	}
	if p == http.ErrAbortHandler || rw.sent {
		w.c.destroy(errors.New("http1: handler panicked"))
		return
	}
	w.clearHead()
	w.closeAfter = true
	w.WriteHeader(500)
	w.End(nil)
}

// FromNetHTTPBlocking adapts h to run on goroutines of its own, at most workers at once
// (at least 1); see FromNetHTTP.
func FromNetHTTPBlocking(h http.Handler, workers int) Handler {
	p := &workerPool{h: h, max: max(workers, 1)}
	return HandlerFunc(p.serve)
}

// workerPool runs the handler's goroutines; loop goroutine only.
type workerPool struct {
	h       http.Handler
	max     int
	running int
	queue   []*exchange // waiting for a worker
}

// exchange is one request served by a worker: the body flows from the loop to the worker,
// the response from the worker to the loop.
type exchange struct {
	pool    *workerPool
	c       *conn
	w       *Response
	req     *http.Request
	cancel  context.CancelFunc
	release func() // the loop's Hold

	mu   sync.Mutex
	cond sync.Cond
	// mu protects the following fields.
	chunks  [][]byte // body bytes for the worker
	queued  int      // bytes in chunks
	paused  bool     // the loop paused the body for the worker to catch up
	bodyEnd bool
	bodyErr error
	reqTr   http.Header // the body's trailer fields
	pending int         // response bytes posted and not yet given to w
	blocked bool        // w's output is past the high-water mark
	closed  bool        // the connection closed or the exchange ended

	// loop goroutine only:
	hdr     http.Header
	status  int
	sent    bool
	trailer []string
}

func (p *workerPool) serve(w *Response, r *Request) {
	req, cancel := newNetRequest(w.c, r)
	x := &exchange{pool: p, c: w.c, w: w, req: req, cancel: cancel, release: w.c.s.loop.Hold()}
	x.cond.L = &x.mu
	x.hdr = http.Header{}
	if r.HasBody() {
		req.Body = &workerBody{x: x, expect: r.Expect100}
		if r.Expect100 {
			r.HoldContinue() // net/http sends the 100 when the handler first reads the body
		}
		r.OnBody(x.data, x.end)
	} else {
		x.bodyEnd = true
	}
	w.OnClose(x.connClosed)
	w.c.onEOF = x.cancel // net/http cancels the Context when the client ends its stream
	if p.running < p.max {
		p.start(x)
	} else {
		p.queue = append(p.queue, x)
	}
}

func (p *workerPool) start(x *exchange) {
	p.running++
	rw := &workerWriter{x: x, hdr: x.hdr}
	go x.run(rw)
}

// run is the worker goroutine.
func (x *exchange) run(rw *workerWriter) {
	var panicked any
	func() {
		defer func() { panicked = recover() }()
		x.pool.h.ServeHTTP(rw, x.req)
	}()
	x.cancel()
	tr, status := rw.snapshot(), rw.status
	head := rw.snap // the fields taken with the status
	if head == nil {
		head = tr
	}
	x.post(func() { x.finish(head, tr, status, panicked) })
}

// post runs fn on the loop; if the loop is gone, nothing is left to do.
func (x *exchange) post(fn func()) { x.c.s.loop.Post(fn) }

// data and end run on the loop: the body's bytes for the worker.
func (x *exchange) data(b []byte) {
	x.mu.Lock()
	if x.closed { // the handler returned: what it did not read is dropped
		x.mu.Unlock()
		return
	}
	x.chunks = append(x.chunks, append([]byte(nil), b...))
	x.queued += len(b)
	pause := x.queued > x.c.s.o.highWater && !x.paused
	if pause {
		x.paused = true
	}
	x.cond.Broadcast()
	x.mu.Unlock()
	if pause {
		x.c.pause(pauseUser)
	}
}

func (x *exchange) end(err error) {
	var tr http.Header
	if err == nil {
		tr = trailerHeader(x.c.p.trailers)
	}
	x.mu.Lock()
	x.bodyEnd, x.bodyErr, x.reqTr = true, err, tr
	x.cond.Broadcast()
	x.mu.Unlock()
}

func (x *exchange) connClosed() {
	x.cancel()
	x.mu.Lock()
	x.closed = true
	if !x.bodyEnd {
		x.bodyEnd, x.bodyErr = true, errConnClosed
	}
	x.cond.Broadcast()
	x.mu.Unlock()
}

// finish runs on the loop when the handler has returned: head holds the fields taken with
// the status, tr the header as the handler left it (for the trailers).
func (x *exchange) finish(head, tr http.Header, status int, panicked any) {
	defer x.release()
	p := x.pool
	p.running--
	if len(p.queue) > 0 {
		next := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		if next.c.phase != phaseClosed {
			p.start(next)
		} else {
			next.release()
		}
	}
	x.mu.Lock()
	closed, paused := x.closed, x.paused
	x.closed, x.paused = true, false
	x.chunks, x.queued = nil, 0 // the body the handler left unread
	x.cond.Broadcast()
	x.mu.Unlock()
	if paused {
		x.c.resume(pauseUser) // else the rest of the body, and the next request, never come
	}
	if closed || x.w.Ended() {
		return
	}
	if panicked != nil {
		if panicked == http.ErrAbortHandler || x.sent {
			x.c.destroy(errors.New("http1: handler panicked"))
			return
		}
		x.w.closeAfter = true
		x.w.WriteHeader(500)
		x.w.End(nil)
		return
	}
	if x.status == 0 {
		x.status = status
	}
	length := -1
	if !x.sent {
		length = 0 // the handler wrote nothing
	}
	x.sendHead(head, length)
	addTrailers(x.w, tr, x.trailer)
	x.w.End(nil)
}

// sendHead gives the status and fields to w (loop goroutine).
func (x *exchange) sendHead(hdr http.Header, length int) {
	if x.sent {
		return
	}
	x.sent = true
	w := x.w
	if x.status == 0 {
		x.status = 200
	}
	w.WriteHeader(x.status)
	var f headFacts
	x.trailer, f = takeHeader(hdr, x.trailer, w.AddHeader)
	frame(w, f, length)
}

// write runs on the loop: bytes the worker wrote.
func (x *exchange) write(hdr http.Header, status int, b []byte, flush bool) {
	x.mu.Lock()
	x.pending -= len(b)
	closed := x.closed
	x.mu.Unlock()
	if closed || x.w.Ended() {
		return
	}
	if x.status == 0 {
		x.status = status
	}
	x.sendHead(hdr, -1)
	if len(b) > 0 {
		x.w.Write(b)
	}
	if flush {
		x.w.Flush()
	}
	if x.w.NeedDrain() {
		x.mu.Lock()
		x.blocked = true
		x.mu.Unlock()
		x.w.OnDrain(x.drained)
	} else {
		x.mu.Lock()
		x.cond.Broadcast()
		x.mu.Unlock()
	}
}

func (x *exchange) drained() {
	x.mu.Lock()
	x.blocked = false
	x.cond.Broadcast()
	x.mu.Unlock()
}

// workerBody is the request body a worker reads.
type workerBody struct {
	x      *exchange
	cur    []byte
	expect bool // the 100 (Continue) is still to be sent, at the first Read
	closed bool
}

func (b *workerBody) Read(p []byte) (int, error) {
	if b.closed {
		return 0, http.ErrBodyReadAfterClose
	}
	x := b.x
	if b.expect {
		b.expect = false
		x.post(x.w.WriteContinue)
	}
	if len(b.cur) == 0 {
		x.mu.Lock()
		for len(x.chunks) == 0 && !x.bodyEnd {
			x.cond.Wait()
		}
		if len(x.chunks) == 0 {
			err, tr := x.bodyErr, x.reqTr
			x.reqTr = nil
			x.mu.Unlock()
			if tr != nil {
				mergeTrailer(&x.req.Trailer, tr)
			}
			if err == nil {
				err = io.EOF
			}
			return 0, err
		}
		b.cur = x.chunks[0]
		x.chunks[0] = nil
		x.chunks = x.chunks[1:]
		x.queued -= len(b.cur)
		resume := x.paused && x.queued <= x.c.s.o.highWater/2
		if resume {
			x.paused = false
		}
		x.mu.Unlock()
		if resume {
			x.post(func() { x.c.resume(pauseUser) })
		}
	}
	n := copy(p, b.cur)
	b.cur = b.cur[n:]
	return n, nil
}

// Close makes further reads fail, as net/http's body does.
func (b *workerBody) Close() error {
	b.closed = true
	return nil
}

// workerWriter is the http.ResponseWriter of FromNetHTTPBlocking: on the worker goroutine.
// As net/http's (and netWriter), it takes the header's fields when the status is set.
type workerWriter struct {
	x       *exchange
	hdr     http.Header // the worker's
	status  int
	posted  bool        // something went to the loop: the head is fixed
	snap    http.Header // the fields taken with the status; the loop's once posted
	facts   headFacts
	cl      int64 // the Content-Length taken, or -1
	written int64
}

func (rw *workerWriter) Header() http.Header { return rw.hdr }

func (rw *workerWriter) WriteHeader(code int) {
	checkWriteHeaderCode(code)
	if rw.status != 0 {
		return
	}
	x := rw.x
	if code < 200 && code != 101 {
		hdr := rw.hdr.Clone()
		x.post(func() {
			x.mu.Lock()
			closed := x.closed
			x.mu.Unlock()
			if !closed {
				x.c.interim(code, hdr)
			}
		})
		return
	}
	rw.status = code
	rw.snap = rw.hdr.Clone()
	if rw.snap == nil {
		rw.snap = http.Header{}
	}
	_, rw.facts = takeHeader(rw.snap, nil, func(string, string) error { return nil })
	rw.cl = -1
	if rw.facts.length {
		if n, err := strconv.ParseInt(rw.snap.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
			rw.cl = n
		}
	}
}

// snapshot copies the header for the loop, for the trailers.
func (rw *workerWriter) snapshot() http.Header { return rw.hdr.Clone() }

func (rw *workerWriter) Write(p []byte) (int, error) {
	return rw.send(p, false)
}

func (rw *workerWriter) Flush() { rw.send(nil, true) }

func (rw *workerWriter) send(p []byte, flush bool) (int, error) {
	x := rw.x
	if rw.status == 0 {
		rw.WriteHeader(200)
	}
	if len(p) > 0 {
		if !bodyAllowed(rw.status) {
			return 0, http.ErrBodyNotAllowed
		}
		rw.written += int64(len(p))
		if rw.cl >= 0 && rw.written > rw.cl {
			return 0, http.ErrContentLength
		}
	}
	if !rw.posted {
		rw.posted = true
		if !rw.facts.noSniff && len(p) > 0 && bodyAllowed(rw.status) {
			rw.snap.Set("Content-Type", http.DetectContentType(p))
		}
	}
	x.mu.Lock()
	for (x.blocked || x.pending > x.c.s.o.highWater) && !x.closed {
		x.cond.Wait()
	}
	if x.closed {
		x.mu.Unlock()
		return 0, errConnClosed
	}
	x.pending += len(p)
	x.mu.Unlock()
	b := append([]byte(nil), p...)
	hdr, status := rw.snap, rw.status
	x.post(func() { x.write(hdr, status, b, flush) })
	return len(p), nil
}
