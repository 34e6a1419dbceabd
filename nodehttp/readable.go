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
	// onDestroy is the message's _destroy: it reports whether the source must be torn
	// down (and waited for: done) before the "close".
	onDestroy  func(err error) bool
	destroySrc func(err error, done func())
}

// highWaterMark is where a message nobody reads stops its source.
const highWaterMark = 16 << 10

func (r *readable) init(l *uvloop.Loop, ee *nodenet.EventEmitter) {
	r.loop, r.ee = l, ee
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
			r.loop.NextTick(r.resumeNT)
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
			r.loop.NextTick(r.emitReadable)
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
		r.loop.NextTick(r.endReadableNT)
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
	tearDown := r.onDestroy != nil && r.onDestroy(err)
	after := func(e error) {
		r.loop.NextTick(func() {
			if r.ee.ListenerCount("error") == 0 {
				e = nil
			}
			if e != nil {
				r.loop.NextTick(func() {
					r.ee.Emit("error", e)
					r.emitClose()
				})
				return
			}
			r.loop.NextTick(r.emitClose)
		})
	}
	if tearDown && r.destroySrc != nil {
		r.destroySrc(err, func() { after(err) })
		return
	}
	after(err)
}

func (r *readable) emitClose() {
	if r.closeEmitted {
		return
	}
	r.closeEmitted = true
	r.ee.Emit("close")
}
