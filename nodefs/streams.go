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
	fs        *FS
	path      string
	fd        int
	flags     int
	mode      uint32
	pos       int64 // -1: the file's position
	end       int64 // -1: to the end of the file
	hwm       int
	dec       *stringDecoder // with an encoding: "data" carries strings
	autoClose bool

	BytesRead int64 // bytesRead

	opened, flowing, reading, ended, destroyed, closing bool
	pipes                                               []*pipe
}

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
	r := &ReadStream{fs: f, path: path, fd: -1, flags: flags, mode: o.Mode, pos: -1, end: -1,
		hwm: o.HighWaterMark, autoClose: !o.NoAutoClose}
	if enc, _ := normEncoding(o.Encoding); enc != "" {
		r.dec = &stringDecoder{enc: enc}
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
	loop := f.loop
	if o.HasFd {
		r.fd = o.Fd
		loop.NextTick(func() { r.didOpen() })
	} else {
		loop.NextTick(r.open) // Node constructs on a nextTick
	}
	return r, nil
}

// Path is readStream.path.
func (r *ReadStream) Path() string { return r.path }

// Fd is the descriptor, -1 before "open" and after "close".
func (r *ReadStream) Fd() int { return r.fd }

func (r *ReadStream) open() {
	if r.destroyed {
		return
	}
	if err := r.fs.loop.FSOpen(nil, r.path, r.flags, r.mode, func(req *uvloop.FSReq) {
		if err := req.Err(); err != nil {
			r.Destroy(fromErr(err))
			return
		}
		r.fd = int(req.Result())
		r.didOpen()
	}); err != nil {
		r.Destroy(fromErr(err))
	}
}

func (r *ReadStream) didOpen() {
	if r.destroyed {
		return
	}
	r.opened = true
	r.Emit("open", r.fd)
	r.Emit("ready")
	r.read()
}

// OnData adds a "data" listener for bytes and starts the flow; with an Encoding use
// OnDataString.
func (r *ReadStream) OnData(fn func(chunk []byte)) *nodenet.Listener {
	l := r.On("data", func(a ...any) { fn(a[0].([]byte)) })
	r.Resume()
	return l
}

// OnDataString adds a "data" listener for a stream with an Encoding and starts the flow.
func (r *ReadStream) OnDataString(fn func(chunk string)) *nodenet.Listener {
	l := r.On("data", func(a ...any) { fn(a[0].(string)) })
	r.Resume()
	return l
}

// Resume is readable.resume(): the stream flows; "resume" follows from a nextTick.
func (r *ReadStream) Resume() *ReadStream {
	if r.flowing {
		return r
	}
	r.flowing = true
	r.fs.loop.NextTick(func() {
		r.Emit("resume")
		r.read()
	})
	return r
}

// Pause is readable.pause(); "pause" follows from a nextTick.
func (r *ReadStream) Pause() *ReadStream {
	if !r.flowing {
		return r
	}
	r.flowing = false
	r.fs.loop.NextTick(func() { r.Emit("pause") })
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
		if r.destroyed {
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
	r.dec = &stringDecoder{enc: enc}
	return nil
}

// ReadableEncoding is readable.readableEncoding: the encoding's normalized name, "" for raw
// bytes.
func (r *ReadStream) ReadableEncoding() string {
	if r.dec == nil {
		return ""
	}
	return r.dec.enc
}

func (r *ReadStream) emitData(b []byte) {
	if r.dec == nil {
		r.Emit("data", b)
		return
	}
	if s := r.dec.Write(b); s != "" {
		r.Emit("data", s)
	}
}

func (r *ReadStream) pushEOF() {
	if r.ended {
		return
	}
	r.ended = true
	if r.dec != nil {
		if s := r.dec.End(); s != "" {
			r.Emit("data", s)
		}
	}
	r.fs.loop.NextTick(func() {
		if r.destroyed {
			return
		}
		r.Emit("end")
		if r.autoClose {
			r.Destroy(nil)
		}
	})
}

// Destroy is readable.destroy(err): the descriptor is closed, then "error" (if err is not
// nil) and "close" follow from a nextTick.
func (r *ReadStream) Destroy(err error) {
	if r.destroyed {
		return
	}
	r.destroyed = true
	r.closeFd(func() {
		if err != nil {
			r.Emit("error", err)
		}
		r.Emit("close")
	})
}

func (r *ReadStream) closeFd(then func()) {
	loop := r.fs.loop
	if r.fd < 0 || !r.opened && r.fd < 0 {
		loop.NextTick(then)
		return
	}
	fd := r.fd
	r.fd = -1
	if err := loop.FSClose(nil, fd, func(*uvloop.FSReq) { loop.NextTick(then) }); err != nil {
		loop.NextTick(then)
	}
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
type Writable interface {
	Write(data []byte, cb func(err error)) bool
	Once(event string, fn func(args ...any)) *nodenet.Listener
	Emit(event string, args ...any) bool
}

type pipe struct {
	dst    Writable
	end    bool
	onData *nodenet.Listener
}

// Pipe is readable.pipe(destination): every chunk is written to dst; when dst's Write
// returns false the stream pauses until dst emits "drain"; at "end", dst is ended (unless
// end is false), as Node's pipe. dst gets "pipe" at once and "unpipe" when the stream ends.
func (r *ReadStream) Pipe(dst Writable, end bool) Writable {
	p := &pipe{dst: dst, end: end}
	r.pipes = append(r.pipes, p)
	dst.Emit("pipe", r)
	p.onData = r.On("data", func(a ...any) {
		var b []byte
		switch c := a[0].(type) {
		case []byte:
			b = c
		case string:
			b = []byte(c)
		}
		if !dst.Write(b, nil) {
			r.Pause()
			dst.Once("drain", func(...any) { r.Resume() })
		}
	})
	r.Once("end", func(...any) {
		if p.end {
			endWritable(dst)
		}
	})
	r.Resume()
	return dst
}

// endWritable ends a pipe's destination.
func endWritable(dst Writable) {
	switch d := dst.(type) {
	case *WriteStream:
		d.End(nil, nil)
	case *nodenet.Socket:
		d.End(nil)
	case interface{ End() }:
		d.End()
	}
}

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
	fs        *FS
	path      string
	fd        int
	flags     int
	mode      uint32
	pos       int64 // -1: the file's position
	hwm       int
	autoClose bool

	BytesWritten int64 // bytesWritten

	queue     []pendingWrite
	length    int // buffered bytes, written or not yet
	writing   bool
	needDrain bool
	opened    bool
	ending    bool
	finished  bool
	destroyed bool
	onFinish  []func()
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
	w := &WriteStream{fs: f, path: path, fd: -1, flags: flags, mode: o.Mode, pos: -1, hwm: o.HighWaterMark, autoClose: !o.NoAutoClose}
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
	if o.HasFd {
		w.fd = o.Fd
		f.loop.NextTick(w.didOpen)
	} else {
		f.loop.NextTick(w.open)
	}
	return w, nil
}

// Path is writeStream.path.
func (w *WriteStream) Path() string { return w.path }

// Fd is the descriptor, -1 before "open" and after "close".
func (w *WriteStream) Fd() int { return w.fd }

// WritableLength is writable.writableLength: the bytes buffered.
func (w *WriteStream) WritableLength() int { return w.length }

func (w *WriteStream) open() {
	if w.destroyed {
		return
	}
	if err := w.fs.loop.FSOpen(nil, w.path, w.flags, w.mode, func(req *uvloop.FSReq) {
		if err := req.Err(); err != nil {
			w.Destroy(fromErr(err))
			return
		}
		w.fd = int(req.Result())
		w.didOpen()
	}); err != nil {
		w.Destroy(fromErr(err))
	}
}

func (w *WriteStream) didOpen() {
	if w.destroyed {
		return
	}
	w.opened = true
	w.Emit("open", w.fd)
	w.Emit("ready")
	w.flush()
}

// Write is writable.write(chunk, cb): it queues data and reports whether the buffer is
// below the high-water mark. After End it fails: cb and "error" get
// ERR_STREAM_WRITE_AFTER_END from a nextTick.
func (w *WriteStream) Write(data []byte, cb func(err error)) bool {
	if w.ending || w.destroyed {
		err := nodenet.ErrWriteAfterEnd
		if w.destroyed && !w.ending {
			err = nodenet.ErrDestroyed
		}
		w.fs.loop.NextTick(func() {
			if cb != nil {
				cb(err)
			}
			w.Emit("error", err)
		})
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
		w.Emit("finish")
		if w.autoClose {
			w.Destroy(nil)
		}
	})
}

// Destroy is writable.destroy(err): the descriptor is closed, then "error" (if err is not
// nil) and "close" follow from a nextTick.
func (w *WriteStream) Destroy(err error) {
	if w.destroyed {
		return
	}
	w.destroyed = true
	loop := w.fs.loop
	then := func() {
		if err != nil {
			w.Emit("error", err)
		}
		w.Emit("close")
	}
	if w.fd < 0 {
		loop.NextTick(then)
		return
	}
	fd := w.fd
	w.fd = -1
	if cerr := loop.FSClose(nil, fd, func(*uvloop.FSReq) { loop.NextTick(then) }); cerr != nil {
		loop.NextTick(then)
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
