package nodeprocess

import (
	"github.com/uvgo/uvgo/internal/tty"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// FileStream reads a file descriptor that the poller cannot watch (a regular file, a
// character device) on the work pool, one chunk per read, as Node's fs.ReadStream does for a
// stdin redirected from a file. Events: "data" [[]byte] from the poll phase, "end" from a
// nextTick at the end (and no "close": Node's stdin stream has autoClose false), "error"
// [error], "close" after Destroy. It owns its fd, closed at the end. Loop goroutine only.
type FileStream struct {
	nodenet.EventEmitter
	loop      *uvloop.Loop
	fd        int
	buf       []byte
	flowing   bool
	reading   bool // a read is on the pool
	ended     bool
	destroyed bool
}

// fileChunk is the size of one read: Node's highWaterMark for fs streams (64 KiB).
const fileChunk = 64 << 10

func newFileStream(l *uvloop.Loop, fd int) *FileStream {
	return &FileStream{loop: l, fd: fd, buf: make([]byte, fileChunk)}
}

// Resume starts the flow of "data".
func (f *FileStream) Resume() {
	f.flowing = true
	f.next()
}

// Pause stops the flow after the read in progress.
func (f *FileStream) Pause() { f.flowing = false }

func (f *FileStream) next() {
	if !f.flowing || f.reading || f.ended || f.destroyed {
		return
	}
	f.reading = true
	var n int
	var rerr error
	_, err := f.loop.QueueWork(func() { n, rerr = tty.Read(f.fd, f.buf) }, func(err error) {
		f.reading = false
		if err == nil {
			err = rerr
		}
		if f.destroyed {
			f.closeFd()
			return
		}
		switch {
		case err != nil:
			f.Destroy()
			f.loop.NextTick(func() { f.Emit("error", err) })
		case n == 0:
			// Node's stdin ReadStream has autoClose false: 'end', and no destroy, so no
			// 'close'. The fd is this stream's duplicate of fd 0: it goes.
			f.ended = true
			f.closeFd()
			f.loop.NextTick(func() { f.Emit("end") })
		default:
			f.Emit("data", append([]byte(nil), f.buf[:n]...))
			f.next()
		}
	})
	if err != nil {
		f.reading = false
	}
}

// Destroy stops reading and closes the fd; "close" follows from a nextTick.
func (f *FileStream) Destroy() {
	if f.destroyed {
		return
	}
	f.destroyed = true
	if !f.reading {
		f.closeFd()
	}
	f.loop.NextTick(func() { f.Emit("close") })
}

func (f *FileStream) closeFd() {
	if f.fd >= 0 {
		tty.Close(f.fd)
		f.fd = -1
	}
}
