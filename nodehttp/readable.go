package nodehttp

// readable is the part of Node's Readable stream that an IncomingMessage uses, with its
// timing: a "data" listener makes the stream flow from a nextTick (resume), chunks pushed
// before the first read wait for it, later ones are emitted at once while it flows, and
// "end" comes from a nextTick once the end was pushed and everything was read; then the
// message destroys itself ("close" two ticks later).
type readable struct {
	tk  *ticker
	msg *IncomingMessage // the message whose body this is (its EventEmitter emits)
	src source           // nil: no source to pause, resume or tear down

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
}

// source is where a message's body comes from: a server's connection, a client's socket.
type source interface {
	sourceRead()                          // deliver (un-pause)
	sourcePause()                         // stop delivering (the buffer is full)
	sourceDestroy(err error, done func()) // tear down (the message was destroyed before its end); then done
}

// highWaterMark is where a message nobody reads stops its source.
const highWaterMark = 16 << 10

func (r *readable) init(tk *ticker, m *IncomingMessage) {
	r.tk, r.msg = tk, m
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
		r.msg.Emit("pause")
	}
}

func (r *readable) doRead() {
	r.consuming = true
	if !r.ended && r.src != nil {
		r.src.sourceRead()
	}
	r.sync = false
}

func (r *readable) resumeNT() {
	r.doRead()
	r.resumeScheduled = false
	r.msg.Emit("resume")
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
		r.msg.Emit("data", chunk)
	}
}

// push adds a chunk from the source (the message owns it).
func (r *readable) push(chunk []byte) {
	if r.ended || r.destroyed {
		return
	}
	if r.flowing == 1 && len(r.buf) == 0 && !r.sync && r.msg.ListenerCount("data") > 0 {
		r.msg.Emit("data", chunk)
		return
	}
	r.buf = append(r.buf, chunk)
	r.blen += len(chunk)
	if r.flowing != 1 && r.blen >= highWaterMark && r.src != nil {
		r.src.sourcePause()
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
	r.msg.Emit("end")
	r.destroy(nil) // autoDestroy
}

// dump discards the message: its "data" listeners go, and it flows to its end.
func (r *readable) dump() {
	if !r.dumped {
		r.dumped = true
		r.msg.RemoveAllListeners("data")
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
	if tearDown && r.src != nil {
		r.src.sourceDestroy(err, func() { r.tk.readable(tickDestroyed, r, err) })
		return
	}
	r.tk.readable(tickDestroyed, r, err)
}

// destroyedNT is the tick after destroy: "error" (if err and a listener) and "close"
// follow from another.
func (r *readable) destroyedNT(err error) {
	if err != nil && r.msg.ListenerCount("error") > 0 {
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
	r.msg.Emit("close")
}
