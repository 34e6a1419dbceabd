package nodehttp

import (
	"fmt"
	"maps"
	"slices"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodenet"
)

// ServerResponse is Node's http.ServerResponse: the response a "request" listener
// writes, over an http1.Response. Header changes go until the head is sent (WriteHead
// sends nothing by itself: the head goes with the first Write or End, as Node's does);
// a body written without a Content-Length is chunked, and End of a response that wrote
// nothing sends a Content-Length. Loop goroutine only.
//
// Events:
//
//	"finish"  End's bytes were handed to the connection: from a nextTick after End
//	"close"   a nextTick after "finish"; or, if the connection closed before the
//	          response finished, from the connection's close (close phase)
//	"drain"   a Write that returned false was written
type ServerResponse struct {
	nodenet.EventEmitter

	// StatusCode is the status End and Write send (200 by default).
	StatusCode int
	// StatusMessage is the reason phrase ("" for Node's, StatusCodes[StatusCode]).
	StatusMessage string

	srv   *Server
	req   *IncomingMessage
	w     *http1.Response // nil once ended, or once the connection is gone
	sock  *Socket
	hdrs  outHeaders // the fields set; storage made on first use (outStore)
	arena []string   // room for single header values (see outHeaders.setString)

	headerSent       bool // the head is fixed (writeHead or the first write)
	finished         bool // End was called
	writableFinished bool
	closed           bool
	needDrain        bool
	trailers         *[]string       // AddTrailers' fields, name and value, given to w at End
	nextFin          *ServerResponse // a pipelined response whose 'finish' waits for this one's
}

// outStore is the storage of a response's first fields.
type outStore struct {
	hdrs [4]outHeader
	vals [4]string
}

// store readies res.hdrs and res.arena for the fields set.
func (res *ServerResponse) store() {
	if res.hdrs == nil {
		st := new(outStore)
		res.hdrs, res.arena = st.hdrs[:0:len(st.hdrs)], st.vals[:0:len(st.vals)]
	}
}

func (res *ServerResponse) init(s *Server, req *IncomingMessage, w *http1.Response, sock *Socket) {
	res.StatusCode, res.srv, res.req, res.w, res.sock = 200, s, req, w, sock
	res.SetClass(responseClass)
}

// The names of this package's emitters in leak warnings, as Node's.
var (
	serverClass   = nodeevents.NewClass("Server")
	incomingClass = nodeevents.NewClass("IncomingMessage")
	responseClass = nodeevents.NewClass("ServerResponse")
	requestClass  = nodeevents.NewClass("ClientRequest")
)

// Req returns the request the response answers.
func (res *ServerResponse) Req() *IncomingMessage { return res.req }

// Socket returns the connection (nil once the response finished).
func (res *ServerResponse) Socket() *Socket {
	if res.writableFinished {
		return nil
	}
	return res.sock
}

// SetHeader sets a header field (value: a string, a []string for repeated fields, or a
// number), replacing one of the same name (ASCII case ignored). It fails with
// ErrHeadersSent once the head is sent, ERR_INVALID_HTTP_TOKEN for a bad name,
// ERR_INVALID_CHAR for a value with control characters.
func (res *ServerResponse) SetHeader(name string, value any) error {
	if res.headerSent {
		return ErrHeadersSent
	}
	return res.setHeader(name, value)
}

// AppendHeader adds values to a header field (response.appendHeader).
func (res *ServerResponse) AppendHeader(name string, value any) error {
	if res.headerSent {
		return ErrHeadersSent
	}
	return res.appendHeader(name, value)
}

// GetHeader returns a header field set (a string, or a []string), or nil.
func (res *ServerResponse) GetHeader(name string) any { return res.hdrs.get(name) }

// GetHeaders returns the header fields set, by lower-case name.
func (res *ServerResponse) GetHeaders() map[string]any { return res.hdrs.all() }

// GetHeaderNames returns the lower-case names of the fields set, in the order set.
func (res *ServerResponse) GetHeaderNames() []string { return res.hdrs.names() }

// HasHeader reports whether a header field is set.
func (res *ServerResponse) HasHeader(name string) bool { return res.hdrs.find(lowerASCII(name)) >= 0 }

// RemoveHeader removes a header field; ErrHeadersSent once the head is sent.
func (res *ServerResponse) RemoveHeader(name string) error {
	if res.headerSent {
		return ErrHeadersSent
	}
	res.hdrs.remove(name)
	return nil
}

// HeadersSent reports whether the head is fixed (response.headersSent).
func (res *ServerResponse) HeadersSent() bool { return res.headerSent }

// WritableEnded reports whether End was called.
func (res *ServerResponse) WritableEnded() bool { return res.finished }

// WritableFinished reports whether "finish" was emitted.
func (res *ServerResponse) WritableFinished() bool { return res.writableFinished }

// Destroyed reports whether the response closed.
func (res *ServerResponse) Destroyed() bool { return res.closed }

// WriteHead is response.writeHead(statusCode[, statusMessage][, headers]): args may hold
// a string (the reason phrase) and the headers, as a []string of name, value pairs or a
// map[string]string / map[string]any (in sorted order). As in Node, if SetHeader set
// nothing before, the headers go to the head as they are (a []string's repeated names
// too), without becoming the response's own: GetHeader does not see them. Otherwise each
// is set as by SetHeader (a name given replaces the one set, and a repeated one its
// predecessor). The head is sent with the first Write or End.
func (res *ServerResponse) WriteHead(statusCode int, args ...any) error {
	if res.headerSent {
		return ErrHeadersSent
	}
	if statusCode < 100 || statusCode > 999 {
		return errInvalidStatus(statusCode)
	}
	var direct any // the headers, when they go to the head as they are
	for _, a := range args {
		switch x := a.(type) {
		case string:
			res.StatusMessage = x
		case []string:
			if len(res.hdrs) == 0 && direct == nil {
				direct = a
				continue
			}
			for i := 0; i+1 < len(x); i += 2 { // Node v20: setHeader for each pair
				if err := res.hdrs.setString(x[i], x[i+1], &res.arena); err != nil {
					return err
				}
			}
		case map[string]string:
			if len(res.hdrs) == 0 && direct == nil {
				direct = a
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if err := res.hdrs.setString(k, x[k], &res.arena); err != nil {
					return err
				}
			}
		case map[string]any:
			if len(res.hdrs) == 0 && direct == nil {
				direct = a
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if err := res.hdrs.set(k, x[k]); err != nil {
					return err
				}
			}
		}
	}
	if direct != nil {
		if err := checkHeaders(direct); err != nil {
			return err
		}
	}
	res.StatusCode = statusCode
	if err := res.storeHeader(direct); err != nil {
		return err
	}
	if res.w != nil {
		res.w.LengthUnknown() // Node builds the head here: End's body is chunked
	}
	return nil
}

// WriteContinue is response.writeContinue(): the 100 (Continue) response goes now, asking
// the client for the body (a "checkContinue" listener calls it, or answers without it).
func (res *ServerResponse) WriteContinue() {
	if res.w != nil {
		res.w.WriteContinue()
	}
}

// FlushHeaders is response.flushHeaders(): the head is fixed, as by WriteHead with the
// status set, if it is not yet, and sent now rather than with the body, which is then
// chunked unless a Content-Length was set.
func (res *ServerResponse) FlushHeaders() error {
	if res.finished {
		return nil
	}
	if !res.headerSent {
		if err := res.storeHeader(nil); err != nil {
			return err
		}
	}
	if w := res.w; w != nil {
		w.LengthUnknown()
		w.Flush()
	}
	return nil
}

// AddTrailers is response.addTrailers(headers): the fields sent after a chunked body
// (a map[string]string or map[string]any, in sorted order, or a [][2]string of name,
// value pairs; a []string value gives the field once per value). Each call replaces the
// trailers of the one before; a body that is not chunked drops them, as in Node. A name
// that is not a token or a value with a control byte is refused with Node's error, and
// the trailers are then the fields before it, as Node leaves them.
func (res *ServerResponse) AddTrailers(headers any) (err error) {
	var tr []string
	defer func() { res.trailers = &tr }()
	add := func(name string, v any) error {
		if !validToken(name) {
			return &nodenet.Error{Code: "ERR_INVALID_HTTP_TOKEN", Message: fmt.Sprintf("Trailer name must be a valid HTTP token [%q]", name)}
		}
		for _, x := range headerValues(v) {
			if !validFieldValue(x) {
				return &nodenet.Error{Code: "ERR_INVALID_CHAR", Message: fmt.Sprintf("Invalid character in trailer content [%q]", name)}
			}
			tr = append(tr, name, x)
		}
		if v == nil {
			tr = append(tr, name, "undefined")
		}
		return nil
	}
	switch x := headers.(type) {
	case map[string]string:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err = add(k, x[k]); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err = add(k, x[k]); err != nil {
				return err
			}
		}
	case [][2]string:
		for _, p := range x {
			if err = add(p[0], p[1]); err != nil {
				return err
			}
		}
	case nil:
	default:
		if res.trailers != nil {
			tr = *res.trailers
		}
		return &nodenet.Error{Code: "ERR_INVALID_ARG_TYPE", Message: fmt.Sprintf("The \"headers\" argument must be of type object. Received %T", headers)}
	}
	return nil
}

// checkHeaders validates the headers WriteHead sends as they are, as Node's _storeHeader
// does before anything is sent.
func checkHeaders(h any) error {
	check := func(name string, v any) error {
		if !validToken(name) {
			return errInvalidToken(name)
		}
		if x, ok := v.(string); ok {
			if !validFieldValue(x) {
				return errInvalidChar(name)
			}
			return nil
		}
		vals := headerValues(v)
		if vals == nil {
			return errInvalidValue(name, "undefined")
		}
		for _, x := range vals {
			if !validFieldValue(x) {
				return errInvalidChar(name)
			}
		}
		return nil
	}
	switch x := h.(type) {
	case []string:
		for i := 0; i+1 < len(x); i += 2 {
			if !validToken(x[i]) {
				return errInvalidToken(x[i])
			}
			if !validFieldValue(x[i+1]) {
				return errInvalidChar(x[i])
			}
		}
	case map[string]string:
		for k, v := range x {
			if err := check(k, v); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, v := range x {
			if err := check(k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendHeader is AppendHeader without the headersSent check.
func (res *ServerResponse) appendHeader(name string, value any) error {
	if i := res.hdrs.find(lowerASCII(name)); i >= 0 {
		vals := append(append([]string(nil), res.hdrs[i].values...), headerValues(value)...)
		return res.hdrs.set(res.hdrs[i].name, vals)
	}
	return res.setHeader(name, value)
}

// setHeader is SetHeader without the headersSent check: a string value is kept in the
// response's arena.
func (res *ServerResponse) setHeader(name string, value any) error {
	res.store()
	if x, ok := value.(string); ok {
		return res.hdrs.setString(name, x, &res.arena)
	}
	return res.hdrs.set(name, value)
}

// storeHeader fixes the head: the status, the fields set, and direct (WriteHead's headers
// that are not the response's own: a []string or a map, validated) go to the engine's
// response.
func (res *ServerResponse) storeHeader(direct any) error {
	if res.StatusCode < 100 || res.StatusCode > 999 {
		return errInvalidStatus(res.StatusCode)
	}
	res.headerSent = true
	w := res.w
	if w == nil {
		return nil
	}
	w.WriteHeader(res.StatusCode)
	msg := res.StatusMessage
	if msg == "" {
		if msg = StatusCodes[res.StatusCode]; msg == "" {
			msg = "unknown"
		}
		res.StatusMessage = msg
	}
	if msg != http1.StatusText(res.StatusCode) {
		if err := w.SetReason(msg); err != nil {
			return &nodenet.Error{Code: "ERR_INVALID_CHAR", Message: "Invalid character in statusMessage"}
		}
	}
	for _, h := range res.hdrs {
		if h.lower == "transfer-encoding" {
			continue // the engine frames the body: chunked without a Content-Length
		}
		for _, v := range h.values {
			if err := w.AddHeader(h.name, v); err != nil {
				return errInvalidValue(h.name, v)
			}
		}
	}
	switch x := direct.(type) {
	case []string:
		for i := 0; i+1 < len(x); i += 2 {
			if err := addDirect(w, x[i], x[i+1]); err != nil {
				return err
			}
		}
	case map[string]string:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if err := addDirect(w, k, x[k]); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if s, ok := x[k].(string); ok {
				if err := addDirect(w, k, s); err != nil {
					return err
				}
				continue
			}
			for _, v := range headerValues(x[k]) {
				if err := addDirect(w, k, v); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// addDirect gives one of WriteHead's own fields to the engine.
func addDirect(w *http1.Response, name, value string) error {
	if len(name) == len("transfer-encoding") && equalFoldASCII(name, "transfer-encoding") {
		return nil // the engine frames the body
	}
	if err := w.AddHeader(name, value); err != nil {
		return errInvalidValue(name, value)
	}
	return nil
}

// Write writes a chunk of the body (sending the head first); it reports false when the
// connection's output is over its high-water mark ("drain" follows) or the response
// cannot be written (ended: an "error" ERR_STREAM_WRITE_AFTER_END follows if there is a
// listener).
func (res *ServerResponse) Write(data []byte) bool {
	if !res.startWrite() {
		return false
	}
	if res.w == nil || len(data) == 0 {
		return res.w != nil
	}
	res.w.Write(data)
	return res.checkDrain()
}

// WriteString is Write for a string.
func (res *ServerResponse) WriteString(s string) bool {
	if !res.startWrite() {
		return false
	}
	if res.w == nil || len(s) == 0 {
		return res.w != nil
	}
	res.w.WriteString(s)
	return res.checkDrain()
}

// sendHead fixes the head if it is not yet; a failure is emitted as "error" from a nextTick
// and reported false.
func (res *ServerResponse) sendHead() bool {
	if !res.headerSent {
		if err := res.storeHeader(nil); err != nil {
			res.loop().NextTick(func() { res.emitError(err) })
			return false
		}
	}
	return true
}

// startWrite is the part of Write before the body: false after End or if the head fails.
func (res *ServerResponse) startWrite() bool {
	if res.finished {
		res.writeAfterEnd()
		return false
	}
	return res.sendHead()
}

// startEnd is the part of End before the body's last n bytes: it marks the response
// finished and returns the engine's response to end, or nil if there is none, End came
// before (with data, ERR_STREAM_WRITE_AFTER_END follows) or the head fails.
func (res *ServerResponse) startEnd(n int) *http1.Response {
	if res.finished {
		if n > 0 {
			res.writeAfterEnd()
		}
		return nil
	}
	if !res.sendHead() {
		return nil
	}
	res.finished = true
	w := res.w
	res.w = nil
	if tr := res.trailers; w != nil && tr != nil {
		for i := 0; i+1 < len(*tr); i += 2 {
			w.AddTrailer((*tr)[i], (*tr)[i+1]) // validated by AddTrailers
		}
	}
	return w
}

func (res *ServerResponse) checkDrain() bool {
	if !res.w.NeedDrain() {
		return true
	}
	if !res.needDrain {
		res.needDrain = true
		res.w.OnDrain(func() {
			res.needDrain = false
			res.Emit("drain")
		})
	}
	return false
}

func (res *ServerResponse) loop() interface{ NextTick(func()) } { return res.srv.loop }

func (res *ServerResponse) writeAfterEnd() {
	res.loop().NextTick(func() { res.emitError(ErrWriteAfterEnd) })
}

func (res *ServerResponse) emitError(err error) {
	if res.ListenerCount("error") > 0 {
		res.Emit("error", err)
	}
}

// End ends the response with data (may be nil) as the body's last bytes; "finish"
// follows from a nextTick, then "close".
func (res *ServerResponse) End(data []byte) *ServerResponse {
	if w := res.startEnd(len(data)); w != nil {
		w.End(data)
		res.queueFinish()
	}
	return res
}

// EndString is End for a string.
func (res *ServerResponse) EndString(s string) *ServerResponse {
	if w := res.startEnd(len(s)); w != nil {
		w.EndString(s)
		res.queueFinish()
	}
	return res
}

// queueFinish queues "finish" a tick after End, or, for a pipelined response whose
// predecessor on the connection has not finished, a tick after the predecessor's (Node
// flushes it when the predecessor leaves the socket).
func (res *ServerResponse) queueFinish() {
	if sk := res.sock; sk != nil {
		if sk.finTail != nil {
			sk.finTail.nextFin = res
			sk.finTail = res
			return
		}
		sk.finTail = res
	}
	res.srv.tk.response(tickFinish, res)
}

// finish is Node's onFinish and resOnFinish: the request is dumped if nobody read it, the
// response leaves its connection, "close" is queued, then "finish" is emitted.
func (res *ServerResponse) finish() {
	if sk := res.sock; sk != nil && sk.gone {
		return // the connection's close closes the response
	}
	res.writableFinished = true
	if req := res.req; req != nil && !req.r.consuming && !req.r.resumeScheduled {
		req.r.dump()
	}
	if sk := res.sock; sk != nil && sk.res == res {
		sk.res = nil
		if sk.req == res.req {
			sk.req = nil
		}
	}
	res.srv.tk.response(tickResClose, res)
	if sk := res.sock; sk != nil {
		if n := res.nextFin; n != nil {
			res.nextFin = nil
			res.srv.tk.response(tickFinish, n)
		} else if sk.finTail == res {
			sk.finTail = nil
		}
	}
	res.Emit("finish")
}

func (res *ServerResponse) emitClose() {
	if res.closed {
		return
	}
	res.closed = true
	res.Emit("close")
}

// Destroy destroys the connection (response.destroy()).
func (res *ServerResponse) Destroy(err error) {
	if res.sock != nil {
		res.sock.Destroy(err)
	}
}

// OnFinish adds a "finish" listener.
func (res *ServerResponse) OnFinish(fn func()) *nodenet.Listener {
	return res.On("finish", func(...any) { fn() })
}

// OnClose adds a "close" listener.
func (res *ServerResponse) OnClose(fn func()) *nodenet.Listener {
	return res.On("close", func(...any) { fn() })
}
