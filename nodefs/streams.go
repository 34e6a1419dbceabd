package nodefs

import (
	"github.com/uvgo/uvgo/internal/bufenc"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// Node's defaults for file streams.
const (
	readStreamHighWaterMark  = 64 << 10
	writeStreamHighWaterMark = 16 << 10
)

// ReadStreamOptions are fs.createReadStream's options; nil is Node's default (flags "r",
// highWaterMark 64 KiB, from the file's position to its end, raw bytes, autoClose).
type ReadStreamOptions struct {
	Flags         string
	Mode          uint32
	Start         int64 // -1 or 0 with HasStart false: from the file's position
	End           int64 // inclusive; used when HasEnd
	HasStart      bool
	HasEnd        bool
	HighWaterMark int
	Encoding      string // "" for raw bytes; otherwise "data" carries strings
	Fd            int    // with HasFd: read this descriptor instead of opening Path
	HasFd         bool
	NoAutoClose   bool
	NoEmitClose   bool // emitClose: false: no "close" event
}

// ReadStream is fs.ReadStream. Events, in Node's order: "open" (fd) and "ready" once the
// file is open, "data" (a []byte the listener owns, or a string with an Encoding) per read
// while flowing, "end" from a nextTick after the last data, "close" once the descriptor is
// closed; "error" (err) then "close" if something fails. Adding a "data" listener (OnData)
// or piping starts the flow; Pause and Resume control it. Loop goroutine only.
type ReadStream struct {
	nodenet.EventEmitter
	fileStream
	end int64          // -1: to the end of the file
	dec *stringDecoder // with an encoding: "data" carries strings

	BytesRead int64 // bytesRead

	reading, ended  bool
	endEmitted      bool
	flowing         bool  // data events are being emitted
	paused          bool  // Pause was called (Node's flowing === false): a "data" listener does not resume
	resumeScheduled bool  // Resume's nextTick is queued and has not run
	buf             []any // chunks read while paused, for the next flow
	bufLen          int
	pipeState       nodenet.PipeState
}

// fileStream is what ReadStream and WriteStream share: the file, Node's construct (open it,
// or take a descriptor; "open" and "ready") and the end of its destroy (close it; "error"
// and "close"). Loop goroutine only.
type fileStream struct {
	self      fileStreamer // the ReadStream or WriteStream this is part of
	fs        *FS
	path      string
	fd        int
	flags     int
	flagsErr  error // an unknown flag: the open fails with it (Node's open throws in the construct)
	mode      uint32
	pos       int64 // -1: the file's position
	hwm       int
	autoClose bool
	emitClose bool // not NoEmitClose
	flush     bool // WriteStream's Flush: fsync before the close

	opened       bool
	opening      bool  // until didOpen: a Destroy meanwhile waits for it, as for Node's construct
	destroyed    bool  // Destroy was called
	destErr      error // the error Destroy was given, emitted once the open or I/O in flight is done
	errored      error // Node's state.errored: the first failure, or Destroy's error
	errorEmitted bool
	closed       bool // the descriptor was closed by the destroy (Node's closed)
	closeEmitted bool // the destroy's last nextTick ran
}

// fileStreamer is what a fileStream calls on its stream.
type fileStreamer interface {
	Emit(event string, args ...any) bool
	Destroy(err error)
	begin() // the file is open and the stream not destroyed: read or write
}

// construct starts Node's construct from a nextTick: with hasFd on fd, else on the file it
// opens.
func (s *fileStream) construct(hasFd bool, fd int) error {
	s.opening = true
	if hasFd {
		if err := checkFd(fd); err != nil {
			return err
		}
		s.fd = fd
		s.fs.loop.NextTick(func() { s.didOpen(false) })
	} else {
		s.fs.loop.NextTick(s.open)
	}
	return nil
}

func (s *fileStream) open() {
	if s.flagsErr != nil {
		s.fs.loop.NextTick(func() { s.failOpen(s.flagsErr) })
		return
	}
	if err := s.fs.loop.FSOpen(nil, s.path, s.flags, s.mode, func(req *uvloop.FSReq) {
		if err := req.Err(); err != nil {
			s.fs.loop.NextTick(func() { s.failOpen(fromErr(err)) })
			return
		}
		s.fd = int(req.Result())
		s.didOpen(true)
	}); err != nil {
		s.fs.loop.NextTick(func() { s.failOpen(fromErr(err)) })
	}
}

// failOpen is the end of Node's construct when the open failed (its onConstruct, a nextTick
// after the open's callback): the stream is destroyed with the error, or, if it was
// destroyed meanwhile, its destroy goes on.
func (s *fileStream) failOpen(err error) {
	s.opening = false
	if s.destroyed {
		if s.destErr == nil {
			s.destErr = err
		}
		s.finishDestroy()
		return
	}
	s.errorOrDestroy(err, true)
}

// errorOrDestroy is Node's: with autoClose the stream is destroyed with err; without, err
// only becomes the stream's error and is emitted (from a nextTick if sync), and the stream
// stays until Destroy.
func (s *fileStream) errorOrDestroy(err error, sync bool) {
	if s.destroyed {
		return
	}
	if s.autoClose {
		s.self.Destroy(err)
		return
	}
	if s.errored == nil {
		s.errored = err
	}
	if sync {
		s.fs.loop.NextTick(func() { s.emitError(err) })
	} else {
		s.emitError(err)
	}
}

// emitError emits "error" unless one was emitted (Node's emitErrorNT).
func (s *fileStream) emitError(err error) {
	if !s.errorEmitted {
		s.errorEmitted = true
		s.self.Emit("error", err)
	}
}

// didOpen is the end of Node's construct: with emit (a file it opened, not a descriptor it
// was given), "open" and "ready" are emitted, even when the stream was destroyed meanwhile.
// The stream counts as constructed only from a nextTick queued before them (Node's
// onConstruct): writes made by their listeners wait, and go out with the ones before.
func (s *fileStream) didOpen(emit bool) {
	s.fs.loop.NextTick(s.constructed)
	if emit {
		s.self.Emit("open", s.fd)
		s.self.Emit("ready")
	}
}

// constructed is Node's onConstruct: a Destroy made meanwhile goes on, else the stream
// reads or writes.
func (s *fileStream) constructed() {
	s.opened = true
	s.opening = false
	if s.destroyed {
		s.finishDestroy()
		return
	}
	s.self.begin()
}

// finishDestroy closes the descriptor, if there is one (after an fsync with Flush), and
// then, from a nextTick, emits "error" (with the error Destroy was given, or the fsync's)
// and "close" (unless NoEmitClose).
func (s *fileStream) finishDestroy() {
	loop := s.fs.loop
	then := func() {
		if s.destErr != nil {
			s.emitError(s.destErr)
		}
		s.closeEmitted = true
		if s.emitClose {
			s.self.Emit("close")
		}
	}
	closed := func() { // Node's onDestroy
		s.closed = true
		loop.NextTick(then)
	}
	if s.fd < 0 {
		closed()
		return
	}
	fd := s.fd
	s.fd = -1
	closeFd := func() {
		if err := loop.FSClose(nil, fd, func(*uvloop.FSReq) { closed() }); err != nil {
			closed()
		}
	}
	if !s.flush {
		closeFd()
		return
	}
	if err := loop.FSFsync(nil, fd, func(req *uvloop.FSReq) {
		if s.destErr == nil {
			s.destErr = fromErr(req.Err())
		}
		closeFd()
	}); err != nil {
		closeFd()
	}
}

// WillEmitClose reports whether the stream emits "close" once it ended or finished, so that
// nodenet.Finished waits for it: autoClose and emitClose are on and it is not closed yet.
func (s *fileStream) WillEmitClose() bool { return s.autoClose && s.emitClose && !s.closed }

// Closed is stream.closed: the descriptor is closed after a destroy ("close", if emitted,
// follows from a nextTick).
func (s *fileStream) Closed() bool { return s.closed }

// checkHighWaterMark is Node's getHighWaterMark for the streams' option: a negative one is
// ERR_INVALID_ARG_VALUE (0 is the default here).
func checkHighWaterMark(n int) error {
	if n < 0 {
		return argError("ERR_INVALID_ARG_VALUE", "The property 'options.highWaterMark' is invalid. Received "+itoa(int64(n)))
	}
	return nil
}

// Pending is stream.pending: the stream has no descriptor (before "open", and once
// closed).
func (s *fileStream) Pending() bool { return s.fd < 0 }

// ReadStream and WriteStream have Node's stream shape: nodenet.Pipe, Pipeline and Finished
// take them.
var (
	_ nodenet.Readable = (*ReadStream)(nil)
	_ nodenet.Writable = (*WriteStream)(nil)
)

// CreateReadStream is fs.createReadStream(path, options).
func (f *FS) CreateReadStream(path string, opts *ReadStreamOptions) (*ReadStream, error) {
	var o ReadStreamOptions
	if opts != nil {
		o = *opts
	}
	flags, flagsErr := Flags(o.Flags) // emitted, not returned: see fileStream.open
	if err := checkPath("path", path); err != nil {
		return nil, err
	}
	enc, err := checkEncoding(o.Encoding)
	if err != nil {
		return nil, err
	}
	if enc == "" && o.Encoding != "" {
		// "buffer" passes the options' check, not the stream's StringDecoder
		return nil, unknownEncoding(o.Encoding)
	}
	if err := checkHighWaterMark(o.HighWaterMark); err != nil {
		return nil, err
	}
	r := &ReadStream{fileStream: fileStream{fs: f, path: path, fd: -1, flags: flags, flagsErr: flagsErr, mode: o.Mode,
		pos: -1, hwm: o.HighWaterMark, autoClose: !o.NoAutoClose, emitClose: !o.NoEmitClose}, end: -1}
	r.self = r
	r.SetClassName("ReadStream")
	if enc != "" {
		r.dec = newStringDecoder(enc)
	}
	if r.mode == 0 {
		r.mode = defaultFileMode
	}
	if r.hwm <= 0 {
		r.hwm = readStreamHighWaterMark
	}
	if o.HasStart {
		if o.Start < 0 {
			return nil, argError("ERR_OUT_OF_RANGE", "The value of \"start\" is out of range. It must be >= 0 && <= 9007199254740991. Received "+itoa(o.Start))
		}
		r.pos = o.Start
	}
	if o.HasEnd {
		if o.End < 0 {
			return nil, argError("ERR_OUT_OF_RANGE", "The value of \"end\" is out of range. It must be >= 0 && <= 9007199254740991. Received "+itoa(o.End))
		}
		if o.HasStart && o.Start > o.End {
			return nil, argError("ERR_OUT_OF_RANGE", "The value of \"start\" is out of range. It must be <= \"end\" (here: "+itoa(o.End)+"). Received "+itoa(o.Start))
		}
		r.end = o.End // without start, from the file's position: end bounds BytesRead
	}
	if err := r.construct(o.HasFd, o.Fd); err != nil {
		return nil, err
	}
	return r, nil
}

// Path is readStream.path.
func (r *ReadStream) Path() string { return r.path }

// Fd is the descriptor, -1 before "open" and after "close".
func (r *ReadStream) Fd() int { return r.fd }

// begin starts reading once the file is open.
func (r *ReadStream) begin() { r.read() }

// On is emitter.on(event, fn); a "data" listener starts the flow unless Pause was called,
// as Node's Readable does.
func (r *ReadStream) On(event string, fn func(args ...any)) *nodenet.Listener {
	l := r.EventEmitter.On(event, fn)
	if event == "data" && !r.paused {
		r.Resume()
	}
	return l
}

// Once is emitter.once(event, fn), with On's rule for "data".
func (r *ReadStream) Once(event string, fn func(args ...any)) *nodenet.Listener {
	l := r.EventEmitter.Once(event, fn)
	if event == "data" && !r.paused {
		r.Resume()
	}
	return l
}

// OnData adds a "data" listener for bytes (which starts the flow); with an encoding it gets
// the decoded text's bytes.
func (r *ReadStream) OnData(fn func(chunk []byte)) *nodenet.Listener {
	return r.On("data", func(a ...any) {
		switch c := a[0].(type) {
		case []byte:
			fn(c)
		case string:
			fn([]byte(c))
		}
	})
}

// OnDataString adds a "data" listener for strings: the decoded text with an encoding, else
// the bytes as they are.
func (r *ReadStream) OnDataString(fn func(chunk string)) *nodenet.Listener {
	return r.On("data", func(a ...any) {
		switch c := a[0].(type) {
		case []byte:
			fn(string(c))
		case string:
			fn(c)
		}
	})
}

// Resume is readable.resume(): the stream flows; "resume" follows from a nextTick.
func (r *ReadStream) Resume() *ReadStream {
	r.paused = false
	if r.flowing {
		return r
	}
	r.flowing = true
	if !r.resumeScheduled { // Node's resumeScheduled: one "resume" however often it is called
		r.resumeScheduled = true
		r.fs.loop.NextTick(r.resumeNT)
	}
	return r
}

// resumeNT is Node's resume_: "resume", then the stream flows (unless paused since).
func (r *ReadStream) resumeNT() {
	r.resumeScheduled = false
	r.Emit("resume")
	r.flow()
}

// flow hands what was read while paused to "data", then reads on while the stream flows.
func (r *ReadStream) flow() {
	for r.flowing && len(r.buf) > 0 && !r.destroyed {
		c := r.buf[0]
		r.buf[0] = nil
		r.buf = r.buf[1:]
		r.bufLen -= chunkLen(c)
		r.Emit("data", c)
	}
	if len(r.buf) == 0 {
		r.buf = nil
		if r.ended && !r.endEmitted {
			r.scheduleEnd()
			return
		}
	}
	r.read()
}

// chunkLen is a chunk's length as Node counts it (a string's in UTF-16 code units).
func chunkLen(c any) int { return bufenc.ChunkLen(c) }

// Pause is readable.pause(): the flow stops and "pause" is emitted at once, as Node's.
func (r *ReadStream) Pause() *ReadStream {
	if r.paused {
		return r
	}
	r.flowing, r.paused = false, true
	r.Emit("pause")
	return r
}

// IsPaused is readable.isPaused(): Pause was called, and Resume (or a pipe's drain) not
// since. A stream that nothing reads yet is not paused.
func (r *ReadStream) IsPaused() bool { return r.paused }

func (r *ReadStream) read() {
	if !r.opened || !r.flowing || r.reading || r.ended || r.destroyed || r.errored != nil {
		return
	}
	size := int64(r.hwm)
	switch {
	case r.end >= 0 && r.pos >= 0:
		size = min(size, r.end-r.pos+1)
	case r.end >= 0:
		size = min(size, r.end-r.BytesRead+1) // Node's _read without start
	}
	if size <= 0 {
		r.pushEOF()
		return
	}
	buf := make([]byte, size)
	r.reading = true
	if err := r.fs.loop.FSRead(nil, r.fd, buf, r.pos, func(req *uvloop.FSReq) {
		r.reading = false
		if r.destroyed { // Destroy waited for this read
			r.finishDestroy()
			return
		}
		if err := req.Err(); err != nil {
			r.errorOrDestroy(fromErr(err), false)
			return
		}
		n := int(req.Result())
		if n == 0 {
			r.pushEOF()
			return
		}
		if r.pos >= 0 {
			r.pos += int64(n)
		}
		r.BytesRead += int64(n)
		r.emitData(buf[:n])
		r.fs.loop.NextTick(r.read) // Node's maybeReadMore
	}); err != nil {
		r.reading = false
		r.errorOrDestroy(fromErr(err), true)
	}
}

// SetEncoding is readable.setEncoding(encoding): from now on "data" carries strings,
// decoded as Node's StringDecoder does (a character or a base64 group split between reads is
// held back until its end arrives); what was read while paused is decoded now, as Node's
// converts its buffer. "" is utf8, as Node's default; raw bytes ("buffer") and unknown
// names give ERR_UNKNOWN_ENCODING.
func (r *ReadStream) SetEncoding(encoding string) error {
	if encoding == "" {
		encoding = "utf8"
	}
	enc, ok := normEncoding(encoding)
	if !ok || enc == "" {
		return unknownEncoding(encoding)
	}
	r.dec = newStringDecoder(enc)
	if len(r.buf) > 0 {
		content := r.dec.Redecode(r.buf)
		clear(r.buf)
		r.buf = r.buf[:0]
		if content != "" {
			r.buf = append(r.buf, content)
		}
		r.bufLen = chunkLen(content)
	}
	return nil
}

// ReadableEncoding is readable.readableEncoding: the encoding's normalized name, "" for raw
// bytes.
func (r *ReadStream) ReadableEncoding() string {
	if r.dec == nil {
		return ""
	}
	return r.dec.Encoding()
}

func (r *ReadStream) emitData(b []byte) {
	if r.dec == nil {
		r.push(b)
		return
	}
	if s := r.dec.Write(b); s != "" {
		r.push(s)
	}
}

// push emits a chunk while the stream flows and nothing waits before it, else buffers it.
func (r *ReadStream) push(c any) {
	if r.flowing && len(r.buf) == 0 {
		r.Emit("data", c)
		return
	}
	r.buf = append(r.buf, c)
	r.bufLen += chunkLen(c)
}

func (r *ReadStream) pushEOF() {
	if r.ended {
		return
	}
	r.ended = true
	if r.dec != nil {
		if s := r.dec.End(); s != "" {
			r.push(s)
		}
	}
	if len(r.buf) == 0 {
		r.scheduleEnd()
	}
}

// scheduleEnd is Node's endReadable: "end" from a nextTick, unless the stream errored or
// its destroy ended meanwhile (a Destroy without an error in between does not stop it).
func (r *ReadStream) scheduleEnd() {
	r.fs.loop.NextTick(func() {
		if r.errored != nil || r.destErr != nil || r.closeEmitted || r.endEmitted || len(r.buf) > 0 {
			return
		}
		r.endEmitted = true
		r.Emit("end")
		if r.autoClose {
			r.Destroy(nil)
		}
	})
}

// Destroy is readable.destroy(err): the descriptor is closed, then "error" (if err is not
// nil) and "close" follow from a nextTick. An open or a read in flight is waited for first,
// as Node's does (its "open" and "ready" are still emitted).
func (r *ReadStream) Destroy(err error) {
	if r.destroyed {
		return
	}
	r.destroyed, r.destErr = true, err
	r.flowing = false
	if r.opening || r.reading {
		return
	}
	r.finishDestroy()
}

// Close is readStream.close(cb): Destroy, with cb on "close".
func (r *ReadStream) Close(cb func()) {
	if cb != nil {
		r.Once("close", func(...any) { cb() })
	}
	r.Destroy(nil)
}

// Writable is what Pipe writes into: a WriteStream, a nodenet.Socket, or anything with
// Node's writable shape.
type Writable = nodenet.Writable

// Pipe is readable.pipe(destination, { end }), with Node's backpressure: see nodenet.Pipe.
func (r *ReadStream) Pipe(dst Writable, end bool) Writable { return nodenet.Pipe(r, dst, end) }

// Unpipe is readable.unpipe(destination): see nodenet.Unpipe.
func (r *ReadStream) Unpipe(dst Writable) { nodenet.Unpipe(r, dst) }

// Loop is the loop the stream belongs to.
func (r *ReadStream) Loop() *uvloop.Loop { return r.fs.loop }

// DestroyStream is Destroy.
func (r *ReadStream) DestroyStream(err error) { r.Destroy(err) }

// Readable is readable.readable: not destroyed, "error" and "end" not emitted.
func (r *ReadStream) Readable() bool { return !r.destroyed && !r.errorEmitted && !r.endEmitted }

// ReadableEnded is readable.readableEnded: "end" was emitted.
func (r *ReadStream) ReadableEnded() bool { return r.endEmitted }

// ReadableLength is readable.readableLength: what was read while paused, in bytes, or with
// an encoding in UTF-16 code units, as JavaScript counts a string.
func (r *ReadStream) ReadableLength() int { return r.bufLen }

// ReadableHighWaterMark is readable.readableHighWaterMark: the size of each read.
func (r *ReadStream) ReadableHighWaterMark() int { return r.hwm }

// PauseStream is Pause without its result.
func (r *ReadStream) PauseStream() { r.Pause() }

// ResumeStream is Resume without its result.
func (r *ReadStream) ResumeStream() { r.Resume() }

// FlowStream makes the stream flow at once, without "resume" (what a pipe does when its
// destination drains).
func (r *ReadStream) FlowStream() {
	r.paused, r.flowing = false, true
	r.flow()
}

// PipeState is where nodenet.Pipe keeps the stream's destinations.
func (r *ReadStream) PipeState() *nodenet.PipeState { return &r.pipeState }

// WriteStreamOptions are fs.createWriteStream's options; nil is Node's default (flags "w",
// mode 0o666, highWaterMark 16 KiB, at the file's position, autoClose).
type WriteStreamOptions struct {
	Flags         string
	Mode          uint32
	Start         int64 // with HasStart: write from this offset
	HasStart      bool
	HighWaterMark int
	Fd            int
	HasFd         bool
	NoAutoClose   bool
	NoEmitClose   bool // emitClose: false: no "close" event
	Flush         bool // flush: the data is fsync'ed before the descriptor is closed
}

// WriteStream is fs.WriteStream. Write returns false once HighWaterMark bytes or more are
// buffered ("drain" follows when they are written). Events, in Node's order: "open" (fd),
// "ready" (neither for a descriptor given as Fd), "drain" (before the callback of the write
// that emptied the buffer), "finish" (after End, once everything is written; End's callback
// runs just before), "close" once the descriptor is closed; "error" then "close" on failure.
// Written bytes must not be touched until their write callback runs. Loop goroutine only.
type WriteStream struct {
	nodenet.EventEmitter
	fileStream

	BytesWritten int64 // bytesWritten

	queue     []pendingWrite // buffered: not handed to a write yet
	inflight  []pendingWrite // the writes of the write (or writev) in flight
	length    int            // buffered bytes, written or not yet
	writing   bool
	needDrain bool
	ending    bool
	finishing bool // finish is queued (Node's prefinished)
	finished  bool // "finish" is being or was emitted (Node's finished)
	onFinish  []func(error)
}

type pendingWrite struct {
	data []byte
	cb   func(error)
}

// CreateWriteStream is fs.createWriteStream(path, options).
func (f *FS) CreateWriteStream(path string, opts *WriteStreamOptions) (*WriteStream, error) {
	var o WriteStreamOptions
	if opts != nil {
		o = *opts
	}
	if o.Flags == "" {
		o.Flags = "w"
	}
	flags, flagsErr := Flags(o.Flags) // emitted, not returned: see fileStream.open
	if err := checkPath("path", path); err != nil {
		return nil, err
	}
	if err := checkHighWaterMark(o.HighWaterMark); err != nil {
		return nil, err
	}
	w := &WriteStream{fileStream: fileStream{fs: f, path: path, fd: -1, flags: flags, flagsErr: flagsErr, mode: o.Mode,
		pos: -1, hwm: o.HighWaterMark, autoClose: !o.NoAutoClose, emitClose: !o.NoEmitClose, flush: o.Flush}}
	w.self = w
	w.SetClassName("WriteStream")
	if w.mode == 0 {
		w.mode = defaultFileMode
	}
	if w.hwm <= 0 {
		w.hwm = writeStreamHighWaterMark
	}
	if o.HasStart {
		if o.Start < 0 {
			return nil, argError("ERR_OUT_OF_RANGE", "The value of \"start\" is out of range. It must be >= 0 && <= 9007199254740991. Received "+itoa(o.Start))
		}
		w.pos = o.Start
	}
	if err := w.construct(o.HasFd, o.Fd); err != nil {
		return nil, err
	}
	return w, nil
}

// Path is writeStream.path.
func (w *WriteStream) Path() string { return w.path }

// Fd is the descriptor, -1 before "open" and after "close".
func (w *WriteStream) Fd() int { return w.fd }

// WritableLength is writable.writableLength: the bytes buffered.
func (w *WriteStream) WritableLength() int { return w.length }

// begin starts writing what was queued before the file was open.
func (w *WriteStream) begin() { w.flush() }

// Write is writable.write(chunk, cb): it queues data and reports whether the buffer is
// below the high-water mark. After End it fails as Node's: cb gets ERR_STREAM_WRITE_AFTER_END
// from a nextTick and the stream is destroyed with it ("error", then "close"). On a destroyed
// stream cb gets ERR_STREAM_DESTROYED.
func (w *WriteStream) Write(data []byte, cb func(err error)) bool {
	if err := w.writeErr(); err != nil {
		if cb != nil {
			w.fs.loop.NextTick(func() { cb(err) })
		}
		w.errorOrDestroy(err, true)
		return false
	}
	w.length += len(data)
	ret := w.length < w.hwm
	if !ret {
		w.needDrain = true
	}
	w.queue = append(w.queue, pendingWrite{data, cb})
	if w.errored != nil { // Node's writeOrBuffer: an errored stream only buffers
		return false
	}
	w.flush()
	return ret
}

// writeErr is the error of a write now (Node's _write): after End, or once destroyed.
func (w *WriteStream) writeErr() error {
	switch {
	case w.ending:
		return nodenet.ErrWriteAfterEnd
	case w.destroyed:
		return nodenet.ErrDestroyed
	}
	return nil
}

// WriteString is writable.write(string, encoding, cb).
func (w *WriteStream) WriteString(s, encoding string, cb func(err error)) bool {
	b, err := Decode(s, encoding)
	if err != nil {
		w.fs.loop.NextTick(func() { w.Emit("error", err) })
		return false
	}
	return w.Write(b, cb)
}

// flush writes what is queued (Node's clearBuffer): one chunk with write, several with
// writev (Node's _writev); with nothing queued after End, it finishes.
func (w *WriteStream) flush() {
	if !w.opened || w.writing || w.destroyed {
		return
	}
	if len(w.queue) == 0 {
		if w.ending && !w.finishing && w.errored == nil {
			w.finish()
		}
		return
	}
	batch := w.queue
	w.queue = nil
	bufs := make([][]byte, len(batch))
	total := 0
	for i, p := range batch {
		bufs[i] = p.data
		total += len(p.data)
	}
	w.writing = true
	w.inflight = batch
	w.writeAll(bufs, total, len(batch) > 1)
}

// Node's ERR_STREAM_DESTROYED for a writev in flight when the stream was destroyed, and for
// End's callback.
var (
	errDestroyedWritev = &nodenet.Error{Code: "ERR_STREAM_DESTROYED", Message: "Cannot call writev after a stream was destroyed"}
	errDestroyedEnd    = &nodenet.Error{Code: "ERR_STREAM_DESTROYED", Message: "Cannot call end after a stream was destroyed"}
	errAlreadyFinished = &nodenet.Error{Code: "ERR_STREAM_ALREADY_FINISHED", Message: "Cannot call end after a stream was finished"}
)

// writeAll writes bufs (total bytes; vec: the batch went out as a writev), and again what a
// short write left.
func (w *WriteStream) writeAll(bufs [][]byte, total int, vec bool) {
	cb := func(req *uvloop.FSReq) {
		if w.destroyed { // Destroy waited for this write: it fails (Node's writeAll)
			w.writing = false
			err := fromErr(req.Err())
			if err == nil {
				err = nodenet.ErrDestroyed
				if vec {
					err = errDestroyedWritev
				}
			}
			w.writeFailed(err)
			if w.destErr == nil { // Node's close(stream, err || er)
				w.destErr = err
			}
			w.finishDestroy()
			return
		}
		if err := req.Err(); err != nil {
			w.writing = false
			err = fromErr(err)
			w.writeFailed(err)
			w.errorOrDestroy(err, false)
			return
		}
		n := int(req.Result())
		w.BytesWritten += int64(n)
		if w.pos >= 0 {
			w.pos += int64(n)
		}
		if n < total { // a short write: go on with the rest
			for n > 0 && len(bufs) > 0 {
				if n >= len(bufs[0]) {
					n -= len(bufs[0])
					total -= len(bufs[0])
					bufs = bufs[1:]
					continue
				}
				bufs[0] = bufs[0][n:]
				total -= n
				n = 0
			}
			w.writeAll(bufs, total, vec)
			return
		}
		batch := w.inflight
		w.writing, w.inflight = false, nil
		for _, p := range batch {
			w.length -= len(p.data)
		}
		w.flush() // Node's clearBuffer comes before afterWrite
		if w.needDrain && w.length == 0 && !w.ending && !w.destroyed {
			w.needDrain = false
			w.Emit("drain")
		}
		for _, p := range batch {
			if p.cb != nil {
				p.cb(nil)
			}
		}
		if w.destroyed {
			w.errorBuffer()
		}
	}
	var err error
	if len(bufs) == 1 {
		err = w.fs.loop.FSWrite(nil, w.fd, bufs[0], w.pos, cb)
	} else {
		err = w.fs.loop.FSWritev(nil, w.fd, bufs, w.pos, cb)
	}
	if err != nil {
		w.writing = false
		err = fromErr(err)
		w.writeFailed(err)
		w.errorOrDestroy(err, true)
	}
}

// writeFailed is Node's onwrite with an error: the stream's error is err unless it has one,
// the writes in flight call back with err, the buffered ones and End's callbacks with the
// stream's error (errorBuffer).
func (w *WriteStream) writeFailed(err error) {
	batch := w.inflight
	w.inflight = nil
	if w.errored == nil {
		w.errored = err
	}
	for _, p := range batch {
		w.length -= len(p.data)
		if p.cb != nil {
			p.cb(err)
		}
	}
	w.errorBuffer()
}

// errorBuffer is Node's: unless a write is in flight, the buffered writes call back with the
// stream's error (ERR_STREAM_DESTROYED if none) and leave WritableLength, and so do End's
// callbacks.
func (w *WriteStream) errorBuffer() {
	if w.writing {
		return
	}
	queued, ends := w.queue, w.onFinish
	w.queue, w.onFinish = nil, nil
	for _, p := range queued {
		w.length -= len(p.data)
		if p.cb != nil {
			err := w.errored
			if err == nil {
				err = nodenet.ErrDestroyed
			}
			p.cb(err)
		}
	}
	for _, cb := range ends {
		err := w.errored
		if err == nil {
			err = errDestroyedEnd
		}
		cb(err)
	}
}

// End is writable.end(chunk, cb): data (if not nil) is written last; once everything is
// written, cb runs, then "finish", then the descriptor is closed and "close" follows. cb
// runs (from a nextTick) if the stream fails or is destroyed instead, as Node's does with
// the error: EndErr passes it on.
func (w *WriteStream) End(data []byte, cb func()) *WriteStream {
	if cb == nil {
		return w.EndErr(data, nil)
	}
	return w.EndErr(data, func(error) { cb() })
}

// EndErr is writable.end(chunk, cb) with the argument of Node's callback: nil once
// everything is written (just before "finish"), else the stream's error, or, on a stream
// destroyed without one, ERR_STREAM_DESTROYED; after "finish", ERR_STREAM_ALREADY_FINISHED
// if the stream had been ended, from a nextTick.
func (w *WriteStream) EndErr(data []byte, cb func(err error)) *WriteStream {
	var err error
	if data != nil {
		err = w.writeErr()
		w.Write(data, nil)
	}
	switch {
	case err != nil:
	case !w.ending && w.errored == nil:
		w.ending = true
		w.flush()
	case w.finished:
		err = errAlreadyFinished
	case w.destroyed:
		err = errDestroyedEnd
	}
	if cb == nil {
		return w
	}
	switch {
	case err == nil && w.errored != nil:
		err = w.errored
	case err == nil && !w.finished:
		w.onFinish = append(w.onFinish, cb)
		return w
	}
	w.fs.loop.NextTick(func() { cb(err) })
	return w
}

// finish is Node's finishMaybe once everything is written: from a nextTick, End's callbacks,
// "finish", then (autoClose) the destroy that closes the descriptor.
func (w *WriteStream) finish() {
	w.finishing = true
	w.fs.loop.NextTick(func() {
		if w.destroyed || w.errored != nil || w.writing || len(w.queue) > 0 {
			return
		}
		w.finished = true
		ends := w.onFinish
		w.onFinish = nil
		for _, cb := range ends {
			cb(nil)
		}
		w.Emit("finish")
		if w.autoClose {
			w.Destroy(nil)
		}
	})
}

// Destroy is writable.destroy(err): the descriptor is closed, then "error" (if err is not
// nil) and "close" follow from a nextTick. An open or a write in flight is waited for first,
// as Node's does (its "open" and "ready" are still emitted); the write in flight then fails
// with ERR_STREAM_DESTROYED, and that is the error emitted if err is nil. Buffered writes
// and End's callbacks get err (ERR_STREAM_DESTROYED if nil) from a nextTick.
func (w *WriteStream) Destroy(err error) {
	if w.destroyed {
		return
	}
	if len(w.queue) > 0 || len(w.onFinish) > 0 {
		w.fs.loop.NextTick(w.errorBuffer)
	}
	if err != nil && w.errored == nil {
		w.errored = err
	}
	w.destroyed, w.destErr = true, err
	if w.opening || w.writing {
		return
	}
	w.finishDestroy()
}

// Close is writeStream.close(cb): End, with cb on "close" (from a nextTick if the stream is
// closed already); with autoClose off the stream is destroyed after "finish", as Node's
// close does.
func (w *WriteStream) Close(cb func()) {
	if cb != nil {
		if w.closed {
			w.fs.loop.NextTick(cb)
			return
		}
		w.Once("close", func(...any) { cb() })
	}
	if !w.autoClose {
		w.Once("finish", func(...any) { w.Destroy(nil) })
	}
	w.End(nil, nil)
}

// Destroyed is readable.destroyed: Destroy was called (or the stream ended and closed).
func (r *ReadStream) Destroyed() bool { return r.destroyed }

// Destroyed is writable.destroyed.
func (w *WriteStream) Destroyed() bool { return w.destroyed }

// Loop is the loop the stream belongs to.
func (w *WriteStream) Loop() *uvloop.Loop { return w.fs.loop }

// DestroyStream is Destroy.
func (w *WriteStream) DestroyStream(err error) { w.Destroy(err) }

// EndStream is End(nil, nil) without its result.
func (w *WriteStream) EndStream() { w.End(nil, nil) }

// Writable is writable.writable: not destroyed, errored, ending or ended.
func (w *WriteStream) Writable() bool { return !w.destroyed && w.errored == nil && !w.ending }

// WritableNeedDrain is writable.writableNeedDrain: a Write returned false and "drain" has
// not come yet.
func (w *WriteStream) WritableNeedDrain() bool { return w.needDrain && !w.destroyed && !w.ending }

// WritableEnded is writable.writableEnded: End was called.
func (w *WriteStream) WritableEnded() bool { return w.ending }

// WritableFinished is writable.writableFinished: "finish" was emitted.
func (w *WriteStream) WritableFinished() bool { return w.finished }

// WritableHighWaterMark is writable.writableHighWaterMark.
func (w *WriteStream) WritableHighWaterMark() int { return w.hwm }
