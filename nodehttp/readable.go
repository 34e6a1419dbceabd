package nodehttp

import (
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// readable is the part of Node's Readable stream that an IncomingMessage uses, with its
// timing: a "data" listener makes the stream flow from a nextTick (resume), chunks pushed
// before the first read wait for it, later ones are emitted at once while it flows, and
// "end" comes from a nextTick once the end was pushed and everything was read; then the
// message destroys itself ("close" two ticks later).
type readable struct {
	loop *uvloop.Loop
	tk   *ticker
	msg  *IncomingMessage
	ee   *nodenet.EventEmitter

	buf             [][]byte
	blen            int
	flowing         int8 // -1: no consumer yet (null), 0: paused, 1: flowing
	sync            bool // no read has happened yet (Node's state.sync)
	resumeScheduled bool
	emittedReadable bool
	ended           bool // the end was pushed
	endEmitted      bool
	destroyed       bool
	closeEmitted    bool
	errored         error
	consuming       bool // read was called (Node's _consuming)
	dumped          bool

	read        func() // the source should deliver (un-pause)
	pauseSource func() // the source should stop (buffer full)
	// destroySrc tears the source down (and calls done once it is) when the message is
	// destroyed before its end (the message's _destroy says so).
	destroySrc func(err error, done func())
}

// highWaterMark is where a message nobody reads stops its source.
const highWaterMark = 16 << 10

func (r *readable) init(l *uvloop.Loop, tk *ticker, m *IncomingMessage) {
	r.loop, r.tk, r.msg, r.ee = l, tk, m, &m.EventEmitter
	r.flowing = -1
	r.sync = true
}

func (r *readable) on(event string) {
	if event == "data" && r.flowing != 0 {
		r.resume()
	}
}

func (r *readable) resume() {
	if r.flowing != 1 {
		r.flowing = 1
		if !r.resumeScheduled {
			r.resumeScheduled = true
			r.tk.readable(tickResume, r, nil)
		}
	}
}

func (r *readable) pause() {
	if r.flowing != 0 {
		r.flowing = 0
		r.ee.Emit("pause")
	}
}

func (r *readable) doRead() {
	r.consuming = true
	if !r.ended && r.read != nil {
		r.read()
	}
	r.sync = false
}

func (r *readable) resumeNT() {
	r.doRead()
	r.resumeScheduled = false
	r.ee.Emit("resume")
	r.flow()
}

// flow emits what is buffered while the stream flows, and ends it once it is drained.
func (r *readable) flow() {
	for r.flowing == 1 && !r.destroyed {
		if len(r.buf) == 0 {
			if r.ended {
				r.endReadable()
			} else {
				r.doRead()
			}
			return
		}
		chunk := r.buf[0]
		r.buf[0] = nil
		r.buf = r.buf[1:]
		r.blen -= len(chunk)
		r.ee.Emit("data", chunk)
	}
}

// push adds a chunk from the source (the message owns it).
func (r *readable) push(chunk []byte) {
	if r.ended || r.destroyed {
		return
	}
	if r.flowing == 1 && len(r.buf) == 0 && !r.sync && r.ee.ListenerCount("data") > 0 {
		r.ee.Emit("data", chunk)
		return
	}
	r.buf = append(r.buf, chunk)
	r.blen += len(chunk)
	if r.flowing != 1 && r.blen >= highWaterMark && r.pauseSource != nil {
		r.pauseSource()
	}
}

// pushEOF marks the end of the data.
func (r *readable) pushEOF() {
	if r.ended || r.destroyed {
		return
	}
	r.ended = true
	if r.sync {
		if !r.emittedReadable {
			r.emittedReadable = true
			r.tk.readable(tickEmitReadable, r, nil)
		}
		return
	}
	r.emittedReadable = true
	r.emitReadable()
}

func (r *readable) emitReadable() {
	r.emittedReadable = false
	r.flow()
}

func (r *readable) endReadable() {
	if !r.endEmitted {
		r.tk.readable(tickEndReadable, r, nil)
	}
}

func (r *readable) endReadableNT() {
	if r.endEmitted || r.errored != nil || r.closeEmitted || len(r.buf) > 0 {
		return
	}
	r.endEmitted = true
	r.ee.Emit("end")
	r.destroy(nil) // autoDestroy
}

// dump discards the message: its "data" listeners go, and it flows to its end.
func (r *readable) dump() {
	if !r.dumped {
		r.dumped = true
		r.ee.RemoveAllListeners("data")
		r.buf, r.blen = nil, 0
		r.resume()
	}
}

// destroy is Node's destroy for an IncomingMessage: "aborted" if it did not end, the
// source torn down (and waited for) if so, then "error" (if err and a listener) and
// "close" from ticks.
func (r *readable) destroy(err error) {
	if r.destroyed {
		return
	}
	r.destroyed = true
	if err != nil && r.errored == nil {
		r.errored = err
	}
	tearDown := r.msg.destroyHook(err)
	if tearDown && r.destroySrc != nil {
		r.destroySrc(err, func() { r.tk.readable(tickDestroyed, r, err) })
		return
	}
	r.tk.readable(tickDestroyed, r, err)
}

// destroyedNT is the tick after destroy: "error" (if err and a listener) and "close"
// follow from another.
func (r *readable) destroyedNT(err error) {
	if err != nil && r.ee.ListenerCount("error") > 0 {
		r.tk.readable(tickErrorClose, r, err)
		return
	}
	r.tk.readable(tickClose, r, nil)
}

func (r *readable) emitClose() {
	if r.closeEmitted {
		return
	}
	r.closeEmitted = true
	r.ee.Emit("close")
}
