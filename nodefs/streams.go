package nodefs

import (
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

	reading, ended bool
	endEmitted     bool
	flowing        bool  // data events are being emitted
	paused         bool  // Pause was called (Node's flowing === false): a "data" listener does not resume
	buf            []any // chunks read while paused, for the next flow
	bufLen         int
	pipeState      nodenet.PipeState
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
	mode      uint32
	pos       int64 // -1: the file's position
	hwm       int
	autoClose bool

	opened    bool
	opening   bool  // until didOpen: a Destroy meanwhile waits for it, as for Node's construct
	destroyed bool  // Destroy was called
	destErr   error // the error Destroy was given, emitted once the open or I/O in flight is done
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
		s.fs.loop.NextTick(s.didOpen)
	} else {
		s.fs.loop.NextTick(s.open)
	}
	return nil
}

func (s *fileStream) open() {
	if err := s.fs.loop.FSOpen(nil, s.path, s.flags, s.mode, func(req *uvloop.FSReq) {
		if err := req.Err(); err != nil {
			s.opening = false
			if s.destroyed {
				if s.destErr == nil {
					s.destErr = fromErr(err)
				}
				s.finishDestroy()
				return
			}
			s.self.Destroy(fromErr(err))
			return
		}
		s.fd = int(req.Result())
		s.didOpen()
	}); err != nil {
		s.opening = false
		s.self.Destroy(fromErr(err))
	}
}

// didOpen is the end of Node's construct: "open" and "ready" are emitted even when the
// stream was destroyed meanwhile, and the destroy then goes on.
func (s *fileStream) didOpen() {
	s.opened = true
	s.self.Emit("open", s.fd)
	s.self.Emit("ready")
	s.opening = false // a Destroy from the listeners waited for this point
	if s.destroyed {
		s.finishDestroy()
		return
	}
	s.self.begin()
}

// finishDestroy closes the descriptor, if there is one, and then, from a nextTick, emits
// "error" (with the error Destroy was given) and "close".
func (s *fileStream) finishDestroy() {
	err := s.destErr
	loop := s.fs.loop
	then := func() {
		if err != nil {
			s.self.Emit("error", err)
		}
		s.self.Emit("close")
	}
	if s.fd < 0 {
		loop.NextTick(then)
		return
	}
	fd := s.fd
	s.fd = -1
	if cerr := loop.FSClose(nil, fd, func(*uvloop.FSReq) { loop.NextTick(then) }); cerr != nil {
		loop.NextTick(then)
	}
}

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
	flags, err := Flags(o.Flags)
	if err != nil {
		return nil, err
	}
	if err := checkPath("path", path); err != nil {
		return nil, err
	}
	if _, err := checkEncoding(o.Encoding); err != nil {
		return nil, err
	}
	if o.HighWaterMark < 0 {
		return nil, argError("ERR_INVALID_ARG_VALUE", "The property 'options.highWaterMark' is invalid. Received "+itoa(int64(o.HighWaterMark)))
	}
	r := &ReadStream{fileStream: fileStream{fs: f, path: path, fd: -1, flags: flags, mode: o.Mode,
		pos: -1, hwm: o.HighWaterMark, autoClose: !o.NoAutoClose}, end: -1}
	r.self = r
	r.SetClassName("ReadStream")
	if enc, _ := normEncoding(o.Encoding); enc != "" {
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
		r.end = o.End
		if r.pos < 0 {
			r.pos = 0 // Node reads from 0 when only end is given
		}
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
	r.fs.loop.NextTick(func() {
		r.Emit("resume")
		r.flow()
	})
	return r
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

func chunkLen(c any) int {
	switch c := c.(type) {
	case []byte:
		return len(c)
	case string:
		return len(c)
	}
	return 0
}

// Pause is readable.pause(): the flow stops and "pause" is emitted at once, as Node's.
func (r *ReadStream) Pause() *ReadStream {
	if r.paused {
		return r
	}
	r.flowing, r.paused = false, true
	r.Emit("pause")
	return r
}

// IsPaused is readable.isPaused().
func (r *ReadStream) IsPaused() bool { return !r.flowing }

func (r *ReadStream) read() {
	if !r.opened || !r.flowing || r.reading || r.ended || r.destroyed {
		return
	}
	size := int64(r.hwm)
	if r.end >= 0 {
		size = min(size, r.end-r.pos+1)
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
			r.Destroy(fromErr(err))
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
		r.Destroy(fromErr(err))
	}
}

// SetEncoding is readable.setEncoding(encoding): from now on "data" carries strings,
// decoded as Node's StringDecoder does (a character or a base64 group split between reads is
// held back until its end arrives). "" is utf8, as Node's default; raw bytes ("buffer") and
// unknown names give ERR_UNKNOWN_ENCODING.
func (r *ReadStream) SetEncoding(encoding string) error {
	if encoding == "" {
		encoding = "utf8"
	}
	enc, ok := normEncoding(encoding)
	if !ok || enc == "" {
		return unknownEncoding(encoding)
	}
	r.dec = newStringDecoder(enc)
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

func (r *ReadStream) scheduleEnd() {
	r.fs.loop.NextTick(func() {
		if r.destroyed || r.endEmitted || len(r.buf) > 0 {
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

// Readable is readable.readable: not destroyed and "end" not emitted.
func (r *ReadStream) Readable() bool { return !r.destroyed && !r.endEmitted }

// ReadableEnded is readable.readableEnded: "end" was emitted.
func (r *ReadStream) ReadableEnded() bool { return r.endEmitted }

// ReadableLength is readable.readableLength: what was read while paused.
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
}

// WriteStream is fs.WriteStream. Write returns false once HighWaterMark bytes or more are
// buffered ("drain" follows when they are written). Events, in Node's order: "open" (fd),
// "ready", "drain", "finish" (after End, once everything is written; End's callback runs
// just before), "close" once the descriptor is closed; "error" then "close" on failure.
// Written bytes must not be touched until their write callback runs. Loop goroutine only.
type WriteStream struct {
	nodenet.EventEmitter
	fileStream

	BytesWritten int64 // bytesWritten

	queue         []pendingWrite
	length        int // buffered bytes, written or not yet
	writing       bool
	needDrain     bool
	ending        bool
	finished      bool
	finishEmitted bool
	onFinish      []func()
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
	flags, err := Flags(o.Flags)
	if err != nil {
		return nil, err
	}
	if err := checkPath("path", path); err != nil {
		return nil, err
	}
	w := &WriteStream{fileStream: fileStream{fs: f, path: path, fd: -1, flags: flags, mode: o.Mode,
		pos: -1, hwm: o.HighWaterMark, autoClose: !o.NoAutoClose}}
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
	if w.ending || w.destroyed {
		err := nodenet.ErrWriteAfterEnd
		if w.destroyed {
			err = nodenet.ErrDestroyed
		}
		if cb != nil {
			w.fs.loop.NextTick(func() { cb(err) })
		}
		if !w.destroyed {
			w.Destroy(err)
		}
		return false
	}
	w.length += len(data)
	ret := w.length < w.hwm
	if !ret {
		w.needDrain = true
	}
	w.queue = append(w.queue, pendingWrite{data, cb})
	w.flush()
	return ret
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

// flush writes what is queued: one chunk with write, several with writev (Node's _writev).
func (w *WriteStream) flush() {
	if !w.opened || w.writing || w.destroyed || len(w.queue) == 0 {
		if w.opened && !w.writing && len(w.queue) == 0 && w.ending && !w.finished {
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
	w.writeAll(bufs, total, batch)
}

func (w *WriteStream) writeAll(bufs [][]byte, total int, batch []pendingWrite) {
	cb := func(req *uvloop.FSReq) {
		if w.destroyed { // Destroy waited for this write
			w.writing = false
			w.failQueued(batch)
			w.finishDestroy()
			return
		}
		if err := req.Err(); err != nil {
			w.writing = false
			err = fromErr(err)
			for _, p := range batch {
				if p.cb != nil {
					p.cb(err)
				}
			}
			w.Destroy(err)
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
			w.writeAll(bufs, total, batch)
			return
		}
		w.writing = false
		for _, p := range batch {
			w.length -= len(p.data)
		}
		w.flush() // Node's clearBuffer comes before afterWrite
		for _, p := range batch {
			if p.cb != nil {
				p.cb(nil)
			}
		}
		if w.needDrain && w.length == 0 && !w.ending && !w.destroyed {
			w.needDrain = false
			w.Emit("drain")
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
		w.Destroy(fromErr(err))
	}
}

// End is writable.end(chunk, cb): data (if not nil) is written last; once everything is
// written, cb runs, then "finish", then the descriptor is closed and "close" follows.
func (w *WriteStream) End(data []byte, cb func()) *WriteStream {
	if data != nil && !w.ending {
		w.Write(data, nil)
	}
	if cb != nil {
		if w.finished {
			w.fs.loop.NextTick(cb)
		} else {
			w.onFinish = append(w.onFinish, cb)
		}
	}
	if w.ending {
		return w
	}
	w.ending = true
	w.flush()
	return w
}

func (w *WriteStream) finish() {
	w.finished = true
	w.fs.loop.NextTick(func() {
		if w.destroyed {
			return
		}
		for _, cb := range w.onFinish {
			cb()
		}
		w.onFinish = nil
		w.finishEmitted = true
		w.Emit("finish")
		if w.autoClose {
			w.Destroy(nil)
		}
	})
}

// Destroy is writable.destroy(err): the descriptor is closed, then "error" (if err is not
// nil) and "close" follow from a nextTick. An open or a write in flight is waited for first,
// as Node's does (its "open" and "ready" are still emitted); writes still queued get
// ERR_STREAM_DESTROYED.
func (w *WriteStream) Destroy(err error) {
	if w.destroyed {
		return
	}
	w.destroyed, w.destErr = true, err
	if w.opening || w.writing {
		return
	}
	w.failQueued(nil)
	w.finishDestroy()
}

// failQueued calls back the writes that will not be made: batch (in flight when Destroy
// came) and the queue.
func (w *WriteStream) failQueued(batch []pendingWrite) {
	queued := w.queue
	w.queue = nil
	for _, ws := range [][]pendingWrite{batch, queued} {
		for _, p := range ws {
			if p.cb != nil {
				cb := p.cb
				w.fs.loop.NextTick(func() { cb(nodenet.ErrDestroyed) })
			}
		}
	}
}

// Close is writeStream.close(cb): End, with cb on "close".
func (w *WriteStream) Close(cb func()) {
	if cb != nil {
		w.Once("close", func(...any) { cb() })
	}
	if !w.ending {
		w.End(nil, nil)
	}
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

// Writable is writable.writable: not destroyed, ending or ended.
func (w *WriteStream) Writable() bool { return !w.destroyed && !w.ending }

// WritableNeedDrain is writable.writableNeedDrain: a Write returned false and "drain" has
// not come yet.
func (w *WriteStream) WritableNeedDrain() bool { return w.needDrain && !w.destroyed && !w.ending }

// WritableEnded is writable.writableEnded: End was called.
func (w *WriteStream) WritableEnded() bool { return w.ending }

// WritableFinished is writable.writableFinished: "finish" was emitted.
func (w *WriteStream) WritableFinished() bool { return w.finishEmitted }

// WritableHighWaterMark is writable.writableHighWaterMark.
func (w *WriteStream) WritableHighWaterMark() int { return w.hwm }
