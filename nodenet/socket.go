package nodenet

import (
	"errors"
	"io"
	"net/netip"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/internal/bufenc"
	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/uvloop"
)

// highWaterMark is Node's default for sockets: Write returns false once this many bytes
// wait, and a socket nobody reads stops reading once this many bytes are buffered.
const highWaterMark = 16 << 10

// Socket is Node's net.Socket over a uvloop TCP or Pipe handle: a Duplex stream with
// Node's events, in Node's order. Loop goroutine only.
//
// Events (Emit arguments in brackets; the typed On* methods wrap them):
//
//	"connect", "ready"  the connection is up: emitted from Connect's callback (poll phase)
//	"data" [chunk]      chunk is a []byte, a fresh copy the listener owns, or a string
//	                    after SetEncoding; emitted from the read callback when the socket is
//	                    flowing (a "data" listener makes it flow, from a nextTick)
//	"end"               the peer ended its side and every chunk was delivered: from a
//	                    nextTick after the end of stream was read
//	"finish"            End's shutdown is done: from a nextTick after it
//	"drain"             a Write that returned false has been written
//	"error" [error]     from a nextTick after the socket was destroyed with that error
//	"close" [hadError]  in the close phase, from the handle's close callback
//
// Unless AllowHalfOpen is set, a socket whose peer ended ends its own side after "end" (on
// a nextTick) and is destroyed once that is done; a socket is also destroyed once both
// "end" and "finish" have been emitted.
type Socket struct {
	EventEmitter

	// AllowHalfOpen keeps the socket open for writing after the peer ended (Node's
	// allowHalfOpen, false by default). Set it before "end".
	AllowHalfOpen bool

	loop   *uvloop.Loop
	h      uvloop.Stream // nil once destroyed
	tcp    *uvloop.TCP   // h when it is a TCP handle
	server *Server       // the server that accepted it, or nil
	addr   string        // the address being connected to (for errors)
	port   int

	connecting   bool
	destroyed    bool
	errored      error
	errorEmitted bool
	closeEmitted bool // Node's closeEmitted: the destroy's own tick has run

	// reading
	flowing         int8 // -1: no consumer yet, 0: paused, 1: flowing
	buf             []any
	bufLen          int
	reading         bool
	readEnded       bool // the end of the stream was read
	endEmitted      bool
	peerEnded       bool // "end" was emitted and AllowHalfOpen was false
	resumeScheduled bool
	flowScheduled   bool                  // flowNT is queued (Node's emittedReadable)
	dec             *bufenc.StringDecoder // after SetEncoding

	// writing
	pending     []pendingWrite // written while connecting, or since, behind the first of them
	buffering   bool           // writes go to pending: from the first one made while connecting until it is done
	corked      int            // Cork's depth
	corkBuf     []pendingWrite // written while corked
	wlen        int            // bytes written and not yet acknowledged
	needDrain   bool
	ending      bool
	finalCalled bool
	finished    bool
	canceledOne bool // Destroy cancelled a write: the ones after it get bufferedErr

	bytesRead, bytesWritten int

	readableHWM, writableHWM int // highWaterMark of each side

	timeout        *uvloop.Timeout // the idle timer of SetTimeout, or nil
	timeoutDur     time.Duration
	lastWriteQueue int // the handle's write queue when the idle timer was last refreshed

	pipeState PipeState
}

type pendingWrite struct {
	data []byte
	cb   func(error)
}

func newSocket(l *uvloop.Loop) *Socket {
	s := &Socket{loop: l, flowing: -1, readableHWM: highWaterMark, writableHWM: highWaterMark}
	s.SetClass(socketClass)
	return s
}

// Connect is net.connect(port, host, connectListener): it returns at once, and the
// connection is made from a nextTick for an IP address, or after the host name is looked up
// on the work pool (nodedns.Lookup; "" means "localhost"), as Node does: the socket emits
// "lookup" (err, address, family, host) first, and a failed lookup is reported as "error"
// (the lookup's *nodedns.Error, ENOTFOUND for an unknown name) then "close".
// connectListener, if not nil, is a Once("connect") listener.
func Connect(l *uvloop.Loop, port int, host string, connectListener func()) *Socket {
	s := newSocket(l)
	if connectListener != nil {
		s.Once("connect", func(...any) { connectListener() })
	}
	if host == "" {
		host = "localhost"
	}
	s.addr, s.port = host, port
	s.connecting = true
	tcp, err := l.NewTCP()
	if err != nil {
		s.connecting = false
		l.NextTick(func() { s.Destroy(err) })
		return s
	}
	s.setHandle(tcp)
	connect := func(ip netip.Addr) {
		s.addr = ip.String()
		if err := tcp.Connect(netip.AddrPortFrom(ip, uint16(port)), s.afterConnect); err != nil {
			s.Destroy(sysError(err, "connect", s.addr, port))
		}
	}
	if ip, perr := netip.ParseAddr(host); perr == nil {
		l.NextTick(func() {
			if s.connecting {
				connect(ip)
			}
		})
		return s
	}
	err = nodedns.Lookup(l, host, nil, func(err error, address string, family int) {
		s.Emit("lookup", err, address, family, host)
		if !s.connecting {
			return
		}
		if err != nil {
			l.NextTick(func() { s.Destroy(err) })
			return
		}
		connect(netip.MustParseAddr(address))
	})
	if err != nil {
		l.NextTick(func() { s.Destroy(err) })
	}
	return s
}

// ConnectPath is net.connect(path, connectListener) over a Unix domain socket. Node
// connects to a path at once, without a tick.
func ConnectPath(l *uvloop.Loop, path string, connectListener func()) *Socket {
	s := newSocket(l)
	if connectListener != nil {
		s.Once("connect", func(...any) { connectListener() })
	}
	s.addr = path
	s.connecting = true
	p, err := l.NewPipe()
	if err != nil {
		s.connecting = false
		l.NextTick(func() { s.Destroy(err) })
		return s
	}
	s.setHandle(p)
	if err := p.Connect(path, s.afterConnect); err != nil {
		s.Destroy(sysError(err, "connect", path, 0))
	}
	return s
}

func (s *Socket) setHandle(h uvloop.Stream) {
	s.h = h
	s.tcp, _ = h.(*uvloop.TCP)
}

// afterConnect is Node's afterConnect: 'connect' and 'ready', then reading starts.
func (s *Socket) afterConnect(err error) {
	if s.destroyed {
		return
	}
	s.connecting = false
	if err != nil {
		s.Destroy(sysError(err, "connect", s.addr, s.port))
		return
	}
	s.activity()
	// What was written while connecting is written by a "connect" listener (flushPending).
	if s.ending && s.finalCalled && s.wlen == 0 {
		s.shutdown()
	}
	s.Emit("connect")
	s.Emit("ready")
	if s.flowing != 0 {
		s.startReading()
	}
}

// adopt makes s the server side of an accepted connection; reading starts at once, as in
// Node's Socket constructor.
func (s *Socket) adopt(h uvloop.Stream, server *Server) {
	s.setHandle(h)
	s.server = server
	s.AllowHalfOpen = server.AllowHalfOpen
	s.startReading()
}

// ---- reading ----

func (s *Socket) startReading() {
	if s.h == nil || s.reading || s.readEnded || s.connecting {
		return
	}
	if err := s.h.ReadStart(s.onRead); err != nil {
		s.Destroy(sysError(err, "read", "", 0))
		return
	}
	s.reading = true
}

func (s *Socket) stopReading() {
	if s.reading && s.h != nil {
		s.h.ReadStop()
	}
	s.reading = false
}

// onRead is Node's onStreamRead; data belongs to the loop, so it is copied.
func (s *Socket) onRead(data []byte, err error) {
	if s.destroyed {
		return
	}
	switch {
	case err == nil:
		s.bytesRead += len(data)
		s.activity()
		s.push(append([]byte(nil), data...))
	case errors.Is(err, io.EOF):
		s.reading = false
		s.onEOF()
	default:
		s.reading = false
		s.Destroy(sysError(err, "read", "", 0))
	}
}

func (s *Socket) push(b []byte) {
	var chunk any = b
	if s.dec != nil {
		str := s.dec.Write(b)
		if str == "" {
			return
		}
		chunk = str
	}
	if s.flowing == 1 && s.bufLen == 0 && s.ListenerCount("data") > 0 {
		s.Emit("data", chunk)
		return
	}
	s.buf = append(s.buf, chunk)
	s.bufLen += bufenc.ChunkLen(chunk)
	if s.bufLen >= s.readableHWM {
		s.stopReading()
	}
	if s.flowing == 1 && !s.resumeScheduled && !s.flowScheduled {
		// Flowing with no "data" listener: Node's emitReadable flows the buffer out from a
		// nextTick (the chunks go to no one), so reading goes on to the end.
		s.flowScheduled = true
		s.loop.NextTick(s.flowNT)
	}
}

// flowNT is Node's emitReadable_ for a flowing socket: what is buffered goes to "data",
// and reading starts again below the high-water mark.
func (s *Socket) flowNT() {
	s.flowScheduled = false
	if s.destroyed {
		return
	}
	s.flow()
	if s.flowing == 1 && s.bufLen < s.readableHWM {
		s.startReading()
	}
}

// onEOF is push(null) and read(0): buffered chunks flow out if flowing, then 'end' is due.
func (s *Socket) onEOF() {
	s.readEnded = true
	if s.dec != nil {
		if rest := s.dec.End(); rest != "" {
			s.buf = append(s.buf, rest)
			s.bufLen += bufenc.ChunkLen(rest)
		}
	}
	s.flow()
	if s.bufLen == 0 {
		s.endReadable()
	}
}

// flow hands the buffered chunks to "data" while the socket flows (Node's flow).
func (s *Socket) flow() {
	for s.flowing == 1 && len(s.buf) > 0 && !s.destroyed {
		chunk := s.buf[0]
		s.buf[0] = nil
		s.buf = s.buf[1:]
		s.bufLen -= bufenc.ChunkLen(chunk)
		s.Emit("data", chunk)
	}
	if len(s.buf) == 0 {
		s.buf = nil
		if s.readEnded {
			s.endReadable()
		}
	}
}

func (s *Socket) endReadable() {
	if !s.endEmitted {
		s.loop.NextTick(s.endReadableNT)
	}
}

// endReadableNT emits 'end'; then the socket ends its own side (not half-open) or, if that
// is already done, is destroyed.
func (s *Socket) endReadableNT() {
	if s.errored != nil || s.closeEmitted || s.endEmitted || s.bufLen != 0 {
		return
	}
	s.endEmitted = true
	if !s.AllowHalfOpen {
		s.peerEnded = true
	}
	s.Emit("end")
	switch {
	case s.writable() && !s.AllowHalfOpen:
		s.loop.NextTick(func() { s.End(nil) })
	case s.finished:
		s.Destroy(nil)
	}
}

func (s *Socket) writable() bool { return !s.destroyed && s.errored == nil && !s.ending }

// Pause stops "data" events; what arrives is buffered (up to highWaterMark, then reading
// stops).
func (s *Socket) Pause() *Socket {
	if s.flowing != 0 {
		s.flowing = 0
		s.Emit("pause")
	}
	return s
}

// Resume makes the socket flow: buffered chunks, then new ones, go to "data", starting
// from a nextTick.
func (s *Socket) Resume() *Socket {
	if s.flowing != 1 {
		s.flowing = 1
		if !s.resumeScheduled {
			s.resumeScheduled = true
			s.loop.NextTick(s.resumeNT)
		}
	}
	return s
}

func (s *Socket) resumeNT() {
	s.resumeScheduled = false
	s.Emit("resume")
	s.flow()
	if s.flowing == 1 && s.bufLen < s.readableHWM {
		s.startReading()
	}
}

// IsPaused reports whether Pause was called (and Resume not since).
func (s *Socket) IsPaused() bool { return s.flowing == 0 }

// SetEncoding makes "data" hand strings decoded from enc, as Node's StringDecoder does (a
// character split between reads is held back until it is complete): any of Node's Buffer
// encodings ("utf8", "hex", "base64", "latin1", ...; "" is utf8). What the socket holds
// (read while paused) is decoded now, as Node's setEncoding converts its buffer. An unknown
// name gives an *Error with Code ERR_UNKNOWN_ENCODING (errors.Is(err, ErrUnknownEncoding)).
func (s *Socket) SetEncoding(enc string) error {
	d, err := newDecoder(enc)
	if err != nil {
		return err
	}
	s.dec = d
	if len(s.buf) > 0 {
		content := d.Redecode(s.buf)
		clear(s.buf)
		s.buf = s.buf[:0]
		if content != "" {
			s.buf = append(s.buf, content)
		}
		s.bufLen = bufenc.ChunkLen(content)
	}
	return nil
}

// ReadableEncoding is readable.readableEncoding: the encoding SetEncoding set, normalized,
// or "" for raw bytes.
func (s *Socket) ReadableEncoding() string {
	if s.dec == nil {
		return ""
	}
	return s.dec.Encoding()
}

// On is EventEmitter.On; a "data" listener makes the socket flow unless it was paused.
func (s *Socket) On(event string, fn func(args ...any)) *Listener {
	l := s.EventEmitter.On(event, fn)
	if event == "data" && s.flowing != 0 {
		s.Resume()
	}
	return l
}

// Once is EventEmitter.Once; a "data" listener makes the socket flow unless it was paused.
func (s *Socket) Once(event string, fn func(args ...any)) *Listener {
	l := s.EventEmitter.Once(event, fn)
	if event == "data" && s.flowing != 0 {
		s.Resume()
	}
	return l
}

// ---- writing ----

// Write writes data (Node's socket.write) and reports whether less than highWaterMark
// bytes now wait and the write did not fail at once (false: wait for "drain"). The socket
// does not keep data: what the kernel does not take at once is copied. cb, if not nil, gets nil once data is written
// (from a nextTick if it was written at once; the first write made while the socket
// connects calls back at once, from the 'connect' listener it adds: see the package doc),
// or the error. Write after End fails with
// ErrWriteAfterEnd, after the peer ended a socket that is not half-open with
// ErrEndedByPeer: cb gets the error on a nextTick and the socket is destroyed with it.
func (s *Socket) Write(data []byte, cb func(err error)) bool {
	if err := s.writeErr(); err != nil {
		if cb != nil {
			s.loop.NextTick(func() { cb(err) })
		}
		if err != ErrDestroyed {
			s.Destroy(err)
		}
		return false
	}
	s.wlen += len(data)
	ok := s.wlen < s.writableHWM
	if !ok {
		s.needDrain = true
	}
	if s.corked > 0 {
		s.corkBuf = append(s.corkBuf, pendingWrite{append([]byte(nil), data...), cb})
		return ok
	}
	s.send(data, cb, true)
	// Node's writeOrBuffer: false too when the write failed at once (EPIPE: the error is
	// set now, its callback and 'error' come from a nextTick).
	return ok && s.errored == nil && !s.destroyed
}

// send hands a write to the handle, or to pending while connecting; keep says data is the
// caller's (a copy is kept if it must wait).
func (s *Socket) send(data []byte, cb func(error), keep bool) {
	if s.connecting || s.buffering {
		if !s.buffering {
			// Node's _writeGeneric: the first write waits for "connect" in a listener of
			// its own, so listeners added before it run first.
			s.buffering = true
			s.Once("connect", func(...any) { s.flushPending() })
		}
		if keep {
			data = append([]byte(nil), data...)
		}
		s.pending = append(s.pending, pendingWrite{data, cb})
		return
	}
	s.writeNow(data, cb, keep, true)
}

// Cork is writable.cork(): the writes that follow wait (WritableLength counts them) until
// as many Uncork calls, or End. Corks nest.
func (s *Socket) Cork() { s.corked++ }

// Uncork is writable.uncork(): the last of the nested Uncork calls writes what waited as one
// write, whose completion calls the writes' callbacks in order, as Node's writev does.
// Uncork of a socket that is not corked does nothing.
func (s *Socket) Uncork() {
	if s.corked == 0 {
		return
	}
	s.corked--
	if s.corked > 0 || len(s.corkBuf) == 0 {
		return
	}
	corked := s.corkBuf
	s.corkBuf = nil
	if s.destroyed || s.errored != nil {
		s.dropCorked(corked)
		return
	}
	var data []byte
	for _, w := range corked {
		data = append(data, w.data...)
	}
	s.send(data, func(err error) {
		for _, w := range corked {
			if w.cb != nil {
				w.cb(err)
			}
		}
	}, false)
}

// WritableCorked is writable.writableCorked: the number of Uncork calls that the writes
// wait for.
func (s *Socket) WritableCorked() int { return s.corked }

// dropCorked ends corked writes that will not be made: from a nextTick, their bytes leave
// WritableLength and their callbacks get bufferedErr, as Node's buffered writes.
func (s *Socket) dropCorked(corked []pendingWrite) {
	if len(corked) == 0 {
		return
	}
	err := s.bufferedErr()
	s.loop.NextTick(func() {
		for _, w := range corked {
			s.wlen -= len(w.data)
			if w.cb != nil {
				w.cb(err)
			}
		}
	})
}

// flushPending makes the first write made while connecting, as Node does once connected:
// outside write(), so if it completes at once its callback runs at once. Until it is done
// (Node's state.writing), writes wait behind it in pending; then they are made together,
// their callbacks from a nextTick if they complete at once, before the first one's.
func (s *Socket) flushPending() {
	if len(s.pending) == 0 || s.destroyed {
		s.dropPending()
		return
	}
	first := s.pending[0]
	s.pending = s.pending[1:]
	s.writeNow(first.data, func(err error) {
		if err != nil {
			s.dropPending()
		} else {
			rest := s.pending
			s.pending, s.buffering = nil, false
			for _, w := range rest {
				s.writeNow(w.data, w.cb, false, true)
			}
		}
		if first.cb != nil {
			first.cb(err)
		}
	}, false, false)
}

// dropPending ends the writes waiting in pending, which will not be made (the socket is
// destroyed, or the write before them failed): their bytes leave writableLength and their
// callbacks get bufferedErr from a nextTick, as Node's buffered writes do.
func (s *Socket) dropPending() {
	err := s.bufferedErr()
	for _, w := range s.pending {
		s.wlen -= len(w.data)
		if cb := w.cb; cb != nil {
			s.loop.NextTick(func() { cb(err) })
		}
	}
	s.pending, s.buffering = nil, false
}

// WriteString is Write of a string.
func (s *Socket) WriteString(data string, cb func(err error)) bool {
	return s.Write([]byte(data), cb)
}

func (s *Socket) writeErr() error {
	switch {
	case s.ending && s.peerEnded:
		return ErrEndedByPeer
	case s.ending:
		return ErrWriteAfterEnd
	case s.destroyed:
		return ErrDestroyed
	}
	return nil
}

// writeNow is Node's writeGeneric: try to write at once, queue (a copy of) the rest. sync
// is Node's state.sync: a write that completes at once calls back from a nextTick if set,
// at once if not.
func (s *Socket) writeNow(data []byte, cb func(error), mayKeep, sync bool) {
	h := s.h
	n := len(data)
	if h == nil {
		s.onWrite(sync, ErrDestroyed, n, cb)
		return
	}
	s.activity()
	s.bytesWritten += n // Node counts what it hands to the handle
	rest := data
	if h.WriteQueueSize() == 0 {
		k, err := h.TryWrite(data)
		switch {
		case err == nil && k == len(data):
			s.onWrite(sync, nil, n, cb)
			return
		case err != nil && !isAgain(err):
			s.onWrite(sync, sysError(err, "write", "", 0), n, cb)
			return
		}
		rest = data[k:]
	}
	if mayKeep {
		rest = append([]byte(nil), rest...)
	}
	err := h.Write(rest, func(err error) {
		if err != nil && s.destroyed {
			s.onCanceled(n, cb)
			return
		}
		if err != nil {
			err = sysError(err, "write", "", 0)
		}
		s.onWrite(false, err, n, cb)
	})
	if err != nil {
		s.onWrite(sync, sysError(err, "write", "", 0), n, cb)
		return
	}
	s.lastWriteQueue = h.WriteQueueSize()
}

// onCanceled ends a write that failed after Destroy (cancelled, or, on io_uring, failed in
// the kernel before the close) as Node's onWriteComplete does for a destroyed socket,
// whatever the status: the write the handle had (the oldest) calls back with no error; the
// writes behind it, which Node would still hold in its buffer, get bufferedErr.
func (s *Socket) onCanceled(n int, cb func(error)) {
	s.wlen -= n
	var err error
	if s.canceledOne {
		err = s.bufferedErr()
	}
	s.canceledOne = true
	if cb != nil {
		cb(err)
	}
}

// bufferedErr is the error of the writes that Node would hold in its buffer when they are
// dropped (errorBuffer): the socket's error (Destroy's) if it has one, else ErrDestroyed.
func (s *Socket) bufferedErr() error {
	if s.errored != nil {
		return s.errored
	}
	return ErrDestroyed
}

func isAgain(err error) bool {
	errno, ok := errnoOf(err)
	return ok && errno == syscall.EAGAIN
}

// onWrite is Node's onwrite: a write that completed at once calls back from a nextTick.
func (s *Socket) onWrite(sync bool, err error, n int, cb func(error)) {
	s.wlen -= n
	if err != nil {
		if s.errored == nil {
			s.errored = err
		}
		fail := func() {
			if cb != nil {
				cb(err)
			}
			s.Destroy(err)
		}
		if sync {
			s.loop.NextTick(fail)
		} else {
			fail()
		}
		return
	}
	if sync {
		s.loop.NextTick(func() { s.afterWrite(cb) })
	} else {
		s.afterWrite(cb)
	}
}

func (s *Socket) afterWrite(cb func(error)) {
	if s.needDrain && !s.ending && !s.destroyed && s.wlen == 0 {
		s.needDrain = false
		s.Emit("drain")
	}
	if cb != nil {
		cb(nil)
	}
	s.finishMaybe()
}

// End ends the writing side once everything written is written (a TCP FIN), after
// writing data if it is not nil (Node's socket.end(data)). "finish" follows.
func (s *Socket) End(data []byte) *Socket {
	if data != nil {
		s.Write(data, nil) // a write after End fails there
	}
	if s.corked > 0 {
		s.corked = 1
		s.Uncork()
	}
	if !s.ending && s.errored == nil {
		s.ending = true
		s.finishMaybe()
	}
	return s
}

// EndString is End of a string.
func (s *Socket) EndString(data string) *Socket { return s.End([]byte(data)) }

func (s *Socket) needFinish() bool {
	return s.ending && !s.destroyed && s.wlen == 0 && s.errored == nil && !s.finished && !s.errorEmitted && !s.closeEmitted
}

// finishMaybe calls Node's _final (the shutdown) once all writes are done.
func (s *Socket) finishMaybe() {
	if s.needFinish() && !s.finalCalled {
		s.finalCalled = true
		if !s.connecting {
			s.shutdown()
		} // else afterConnect shuts down
	}
}

func (s *Socket) shutdown() {
	if s.h == nil || s.h.Shutdown(func(error) { s.onFinal() }) != nil {
		s.onFinal()
	}
}

// onFinal is _final's callback: 'finish' from a nextTick, then destroy if 'end' was
// emitted.
func (s *Socket) onFinal() {
	if !s.needFinish() {
		return
	}
	s.loop.NextTick(func() {
		s.finished = true
		s.Emit("finish")
		if s.endEmitted {
			s.Destroy(nil)
		}
	})
}

// ---- destroying ----

// Destroy closes the socket now (Node's socket.destroy(err)): the handle is closed, "error"
// (if err is not nil) follows from a nextTick and "close" (hadError: err != nil) from the
// close phase. The writes still in flight call back before "close", as Node's do for a
// destroyed socket: the oldest with nil, the ones behind it with err (ErrDestroyed if
// nil), as corked writes do. A second Destroy does nothing.
func (s *Socket) Destroy(err error) *Socket {
	if s.destroyed {
		return s
	}
	s.destroyed = true
	if err != nil && s.errored == nil {
		s.errored = err
	}
	s.clearTimeout()
	s.connecting = false
	s.reading = false
	s.dropPending()
	s.dropCorked(s.corkBuf)
	s.corkBuf = nil
	if h := s.h; h != nil {
		hadError := err != nil
		s.h, s.tcp = nil, nil
		h.Close(func() { s.Emit("close", hadError) })
		s.onDestroy(err)
	} else {
		s.onDestroy(err)
		s.loop.NextTick(func() { s.Emit("close", false) })
	}
	if srv := s.server; srv != nil {
		s.server = nil
		srv.connections--
		srv.emitCloseIfDrained()
	}
	return s
}

func (s *Socket) onDestroy(err error) {
	s.loop.NextTick(func() {
		if err != nil && !s.errorEmitted {
			s.errorEmitted = true
			s.Emit("error", err)
		}
		s.closeEmitted = true
	})
}

// ---- state and options ----

// Destroyed reports whether Destroy was called.
func (s *Socket) Destroyed() bool { return s.destroyed }

// Closed is socket.closed: the socket was destroyed (Node's destroy of a socket is done at
// once; "close" follows in the close phase).
func (s *Socket) Closed() bool { return s.destroyed }

// WillEmitClose reports whether Finished waits for "close" after "end" and "finish": no,
// as Node's sockets have emitClose false (they emit "close" themselves).
func (s *Socket) WillEmitClose() bool { return false }

// Connecting reports whether a Connect is in progress.
func (s *Socket) Connecting() bool { return s.connecting }

// BytesRead is socket.bytesRead: the bytes received.
func (s *Socket) BytesRead() int { return s.bytesRead }

// BytesWritten is socket.bytesWritten: the bytes handed to the connection (written, or
// queued in the handle), and the bytes written while connecting, as Node counts them.
func (s *Socket) BytesWritten() int {
	n := s.bytesWritten
	for _, w := range s.pending {
		n += len(w.data)
	}
	return n
}

// BufferedAmount is the number of bytes written and not yet handed to the kernel.
func (s *Socket) BufferedAmount() int { return s.wlen }

// SetNoDelay turns Nagle's algorithm off (true) or on, for TCP sockets.
func (s *Socket) SetNoDelay(on bool) *Socket {
	if s.tcp != nil {
		s.tcp.SetNoDelay(on)
	}
	return s
}

// Ref and Unref: whether the socket keeps the loop alive.
func (s *Socket) Ref() *Socket {
	if s.h != nil {
		s.h.Ref()
	}
	return s
}

func (s *Socket) Unref() *Socket {
	if s.h != nil {
		s.h.Unref()
	}
	return s
}

// AddressInfo is what Address returns: Node's { address, family, port }. For a Unix
// domain socket Address is the path, Family is "" and Port is 0.
type AddressInfo struct {
	Address string
	Family  string // "IPv4" or "IPv6"
	Port    int
}

func (a AddressInfo) String() string {
	if a.Family == "" {
		return a.Address
	}
	return netip.AddrPortFrom(netip.MustParseAddr(a.Address), uint16(a.Port)).String()
}

// addressInfo is Node's { address, family, port }. An IPv4 peer of a dual-stack socket
// keeps its mapped form, "::ffff:127.0.0.1" with family "IPv6", as Node shows it.
func addressInfo(ap netip.AddrPort) *AddressInfo {
	return &AddressInfo{Address: ap.Addr().String(), Family: family(ap.Addr()), Port: int(ap.Port())}
}

func family(ip netip.Addr) string {
	if ip.Is4() {
		return "IPv4"
	}
	return "IPv6"
}

// Address is the local address, or nil if there is none (not connected, destroyed).
func (s *Socket) Address() *AddressInfo {
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

// RemoteAddress is the peer's address ("" if unknown): on a socket a server listening on
// "::" accepted, an IPv4 peer is "::ffff:127.0.0.1", as in Node.
func (s *Socket) RemoteAddress() string {
	if ap, ok := s.remote(); ok {
		return ap.Addr().String()
	}
	return ""
}

// RemoteFamily is the peer address's family, "IPv4" or "IPv6" ("" if unknown).
func (s *Socket) RemoteFamily() string {
	if ap, ok := s.remote(); ok {
		return family(ap.Addr())
	}
	return ""
}

// RemotePort is the peer's port (0 if unknown).
func (s *Socket) RemotePort() int {
	if ap, ok := s.remote(); ok {
		return int(ap.Port())
	}
	return 0
}

func (s *Socket) remote() (netip.AddrPort, bool) {
	if s.tcp != nil {
		if ap, err := s.tcp.RemoteAddr(); err == nil {
			return ap, true
		}
	}
	return netip.AddrPort{}, false
}

// ---- typed listeners ----

// OnConnect adds a "connect" listener.
func (s *Socket) OnConnect(fn func()) *Listener { return s.On("connect", func(...any) { fn() }) }

// OnData adds a "data" listener that gets the chunk as bytes (a copy it owns; a string
// chunk after SetEncoding is converted). It makes the socket flow.
func (s *Socket) OnData(fn func(data []byte)) *Listener {
	return s.On("data", func(a ...any) {
		switch c := a[0].(type) {
		case []byte:
			fn(c)
		case string:
			fn([]byte(c))
		}
	})
}

// OnEnd adds an "end" listener.
func (s *Socket) OnEnd(fn func()) *Listener { return s.On("end", func(...any) { fn() }) }

// OnFinish adds a "finish" listener.
func (s *Socket) OnFinish(fn func()) *Listener { return s.On("finish", func(...any) { fn() }) }

// OnDrain adds a "drain" listener.
func (s *Socket) OnDrain(fn func()) *Listener { return s.On("drain", func(...any) { fn() }) }

// OnError adds an "error" listener.
func (s *Socket) OnError(fn func(err error)) *Listener {
	return s.On("error", func(a ...any) { fn(a[0].(error)) })
}

// OnClose adds a "close" listener.
func (s *Socket) OnClose(fn func(hadError bool)) *Listener {
	return s.On("close", func(a ...any) { fn(a[0].(bool)) })
}
