package nodenet

import (
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Socket is a Duplex: Pipe, Pipeline and Finished take it.
var _ Duplex = (*Socket)(nil)

// ---- the stream shape ----

// Loop is the loop the socket belongs to.
func (s *Socket) Loop() *uvloop.Loop { return s.loop }

// DestroyStream is Destroy without its result.
func (s *Socket) DestroyStream(err error) { s.Destroy(err) }

// PauseStream is Pause without its result.
func (s *Socket) PauseStream() { s.Pause() }

// ResumeStream is Resume without its result.
func (s *Socket) ResumeStream() { s.Resume() }

// FlowStream makes the socket flow at once, without "resume" (Node's pipeOnDrain): the
// buffered chunks go to "data" now, and reading starts again below the high-water mark.
func (s *Socket) FlowStream() {
	s.flowing = 1
	s.flow()
	if s.flowing == 1 && s.bufLen < s.readableHWM {
		s.startReading()
	}
}

// PipeState is where Pipe keeps the socket's destinations.
func (s *Socket) PipeState() *PipeState { return &s.pipeState }

// EndStream is End(nil) without its result.
func (s *Socket) EndStream() { s.End(nil) }

// Pipe is socket.pipe(destination, { end }): see the package function Pipe.
func (s *Socket) Pipe(dst Writable, end bool) Writable { return Pipe(s, dst, end) }

// Unpipe is socket.unpipe(destination): see the package function Unpipe.
func (s *Socket) Unpipe(dst Writable) { Unpipe(s, dst) }

// Readable is socket.readable: the readable side is open (not destroyed, errored or ended).
func (s *Socket) Readable() bool {
	return !s.destroyed && s.errored == nil && !s.endEmitted
}

// Writable is socket.writable: the writable side takes writes (not destroyed, errored,
// ending or ended).
func (s *Socket) Writable() bool { return s.writable() }

// ReadableEnded is readable.readableEnded: "end" was emitted.
func (s *Socket) ReadableEnded() bool { return s.endEmitted }

// ReadableLength is readable.readableLength: the bytes (or, after SetEncoding, the
// characters in UTF-16 code units, as JavaScript counts them) buffered and not yet handed to
// "data".
func (s *Socket) ReadableLength() int { return s.bufLen }

// ReadableFlowing is readable.readableFlowing: nil (-1) before anything consumed the
// socket, true (1) while it flows, false (0) once paused.
func (s *Socket) ReadableFlowing() int { return int(s.flowing) }

// ReadableHighWaterMark is readable.readableHighWaterMark: where a socket nobody reads
// stops reading.
func (s *Socket) ReadableHighWaterMark() int { return s.readableHWM }

// WritableHighWaterMark is writable.writableHighWaterMark: where Write starts returning
// false.
func (s *Socket) WritableHighWaterMark() int { return s.writableHWM }

// WritableLength is writable.writableLength: the bytes written and not yet handed to the
// kernel (BufferedAmount).
func (s *Socket) WritableLength() int { return s.wlen }

// WritableNeedDrain is writable.writableNeedDrain: a Write returned false and "drain" has
// not come yet.
func (s *Socket) WritableNeedDrain() bool { return s.needDrain && !s.destroyed && !s.ending }

// WritableEnded is writable.writableEnded: End was called.
func (s *Socket) WritableEnded() bool { return s.ending }

// WritableFinished is writable.writableFinished: "finish" was emitted.
func (s *Socket) WritableFinished() bool { return s.finished }

// ReadyState is socket.readyState: "opening" while connecting, then "open", "readOnly"
// (the writable side is done), "writeOnly" (the readable side is done) or "closed".
func (s *Socket) ReadyState() string {
	r, w := s.Readable(), s.Writable()
	switch {
	case s.connecting:
		return "opening"
	case r && w:
		return "open"
	case r:
		return "readOnly"
	case w:
		return "writeOnly"
	}
	return "closed"
}

// SetHighWaterMark sets the readable and the writable high-water marks (Node's
// readableHighWaterMark and writableHighWaterMark options; 16 KiB each by default); a value
// below 1 leaves that side's as it is. Set them before the socket is used.
func (s *Socket) SetHighWaterMark(readable, writable int) *Socket {
	if readable > 0 {
		s.readableHWM = readable
	}
	if writable > 0 {
		s.writableHWM = writable
	}
	return s
}

// ---- socket options ----

// SetTimeout is socket.setTimeout(timeout, callback): after d without activity (nothing
// read, nothing written, no connect) the socket emits "timeout", from the timers phase; it
// is not closed: the listener should End or Destroy it. Activity after a "timeout" starts
// the count again. The idle timer does not keep the loop alive (Node's unref'd timer). d of
// 0 turns the timeout off; cb, if not nil and d is not 0, is a Once("timeout") listener.
// Time is a time.Duration: 3*time.Second, not Node's 3000.
func (s *Socket) SetTimeout(d time.Duration, cb func()) *Socket {
	if s.destroyed {
		return s
	}
	s.clearTimeout()
	s.timeoutDur = d
	if d <= 0 {
		s.timeoutDur = 0
		return s
	}
	s.timeout = s.loop.SetTimeout(s.onTimeout, d)
	s.timeout.Unref()
	if cb != nil {
		s.Once("timeout", func(...any) { cb() })
	}
	return s
}

// Timeout is socket.timeout: the idle timeout SetTimeout set, 0 if none.
func (s *Socket) Timeout() time.Duration { return s.timeoutDur }

func (s *Socket) clearTimeout() {
	if s.timeout != nil {
		s.loop.ClearTimeout(s.timeout)
		s.timeout = nil
	}
}

// activity restarts the idle timer (Node's _unrefTimer).
func (s *Socket) activity() {
	if s.timeout != nil {
		s.timeout.Refresh()
	}
}

// onTimeout is Node's _onTimeout: a write still draining counts as activity.
func (s *Socket) onTimeout() {
	if s.h != nil && s.lastWriteQueue > 0 {
		if q := s.h.WriteQueueSize(); q != s.lastWriteQueue {
			s.lastWriteQueue = q
			s.activity()
			return
		}
	}
	s.Emit("timeout")
}

// SetKeepAlive is socket.setKeepAlive(enable, initialDelay): TCP keep-alive on, with the
// first probe after initialDelay of idleness (whole seconds, at least 1 s), or off. Before
// the connection exists the choice is kept and applied when it does. Pipes ignore it.
func (s *Socket) SetKeepAlive(enable bool, initialDelay time.Duration) *Socket {
	if s.tcp != nil {
		s.tcp.SetKeepAlive(enable, initialDelay)
	}
	return s
}

// OnTimeout adds a "timeout" listener.
func (s *Socket) OnTimeout(fn func()) *Listener { return s.On("timeout", func(...any) { fn() }) }

// OnDataString adds a "data" listener that gets the chunk as a string: the decoded text after
// SetEncoding, else the bytes as they are. It makes the socket flow.
func (s *Socket) OnDataString(fn func(data string)) *Listener {
	return s.On("data", func(a ...any) {
		switch c := a[0].(type) {
		case []byte:
			fn(string(c))
		case string:
			fn(c)
		}
	})
}
