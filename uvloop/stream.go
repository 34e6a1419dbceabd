package uvloop

import (
	"io"
	"os"
	"syscall"

	"github.com/uvgo/uvgo/internal/queue"
	"github.com/uvgo/uvgo/internal/sock"
)

// Stream is what TCP and Pipe have in common: a connected, full-duplex byte stream, or a
// listening socket (libuv's uv_stream_t). All its methods are for the loop goroutine only.
//
// # Reading
//
// ReadStart's callback gets the bytes read in a buffer that belongs to the loop: it is
// valid only until the callback returns, and the next read of any stream of the loop
// overwrites it. Copy what you keep. At the end of the stream the callback gets io.EOF (and
// reading stops); on an error it gets the error (reading stops; close the stream).
//
// # Writing
//
// Writes are queued in order. Write tries to write at once; what the socket does not take
// waits for the fd to become writable. Either way, cb runs later — in the pending phase, or
// in the poll phase when the queue drains there — never from inside Write, as in libuv. The
// stream does not copy the bytes: the caller must not modify them until cb has run (the
// stream forgets them as soon as they are written, so after a Write that left
// WriteQueueSize at 0 they are free again). A write in flight keeps the loop alive.
//
// On the io_uring backend a TCP stream writes through the ring (RingWrites): Write makes no
// system call; the queue's head goes to the kernel as one send request, submitted with the
// other streams' at the end of the phase, and the bytes stay queued, counted in
// WriteQueueSize, until the kernel reports them written (at the end of that phase when the
// socket takes them at once). So right after a Write, WriteQueueSize is 0 on epoll when the
// socket took the bytes, and len(data) through the ring; the callbacks run in the same
// phases on both. Callers that want write(2) at once call TryWrite first, as Node does.
//
// # Closing
//
// Close closes the socket at once (a Pipe that Bind created removes its path first) and
// schedules the close callback. In the close phase, before that callback, a connect in flight,
// the writes still queued and a pending shutdown complete with an error wrapping ECANCELED.
//
// For backpressure, WriteQueueSize tells how many bytes are queued and not yet written, and
// OnDrain's callback runs when a queue that a Write left non-empty has drained.
type Stream interface {
	Handle
	// ReadStart starts reading; cb gets loop-owned bytes (valid only until it returns),
	// io.EOF at the end of the stream, or an error. The handle is active while reading.
	ReadStart(cb func(data []byte, err error)) error
	// ReadStop stops reading. Idempotent.
	ReadStop() error
	// Write queues data; cb (may be nil) gets nil once all of it is written, or the error.
	// On epoll it writes at once what the socket takes; through the io_uring ring the bytes
	// are sent at the end of the phase (see Writing).
	Write(data []byte, cb func(err error)) error
	// Writev queues bufs as one request (one callback); the slice of slices is copied, the
	// bytes are not.
	Writev(bufs [][]byte, cb func(err error)) error
	// TryWrite writes what the socket takes now, without queueing; it fails with an error
	// wrapping EAGAIN if nothing could be written or writes are queued.
	TryWrite(data []byte) (int, error)
	// Shutdown half-closes the stream (SHUT_WR) once the queued writes are written; cb (may
	// be nil) runs after.
	Shutdown(cb func(err error)) error
	// WriteQueueSize is the number of bytes queued and not yet written; through the io_uring
	// ring, that includes the bytes of a Write until the kernel reports them written.
	WriteQueueSize() int
	// OnDrain sets (or with nil clears) the callback that runs when the write queue drains
	// after a Write left bytes queued.
	OnDrain(cb func())
	// IsReadable reports whether the stream can be read (connected, no read error).
	IsReadable() bool
	// IsWritable reports whether the stream can be written (connected, not shut down).
	IsWritable() bool
	// Fd returns the socket, or -1 if the stream has none (yet, or any more).
	Fd() int
}

// The most frequent errno values, boxed once: the EAGAIN path formats nothing.
var (
	errWriteAgain  error = os.NewSyscallError("write", syscall.EAGAIN)
	errAcceptAgain error = os.NewSyscallError("accept", syscall.EAGAIN)
	errCanceled    error = os.NewSyscallError("write", syscall.ECANCELED)
	errCanceledCon error = os.NewSyscallError("connect", syscall.ECANCELED)
	errCanceledShu error = os.NewSyscallError("shutdown", syscall.ECANCELED)
	errNotConn     error = os.NewSyscallError("shutdown", syscall.ENOTCONN)
	errWritePipe   error = os.NewSyscallError("write", syscall.EPIPE)
	errWriteBadFd  error = os.NewSyscallError("write", syscall.EBADF)
	errWriteInval  error = os.NewSyscallError("write", syscall.EINVAL)
	errAlready     error = os.NewSyscallError("connect", syscall.EALREADY)
	errReadAlready error = os.NewSyscallError("read", syscall.EALREADY)
	errReadNotConn error = os.NewSyscallError("read", syscall.ENOTCONN)
	errInval       error = os.NewSyscallError("listen", syscall.EINVAL)
	errBusy        error = os.NewSyscallError("open", syscall.EBUSY)
)

// sysErr wraps an errno with the system call's name; other errors pass unchanged.
func sysErr(op string, err error) error {
	if errno, ok := err.(syscall.Errno); ok {
		return os.NewSyscallError(op, errno)
	}
	return err
}

const (
	readBufSize = 64 << 10 // the loop's read buffer
	maxIovecs   = 1024     // IOV_MAX on Linux and the BSDs
	ioBurst     = 32       // reads or writes per readiness event (libuv's count)
)

// streamShared is the state all streams of one loop share; loop goroutine only.
type streamShared struct {
	readBuf   []byte      // handed to read callbacks; allocated on the first read
	bufs      [][]byte    // writev scratch: the slices of one batched write
	iov       sock.IOVecs // writev scratch for the raw system call
	free      *writeReq   // recycled write requests
	reserveFd int         // the fd held back for the EMFILE trick; valid while reserved
	reserved  bool
	hooked    bool                // the OnClose hook that releases reserveFd is registered
	held      []*stream           // reading again with bytes the kernel read while they did not (ring.go)
	fed       queue.Ring[*stream] // fed streams, oldest first, one per runFed queued in the pending phase
	runFedFn  func()              // sh.runFed, bound at the first feed
}

func (s *streamShared) readBuffer() []byte {
	if s.readBuf == nil {
		s.readBuf = make([]byte, readBufSize)
	}
	return s.readBuf
}

// reserve opens the fd that the EMFILE trick closes to accept and shed connections
// (libuv's loop->emfile_fd).
func (l *Loop) reserveFd() {
	s := &l.streams
	if s.reserved {
		return
	}
	fd, err := sock.OpenSpare()
	if err != nil {
		return
	}
	s.reserveFd, s.reserved = fd, true
	if !s.hooked {
		s.hooked = true
		l.OnClose(func() {
			if s.reserved {
				sock.Close(s.reserveFd)
				s.reserved = false
			}
		})
	}
}

// writeReq is one Write or Writev in the queue; recycled through streamShared.free.
type writeReq struct {
	next *writeReq
	bufs [][]byte // what is left to write (a window on one or vec); the bytes stay the caller's
	one  [1][]byte
	vec  [][]byte // Writev's copy of the slice headers, kept for reuse
	size int      // bytes left; counted in the stream's queue size until the callback
	err  error    // the failure, once done
	cb   func(error)
}

// reqList is a queue of requests, held by its last: the requests link in a circle, the last's
// next being the first. One pointer, where head and tail would be two: TCP is 160 bytes.
type reqList struct{ last *writeReq }

// front returns the first request, or nil.
func (q *reqList) front() *writeReq {
	if q.last == nil {
		return nil
	}
	return q.last.next
}

// after returns the request after r in q, or nil when r is the last.
func (q *reqList) after(r *writeReq) *writeReq {
	if r == q.last {
		return nil
	}
	return r.next
}

func (q *reqList) push(r *writeReq) {
	if q.last == nil {
		r.next = r
	} else {
		r.next, q.last.next = q.last.next, r
	}
	q.last = r
}

func (q *reqList) pop() *writeReq {
	if q.last == nil {
		return nil
	}
	r := q.last.next
	if r == q.last {
		q.last = nil
	} else {
		q.last.next = r.next
	}
	r.next = nil
	return r
}

type streamFlags uint16

const (
	sReadable       streamFlags = 1 << iota // reads may be started
	sWritable                               // writes accepted (cleared by Shutdown)
	sReading                                // ReadStart called
	sEOF                                    // the end of the stream was read
	sListening                              // Listen succeeded
	sConnecting                             // a connect request is in flight
	sShutting                               // a shutdown request is in flight
	sShut                                   // shutdown(SHUT_WR) done
	sFed                                    // queued in the pending phase
	sNeedDrain                              // a Write left bytes queued: OnDrain is due
	sBound                                  // bound (TCP) or accepted
	sConnected                              // connected, accepted or adopted: Connect refuses
	sNoDelay                                // TCP: SetNoDelay(true), applied to a socket made later
	sSharedBlocking                         // a socket given to a child as its stdio: made blocking
)

// stream is the part TCP and Pipe share (libuv's uv_stream_t); loop goroutine only.
type stream struct {
	handle
	io        ioWatcher // io.fd is the socket, -1 when there is none
	readCb    func([]byte, error)
	x         *streamRare // what listeners, connects and shutdowns use (stream_rare.go)
	queue     reqList
	done      reqList // written or failed, callbacks not yet run
	queueSize int
	// The small fields last, packed together: TCP is 160 bytes, a size class.
	sflags streamFlags
	ring   ringRead  // reads through the io_uring backend (ring.go)
	rw     ringWrite // writes through the io_uring backend (ring_write.go)
}

func (s *stream) init(l *Loop, self Handle, kind HandleKind) {
	s.io.fd = -1
	s.io.st = s // the poller's reports go to s.ioReady and s.onRecv
	s.handle.init(l, self, kind)
	s.ringInit(kind)
	s.ringWriteInit(kind)
}

// Fd returns the socket, or -1.
func (s *stream) Fd() int { return s.io.fd }

// IsReadable reports whether reads may be started.
func (s *stream) IsReadable() bool { return s.sflags&sReadable != 0 }

// IsWritable reports whether writes are accepted.
func (s *stream) IsWritable() bool { return s.sflags&sWritable != 0 }

// WriteQueueSize is the number of bytes queued and not yet written (failed writes count
// until their callback has run, as in libuv). A stream that writes through the io_uring
// ring counts a Write's bytes until the kernel reports them written: right after Write it
// is not 0, where epoll's write(2) inside Write may have written them all (see Stream).
func (s *stream) WriteQueueSize() int { return s.queueSize }

// OnDrain sets the callback that runs when the write queue has drained after a Write that
// left bytes queued (Node's 'drain'). nil clears it.
func (s *stream) OnDrain(cb func()) {
	if cb != nil || s.x != nil {
		s.rare().drainCb = cb
	}
}

// open adopts fd (non-blocking, close-on-exec) as the stream's socket (uv__stream_open).
func (s *stream) open(fd int, flags streamFlags) error {
	if s.io.fd != -1 && s.io.fd != fd {
		return errBusy
	}
	if t, ok := s.self.(*TCP); ok { // the kind's own options for a new fd
		if err := t.applyOptions(fd); err != nil {
			return err
		}
	}
	if s.io.fd != fd {
		if err := s.loop.io.attach(&s.io, fd, nil); err != nil {
			return err
		}
		s.io.fd = fd
	}
	s.sflags |= flags
	return nil
}

// feed runs the stream's I/O step in the next pending phase (uv__io_feed). The stream joins
// streamShared.fed and the pending queue gets the loop's one runFed, which takes the first
// stream of fed: as every feed queues one of each, the n-th runFed runs the n-th stream fed,
// in the pending queue's order, and no stream carries a method value of its own.
func (s *stream) feed() {
	if s.sflags&sFed == 0 {
		s.sflags |= sFed
		sh := &s.loop.streams
		if sh.runFedFn == nil {
			sh.runFedFn = sh.runFed
		}
		sh.fed.Push(s)
		s.loop.deferPending(sh.runFedFn)
	}
}

// runFed is the pending-phase callback of the oldest feed (see feed).
func (sh *streamShared) runFed() {
	if s, ok := sh.fed.Pop(); ok {
		s.onFeed()
	}
}

func (s *stream) onFeed() {
	s.sflags &^= sFed
	if s.io.fd < 0 || s.flags&(flagClosing|flagClosed) != 0 {
		return
	}
	if s.sflags&sConnecting != 0 && s.delayed() == nil {
		return // the poller tells when the connect completes
	}
	s.ioReady(Writable, nil)
}

// ioReady is the stream's readiness dispatch (uv__stream_io, uv__server_io).
func (s *stream) ioReady(events Events, err error) {
	if err != nil { // the poller refused the fd
		s.fail(err)
		return
	}
	if s.sflags&sListening != 0 {
		if s.accepting() {
			s.ringAcceptReady() // readable after EMFILE (ring_accept.go)
			return
		}
		s.serverIO()
		return
	}
	if s.sflags&sConnecting != 0 {
		s.finishConnect()
		return
	}
	if events&(Readable|Error) != 0 && !s.ring.on {
		short := s.read()
		if s.io.fd < 0 {
			return // a callback closed the stream
		}
		if short && events&Hangup != 0 && s.sflags&sReading != 0 && s.kind != KindTTY && sock.HungUp(s.io.fd) {
			// The socket hung up (a reset, or the peer's end after the stream's own
			// shutdown) behind the bytes the short read took: as in libuv (POLLHUP, which
			// Hangup does not tell from a half-close), the stream ends without another
			// read, and a reset's error is left to the write. Not a terminal: a pty's master
			// returns short reads while the slave's last bytes are still on their way, and
			// hangs up before they arrive (libuv 2e2114ed, tty_pty_partial): it reads on.
			s.eof()
			if s.io.fd < 0 {
				return
			}
		}
	}
	if events&Hangup != 0 && events&Readable == 0 && s.sflags&(sReading|sEOF) == sReading && !s.ring.on {
		s.eof()
		if s.io.fd < 0 {
			return
		}
	}
	if events&(Writable|Error|Hangup) != 0 {
		s.write()
		s.writeCallbacks()
		if s.io.fd >= 0 && s.queue.front() == nil {
			s.drain()
		}
	}
}

// fail reports a poller failure to whoever waits on the stream.
func (s *stream) fail(err error) {
	switch {
	case s.sflags&sListening != 0:
		s.x.connCb(err)
		s.loop.afterCallback()
	case s.sflags&sConnecting != 0:
		s.rare().delayedErr = err
		s.finishConnect()
	default:
		s.failWritesAfter(func() {
			if cb := s.readCb; cb != nil {
				s.stopReading()
				cb(nil, err)
				s.loop.afterCallback()
			}
		}, err)
	}
}

// ReadStart starts reading (uv_read_start). It fails with an error wrapping ENOTCONN when
// the stream is not readable (IsReadable): never connected (a listener, or a handle with no
// socket yet, included), or a read failed (after EOF it reads again, and gets EOF again, as in
// libuv).
func (s *stream) ReadStart(cb func(data []byte, err error)) error {
	if err := s.usable(); err != nil {
		return err
	}
	if cb == nil {
		return ErrNilCallback
	}
	if s.sflags&sReading != 0 {
		return errReadAlready
	}
	if s.io.fd < 0 || s.sflags&(sListening|sReadable) != sReadable {
		return errReadNotConn
	}
	s.sflags &^= sEOF
	s.sflags |= sReading
	s.readCb = cb
	if s.ring.on {
		if err := s.ringStart(); err != nil {
			s.sflags &^= sReading
			s.readCb = nil
			return err
		}
	} else {
		s.loop.io.start(&s.io, Readable)
	}
	s.handle.start()
	return nil
}

// ReadStop stops reading (uv_read_stop). Idempotent.
func (s *stream) ReadStop() error {
	if s.sflags&sReading == 0 {
		return nil
	}
	s.stopReading()
	return nil
}

func (s *stream) stopReading() {
	s.sflags &^= sReading
	s.readCb = nil
	if s.ring.on {
		s.ringStop()
	} else if s.io.fd >= 0 {
		s.loop.io.stop(&s.io, Readable)
	}
	s.handle.stop()
}

// read reads up to ioBurst times into the loop's buffer (uv__read). It reports whether the
// last read was short (it took bytes and did not fill the buffer).
func (s *stream) read() (short bool) {
	l := s.loop
	for count := ioBurst; s.readCb != nil && count > 0; count-- {
		buf := l.streams.readBuffer()
		n, err := s.sysRead(buf)
		switch {
		case err == syscall.EAGAIN:
			return false
		case err != nil:
			s.sflags &^= sReadable | sWritable
			s.readFailed(sysErr("read", err))
			return false
		case n == 0:
			s.eof()
			return false
		}
		s.readCb(buf[:n], nil)
		l.afterTask(s.readCb)
		if n < len(buf) {
			return true // the next read would most likely find nothing
		}
	}
	return false
}

// sysRead, sysWrite and sysWritev are the stream's read(2), write(2) and writev(2); on a
// socket a child was given as its stdio (made blocking for it, see Spawn) they are
// non-blocking calls (MSG_DONTWAIT) instead, so the loop never blocks on it.
func (s *stream) sysRead(buf []byte) (int, error) {
	if s.sflags&sSharedBlocking != 0 {
		return sock.ReadNoWait(s.io.fd, buf)
	}
	return sock.Read(s.io.fd, buf)
}

func (s *stream) sysWrite(data []byte) (int, error) {
	if s.sflags&sSharedBlocking != 0 {
		return sock.WriteNoWait(s.io.fd, data)
	}
	return sock.Write(s.io.fd, data)
}

func (s *stream) sysWritev(bufs [][]byte, iov *sock.IOVecs) (int, error) {
	if s.sflags&sSharedBlocking != 0 {
		return sock.WritevNoWait(s.io.fd, bufs)
	}
	return sock.Writev(s.io.fd, bufs, iov)
}

// shareBlocking is told by Spawn that the stream's socket was given to a child as its fd 0,
// 1 or 2 and so made blocking: the loop's own calls on it become non-blocking ones.
func (s *stream) shareBlocking() {
	if s.io.fd >= 0 && sock.IsSocket(s.io.fd) {
		s.sflags |= sSharedBlocking
	}
}

// readFailed reports a read error and stops reading, also if the callback panics.
func (s *stream) readFailed(err error) {
	defer func() {
		if s.sflags&sReading != 0 && s.io.fd >= 0 {
			s.stopReading()
		}
	}()
	s.readCb(nil, err)
	s.loop.afterCallback()
}

// eof ends reading with io.EOF (uv__stream_eof).
func (s *stream) eof() {
	s.sflags |= sEOF
	cb := s.readCb
	s.stopReading()
	cb(nil, io.EOF)
	s.loop.afterCallback()
}

// Write queues data as one request (uv_write).
func (s *stream) Write(data []byte, cb func(err error)) error {
	if err := s.checkWrite(); err != nil {
		return err
	}
	r := s.newReq()
	r.one[0] = data
	r.bufs = r.one[:1]
	r.size = len(data)
	s.enqueue(r, cb)
	return nil
}

// Writev queues bufs as one request (uv_write with several buffers). It fails with an error
// wrapping EINVAL, before any other check, if bufs is empty or has more than maxWriteBufs
// buffers, as uv_write does.
func (s *stream) Writev(bufs [][]byte, cb func(err error)) error {
	if len(bufs) == 0 || len(bufs) > maxWriteBufs {
		return errWriteInval
	}
	if err := s.checkWrite(); err != nil {
		return err
	}
	r := s.newReq()
	n := 0
	for _, b := range bufs {
		n += len(b)
	}
	if len(bufs) == 1 {
		r.one[0] = bufs[0]
		r.bufs = r.one[:1]
	} else {
		r.vec = append(r.vec[:0], bufs...)
		r.bufs = r.vec
	}
	r.size = n
	s.enqueue(r, cb)
	return nil
}

// maxWriteBufs is the most buffers one Writev takes (libuv's bound, 1024*1024, which catches
// a count that went wrong rather than any system limit: the writes are split at IOV_MAX).
const maxWriteBufs = 1 << 20

func (s *stream) checkWrite() error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.io.fd < 0 {
		return errWriteBadFd
	}
	if s.sflags&sWritable == 0 {
		return errWritePipe
	}
	return nil
}

func (s *stream) newReq() *writeReq {
	sh := &s.loop.streams
	r := sh.free
	if r == nil {
		return &writeReq{}
	}
	sh.free = r.next
	r.next = nil
	return r
}

func (s *stream) freeReq(r *writeReq) {
	r.one[0] = nil
	clear(r.vec)
	r.vec, r.bufs = r.vec[:0], nil
	r.cb, r.err, r.size = nil, nil, 0
	sh := &s.loop.streams
	r.next = sh.free
	sh.free = r
}

// enqueue appends r and writes at once if nothing was queued (uv_write2).
func (s *stream) enqueue(r *writeReq, cb func(error)) {
	empty := s.queueSize == 0
	r.cb = cb
	s.queue.push(r)
	s.queueSize += r.size
	s.loop.reqStart(ReqWrite)
	switch {
	case s.sflags&sConnecting != 0:
		// written once connected
	case empty || s.rw.on:
		s.write()
	default:
		s.loop.io.start(&s.io, Writable)
	}
	if s.queueSize > 0 {
		s.sflags |= sNeedDrain
	}
}

// write writes the queue, several requests per writev, until it is empty, the socket is
// full or ioBurst system calls are made (uv__write). A stream that writes through the ring
// sends instead (ring_write.go).
func (s *stream) write() {
	if s.rw.on && s.ringSend() {
		return
	}
	if s.writeNow() {
		s.loop.io.stop(&s.io, Writable) // a write failed
	} else if s.queue.front() != nil {
		s.loop.io.start(&s.io, Writable) // the socket is full, or the burst is over
	}
}

// writeNow is write's system calls: it writes the queue, several requests per writev,
// until it is empty, the socket is full, a write fails or ioBurst calls are made. It
// reports whether a write failed (its request is finished with the error).
func (s *stream) writeNow() (failed bool) {
	sh := &s.loop.streams
	for count := ioBurst; count > 0 && s.queue.front() != nil; count-- {
		var (
			n   int
			err error
		)
		total := 0
		if r := s.queue.front(); s.queue.after(r) == nil && len(r.bufs) == 1 {
			total = len(r.bufs[0])
			n, err = s.sysWrite(r.bufs[0])
		} else {
			var bufs [][]byte
			bufs, total = s.gather()
			n, err = s.sysWritev(bufs, &sh.iov)
			clear(bufs)
		}
		if err == syscall.EAGAIN || err == syscall.ENOBUFS {
			return false
		}
		if err != nil {
			r := s.queue.pop()
			r.err = sysErr("write", err)
			s.finishReq(r)
			return true
		}
		s.advance(n)
		if n < total {
			return false // the socket is full
		}
	}
	return false
}

// gather collects the buffers of the queued requests, up to maxIovecs, in the loop's
// scratch slice (clear it after use), and their total size.
func (s *stream) gather() ([][]byte, int) {
	sh := &s.loop.streams
	bufs, total := sh.bufs[:0], 0
	for r := s.queue.front(); r != nil && len(bufs) < maxIovecs; r = s.queue.after(r) {
		for _, b := range r.bufs {
			if len(bufs) == maxIovecs {
				break
			}
			bufs = append(bufs, b)
			total += len(b)
		}
	}
	sh.bufs = bufs
	return bufs, total
}

// advance accounts n written bytes to the queue's requests, finishing those it completes.
func (s *stream) advance(n int) {
	s.queueSize -= n
	for r := s.queue.front(); r != nil; r = s.queue.front() {
		for n > 0 && len(r.bufs) > 0 {
			b := r.bufs[0]
			if n < len(b) {
				r.bufs[0] = b[n:]
				r.size -= n
				return
			}
			n -= len(b)
			r.size -= len(b)
			r.bufs[0] = nil
			r.bufs = r.bufs[1:]
		}
		for len(r.bufs) > 0 && len(r.bufs[0]) == 0 {
			r.bufs[0] = nil
			r.bufs = r.bufs[1:]
		}
		if len(r.bufs) > 0 {
			return
		}
		s.finishReq(s.queue.pop())
	}
}

// finishReq moves a written or failed request to the done list; its callback runs from the
// pending phase or right after the write (uv__write_req_finish).
func (s *stream) finishReq(r *writeReq) {
	s.done.push(r)
	s.feed()
}

// flushQueue fails every queued request with err (uv__stream_flush_write_queue).
func (s *stream) flushQueue(err error) {
	for r := s.queue.pop(); r != nil; r = s.queue.pop() {
		r.err = err
		s.done.push(r)
	}
}

// writeCallbacks runs the callbacks of the finished requests (uv__write_callbacks); those
// that finish meanwhile wait for the next round. Each request leaves the stream, and stops
// counting, before its callback runs, so a panicking callback loses nothing: the rest of the
// batch stays first in line and runs in the next pending phase (or, once the stream is
// closing, in the next close phase).
func (s *stream) writeCallbacks() {
	if s.done.front() == nil {
		return
	}
	l := s.loop
	last := s.done.last
	finished := false
	defer func() {
		if !finished && s.done.front() != nil && s.flags&flagClosing == 0 {
			s.feed()
		}
	}()
	for end := false; !end; {
		r := s.done.pop()
		end = r == last
		l.reqDone(ReqWrite)
		if r.err != nil {
			s.queueSize -= r.size
		}
		cb, err := r.cb, r.err
		s.freeReq(r)
		if cb != nil {
			cb(err)
			l.afterCallback()
		}
	}
	finished = true
	if s.queueSize == 0 && s.sflags&sNeedDrain != 0 && s.queue.front() == nil {
		s.sflags &^= sNeedDrain
		if s.x != nil && s.x.drainCb != nil && s.flags&(flagClosing|flagClosed) == 0 {
			s.x.drainCb()
			l.afterCallback()
		}
	}
}

// drain runs once the queue is empty: no more interest in writability, and a pending
// shutdown happens now (uv__drain).
func (s *stream) drain() {
	if s.flags&flagClosing == 0 && s.io.fd >= 0 {
		s.loop.io.stop(&s.io, Writable)
	}
	if s.sflags&sShutting == 0 {
		return
	}
	s.sflags &^= sShutting
	s.loop.reqDone(ReqShutdown)
	var err error
	switch {
	case s.flags&flagClosing != 0:
		err = errCanceledShu
	default:
		if e := sock.ShutdownWrite(s.io.fd); e != nil {
			err = sysErr("shutdown", e)
		} else {
			s.sflags |= sShut
		}
	}
	cb := s.rare().shutdownCb
	s.x.shutdownCb = nil
	if cb != nil {
		cb(err)
		s.loop.afterCallback()
	}
}

// TryWrite writes what the socket takes now (uv_try_write).
func (s *stream) TryWrite(data []byte) (int, error) {
	if s.sflags&sConnecting != 0 || s.queueSize != 0 {
		return 0, errWriteAgain
	}
	if err := s.checkWrite(); err != nil {
		return 0, err
	}
	n, err := s.sysWrite(data)
	switch {
	case err == syscall.EAGAIN || err == syscall.ENOBUFS:
		return 0, errWriteAgain
	case err != nil:
		return 0, sysErr("write", s.sockErrFor(err))
	}
	return n, nil
}

// Shutdown half-closes the stream once the queue is written (uv_shutdown). It fails with
// an error wrapping ENOTCONN if the stream is not writable, already shut down or closing.
// Made while a connect is in flight, it waits for the connect (and the writes queued behind
// it); if the connect fails, its callback gets an error wrapping ENOTCONN after the
// connect's and the writes' callbacks.
func (s *stream) Shutdown(cb func(err error)) error {
	if s.sflags&sWritable == 0 || s.sflags&(sShut|sShutting) != 0 || s.flags&(flagClosing|flagClosed) != 0 || s.io.fd < 0 {
		return errNotConn
	}
	s.rare().shutdownCb = cb
	s.sflags |= sShutting
	s.sflags &^= sWritable
	s.loop.reqStart(ReqShutdown)
	if s.queue.front() == nil {
		s.feed()
	}
	return nil
}

// startConnect registers a connect request whose outcome ioReady reports (the tail of
// uv__tcp_connect and uv_pipe_connect).
func (s *stream) startConnect(cb func(error)) {
	s.rare().connectCb = cb
	s.sflags |= sConnecting
	s.loop.reqStart(ReqConnect)
	if s.io.fd >= 0 {
		s.loop.io.start(&s.io, Writable)
	}
	if s.delayed() != nil {
		s.feed()
	}
}

// finishConnect reports the outcome of a connect (uv__stream_connect).
func (s *stream) finishConnect() {
	err := s.delayed()
	if err != nil {
		s.x.delayedErr = nil
	} else {
		v, e := sock.SocketError(s.io.fd)
		switch {
		case e != nil:
			err = sysErr("getsockopt", e)
		case v == syscall.EINPROGRESS:
			return
		case v != 0:
			err = os.NewSyscallError("connect", v)
		}
	}
	s.sflags &^= sConnecting
	if err == nil {
		s.sflags |= sConnected
	}
	if s.ring.on && s.sflags&sReading != 0 && s.io.fd >= 0 {
		s.ringConnected()
	}
	s.loop.reqDone(ReqConnect)
	if s.io.fd >= 0 && (err != nil || s.queue.front() == nil) {
		s.loop.io.stop(&s.io, Writable)
	}
	cb := s.rare().connectCb
	s.x.connectCb = nil
	if err == nil {
		if cb != nil {
			cb(nil)
			s.loop.afterCallback()
		}
	} else {
		s.failWritesAfter(func() {
			if cb != nil {
				cb(err)
				s.loop.afterCallback()
			}
		}, errCanceled)
	}
	if s.sflags&sShutting != 0 && s.queue.front() == nil && s.io.fd >= 0 {
		// A Shutdown made while connecting, with no write left for it to wait for: it
		// happens now (in the next pending phase), or fails with ENOTCONN after a refusal.
		// (uv__stream_connect leaves it waiting for a writability it no longer asks for.)
		s.feed()
	}
}

// failWritesAfter runs report (a callback that tells of a failure), then fails the queued
// writes with err and runs their callbacks, unless report closed the stream (then Close
// cancels them). If report panics, the writes fail all the same and their callbacks run in
// the next pending phase.
func (s *stream) failWritesAfter(report func(), err error) {
	reported := false
	defer func() {
		if !reported && s.io.fd >= 0 {
			s.flushQueue(err)
			if s.done.front() != nil {
				s.feed()
			}
		}
	}()
	report()
	reported = true
	if s.io.fd >= 0 {
		s.flushQueue(err)
		s.writeCallbacks()
	}
}

// listen starts accepting on a socket already in the listening state (uv_listen's tail).
func (s *stream) listen(cb func(error)) {
	s.rare().connCb = cb
	s.sflags |= sListening
	s.loop.reserveFd()
	if !s.ringListen() {
		s.loop.io.start(&s.io, Readable)
	}
	s.handle.start()
}

// serverIO accepts connections and announces them (uv__server_io) until the accept queue
// is empty, as libuv does: no burst limit, since a listener that takes a few per readiness
// event lets a busy loop's queue overflow, and the kernel then drops handshakes (the client
// sees a connection that never answers). A connection that the callback does not Accept
// stops accepting until it is taken.
func (s *stream) serverIO() {
	l := s.loop
	if !l.streams.reserved {
		// The reserve was lost: another thread of the process took the fd that the trick
		// freed before it could reopen it. Take it back as soon as fds are free again, before
		// the next connection does (libuv retries at each stream's init).
		l.reserveFd()
	}
	for s.x.acceptedFd == -1 {
		fd, err := sock.Accept(s.io.fd)
		if err == syscall.EMFILE || err == syscall.ENFILE {
			err = s.emfileTrick(err)
		}
		switch err {
		case nil:
		case syscall.ECONNABORTED:
			continue // the connection was reset in the queue; take the next
		case syscall.EAGAIN:
			return
		default:
			if s.x.connCb != nil {
				s.x.connCb(sysErr("accept", err))
				l.afterCallback()
			}
			return
		}
		s.x.acceptedFd = fd
		// Parked until Accept takes it, which re-arms the listener: so a callback that does
		// not accept, or panics, leaves the listener quiet rather than spinning.
		l.io.stop(&s.io, Readable)
		s.x.connCb(nil)
		l.afterCallback()
		if s.io.fd < 0 || s.x.acceptedFd != -1 {
			return // closed by the callback, or the connection waits for Accept
		}
	}
}

// emfileTrick sheds load when the process is out of fds: it closes the reserved fd,
// accepts and closes every queued connection (their peers see the connection closed), and
// reopens the reserve (uv__emfile_trick). It returns the error that ended the accepts.
func (s *stream) emfileTrick(orig error) error {
	sh := &s.loop.streams
	if !sh.reserved {
		return orig
	}
	sock.Close(sh.reserveFd)
	sh.reserved = false
	var err error
	for {
		var fd int
		if fd, err = sock.Accept(s.io.fd); err != nil {
			break
		}
		sock.Close(fd)
	}
	s.loop.reserveFd()
	return err
}

// accept takes the queued connection into client (uv_accept).
func (s *stream) accept(client *stream) error {
	if err := s.usable(); err != nil {
		return err
	}
	if err := client.usable(); err != nil {
		return err
	}
	if client.loop != s.loop {
		return os.NewSyscallError("accept", syscall.EINVAL)
	}
	if s.x == nil || s.x.acceptedFd == -1 {
		return errAcceptAgain
	}
	fd := s.x.acceptedFd
	s.x.acceptedFd = -1
	err := client.open(fd, sReadable|sWritable)
	if err != nil {
		sock.Close(fd)
	} else {
		client.sflags |= sBound | sConnected
	}
	if s.io.fd >= 0 && s.sflags&sListening != 0 {
		if s.accepting() {
			s.ringAcceptResume()
		} else {
			s.loop.io.start(&s.io, Readable)
		}
	}
	return err
}

// closeStart is uv__stream_close: the socket is closed now; a connect in flight, queued
// writes and a pending shutdown complete in closeFinish, before the close callback, with an
// error wrapping ECANCELED.
func (s *stream) closeStart() { s.closeFd() }

// closeFinish is uv__stream_destroy. It is resumable: a request whose callback ran is gone
// from the stream before the callback runs.
func (s *stream) closeFinish() { s.destroy() }

// closeFd is uv__stream_close: the fd leaves the poller and is closed at once.
func (s *stream) closeFd() {
	s.readCb = nil
	s.sflags &^= sReading | sReadable | sWritable
	if s.io.fd >= 0 {
		if s.ring.on {
			s.ringForget()
		}
		s.ringSendForget()
		if s.accepting() {
			s.ringAcceptForget()
		}
		s.loop.io.detach(s.loop.poller, &s.io)
		sock.Close(s.io.fd)
		s.io.fd = -1
	}
	if s.x != nil && s.x.acceptedFd >= 0 {
		sock.Close(s.x.acceptedFd)
		s.x.acceptedFd = -1
	}
}

// destroy completes what is still in flight, before the close callback (uv__stream_destroy).
func (s *stream) destroy() {
	if s.sflags&sConnecting != 0 {
		s.sflags &^= sConnecting
		s.loop.reqDone(ReqConnect)
		cb := s.rare().connectCb
		s.x.connectCb = nil
		if cb != nil {
			cb(errCanceledCon)
			s.loop.afterCallback()
		}
	}
	s.flushQueue(errCanceled)
	s.writeCallbacks()
	s.drain()
}
