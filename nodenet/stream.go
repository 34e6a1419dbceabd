package nodenet

import (
	"errors"

	"github.com/uvgo/uvgo/uvloop"
)

// The shape of Node's streams, shared by nodenet's Socket, nodefs's ReadStream and
// WriteStream, and any other stream (an HTTP body, say) that wants Pipe, Pipeline and
// Finished: Readable, Writable and Duplex are interfaces, and the concrete types keep their
// own chainable methods (Socket.Pause returns the *Socket, as Node's returns this). The
// interface methods have no results, and the ones that Node spells the same as a chainable
// method get a Stream suffix (PauseStream is pause(), EndStream is end(), ...).
//
// An implementation keeps Node's contract: "data" carries a []byte (or a string after
// SetEncoding), "end" once the readable side is done, "finish" once everything written was
// written after EndStream, "drain" once a Write that returned false has been written,
// "error" then "close" when destroyed with an error, "close" last; Write returns false
// once the buffered bytes reach the high-water mark.

// Emitter is the event side of a stream: EventEmitter's methods.
type Emitter interface {
	On(event string, fn func(args ...any)) *Listener
	Once(event string, fn func(args ...any)) *Listener
	Off(event string, l *Listener) bool
	Emit(event string, args ...any) bool
	ListenerCount(event string, fn ...func(...any)) int
}

// Stream is what every stream has: its events, its loop, and destroy.
type Stream interface {
	Emitter
	// Loop is the loop the stream belongs to.
	Loop() *uvloop.Loop
	// Destroyed is stream.destroyed.
	Destroyed() bool
	// DestroyStream is stream.destroy(err): "error" (if err is not nil) and "close" follow.
	DestroyStream(err error)
}

// Readable is Node's stream.Readable as Pipe and Pipeline use it.
type Readable interface {
	Stream
	// Readable is readable.readable: not destroyed, errored or ended.
	Readable() bool
	// ReadableEnded is readable.readableEnded: "end" was emitted.
	ReadableEnded() bool
	// IsPaused is readable.isPaused(): Pause was called (and not Resume since).
	IsPaused() bool
	// PauseStream is readable.pause(): "data" stops, "pause" is emitted if it flowed.
	PauseStream()
	// ResumeStream is readable.resume(): the stream flows from a nextTick ("resume").
	ResumeStream()
	// FlowStream makes the stream flow at once, without "resume": what a pipe does when
	// its destination drains (Node's pipeOnDrain: state.flowing = true; flow(src)).
	FlowStream()
	// PipeState is where Pipe keeps the stream's destinations: embed a PipeState in the
	// stream type and return its address.
	PipeState() *PipeState
}

// Writable is Node's stream.Writable as Pipe and Pipeline use it.
type Writable interface {
	Stream
	// Write is writable.write(chunk, cb): false once the buffer reaches the high-water
	// mark (wait for "drain").
	Write(data []byte, cb func(err error)) bool
	// EndStream is writable.end(): "finish" follows once everything is written.
	EndStream()
	// Writable is writable.writable: not destroyed, errored, ending or ended.
	Writable() bool
	// WritableNeedDrain is writable.writableNeedDrain: a Write returned false and "drain"
	// has not come yet.
	WritableNeedDrain() bool
	// WritableFinished is writable.writableFinished: "finish" was emitted.
	WritableFinished() bool
}

// Duplex is a stream that is both (net.Socket is one).
type Duplex interface {
	Readable
	Writable
}

// PipeState is the part of a readable's state that Pipe keeps (Node's state.pipes and
// awaitDrainWriters). The zero value is ready; a stream type embeds one.
type PipeState struct {
	pipes []*pipe
}

// awaitingDrain reports whether the stream waits for a destination to drain (Node's
// awaitDrainWriters is not empty): it flows again only once every one has.
func (ps *PipeState) awaitingDrain() bool {
	for _, p := range ps.pipes {
		if p.awaitDrain {
			return true
		}
	}
	return false
}

// Pipes is the number of destinations the stream is piped to.
func (ps *PipeState) Pipes() int { return len(ps.pipes) }

// pipe is one src.pipe(dst): its listeners, to remove on cleanup.
type pipe struct {
	src        Readable
	dst        Writable
	cleanedUp  bool
	awaitDrain bool
	hasUnpiped bool
	ls         []struct {
		em    Emitter
		event string
		l     *Listener
	}
	ondrain func()
}

// prepender is an Emitter with EventEmitter's PrependListener.
type prepender interface {
	PrependListener(event string, fn func(args ...any)) *Listener
}

func (p *pipe) on(em Emitter, event string, once bool, fn func(args ...any)) *Listener {
	var l *Listener
	if once {
		l = em.Once(event, fn)
	} else {
		l = em.On(event, fn)
	}
	p.keep(em, event, l)
	return l
}

// prepend is Node's prependListener: fn goes before em's other listeners for event, if em
// can put it there (else after them).
func (p *pipe) prepend(em Emitter, event string, fn func(args ...any)) *Listener {
	pe, ok := em.(prepender)
	if !ok {
		return p.on(em, event, false, fn)
	}
	l := pe.PrependListener(event, fn)
	p.keep(em, event, l)
	return l
}

// keep records a listener to remove on cleanup.
func (p *pipe) keep(em Emitter, event string, l *Listener) {
	p.ls = append(p.ls, struct {
		em    Emitter
		event string
		l     *Listener
	}{em, event, l})
}

func (p *pipe) off(l *Listener) {
	for i, x := range p.ls {
		if x.l == l {
			x.em.Off(x.event, l)
			p.ls = append(p.ls[:i:i], p.ls[i+1:]...)
			return
		}
	}
}

// Pipe is readable.pipe(destination, { end }), with Node's backpressure: each chunk is
// written to dst; when Write returns false, src pauses ("pause") until dst emits "drain",
// then flows again at once. At src's "end", dst is ended if end is true, else the pipe is
// undone (Unpipe). dst gets "pipe" (src) at once and "unpipe" (src) when the pipe is undone,
// which happens at dst's "finish" or "close" too. An "error" on dst undoes the pipe before
// dst's other "error" listeners run (the pipe's goes first if dst has PrependListener, as
// an EventEmitter does); if nothing else listens for it, dst is destroyed with it (Node
// rethrows it). src starts flowing (from a nextTick, as resume()) unless dst needs to drain
// first; piped into several destinations, it flows again only once every one it waits for
// has drained. It returns dst.
func Pipe(src Readable, dst Writable, end bool) Writable {
	st := src.PipeState()
	p := &pipe{src: src, dst: dst}
	st.pipes = append(st.pipes, p)

	unpipe := func() { Unpipe(src, dst) }
	endFn := unpipe
	if end {
		endFn = dst.EndStream
	}
	if src.ReadableEnded() {
		src.Loop().NextTick(endFn)
	} else {
		p.on(src, "end", true, func(...any) { endFn() })
	}
	var onclose, onfinish, onerror *Listener
	p.on(dst, "unpipe", false, func(a ...any) {
		if len(a) > 0 && a[0] == Readable(src) && !p.hasUnpiped {
			p.hasUnpiped = true
			p.cleanup()
		}
	})
	pause := func() {
		if !p.cleanedUp {
			p.awaitDrain = true
			src.PauseStream()
		}
		if p.ondrain == nil {
			p.ondrain = func() { // pipeOnDrain
				p.awaitDrain = false
				if !st.awaitingDrain() && src.ListenerCount("data") > 0 {
					src.FlowStream()
				}
			}
			p.on(dst, "drain", false, func(...any) { p.ondrain() })
		}
	}
	p.on(src, "data", false, func(a ...any) {
		var b []byte
		switch c := a[0].(type) {
		case []byte:
			b = c
		case string:
			b = []byte(c)
		}
		if !dst.Write(b, nil) {
			pause()
		}
	})
	onerror = p.prepend(dst, "error", func(a ...any) { // Node prepends it
		unpipe()
		p.off(onerror)
		dst.Off("error", onerror)
		if dst.ListenerCount("error") == 0 {
			err, _ := a[0].(error)
			dst.DestroyStream(err)
		}
	})
	onclose = p.on(dst, "close", true, func(...any) {
		p.off(onfinish)
		unpipe()
	})
	onfinish = p.on(dst, "finish", true, func(...any) {
		p.off(onclose)
		unpipe()
	})
	dst.Emit("pipe", src)
	if dst.WritableNeedDrain() {
		pause()
	} else {
		src.ResumeStream()
	}
	return dst
}

// cleanup removes the pipe's listeners (Node's cleanup): if src waited for dst to drain, it
// waits no more (Node calls pipeOnDrain now), and flows again if it waits for no other
// destination and has a "data" listener of its own; else it could never flow again.
func (p *pipe) cleanup() {
	for _, x := range p.ls {
		x.em.Off(x.event, x.l)
	}
	p.ls = nil
	p.cleanedUp = true
	if p.ondrain != nil && p.awaitDrain {
		p.ondrain()
	}
}

// Unpipe is readable.unpipe(destination): src stops writing into dst (nil: into every
// destination), which gets "unpipe" (src); src pauses once no destination is left.
func Unpipe(src Readable, dst Writable) {
	st := src.PipeState()
	if len(st.pipes) == 0 {
		return
	}
	if dst == nil {
		ps := st.pipes
		st.pipes = nil
		src.PauseStream()
		for _, p := range ps {
			p.dst.Emit("unpipe", src)
		}
		return
	}
	for i, p := range st.pipes {
		if p.dst == dst {
			st.pipes = append(st.pipes[:i:i], st.pipes[i+1:]...)
			if len(st.pipes) == 0 {
				src.PauseStream()
			}
			dst.Emit("unpipe", src)
			return
		}
	}
}

// ErrPrematureClose is Node's ERR_STREAM_PREMATURE_CLOSE: a stream closed before it ended
// or finished.
var ErrPrematureClose = &Error{Code: "ERR_STREAM_PREMATURE_CLOSE", Message: "Premature close"}

// ErrPipelineStream is what Pipeline reports for a stream in the middle that is not a
// Duplex.
var ErrPipelineStream = &Error{Code: "ERR_INVALID_ARG_TYPE", Message: "The streams in the middle of a pipeline must be Duplex streams"}

// errPipeDestroyed is the error a pipeline destroys its streams with when it has none of
// its own (Node's ERR_STREAM_DESTROYED with 'pipe').
var errPipeDestroyed = &Error{Code: "ERR_STREAM_DESTROYED", Message: "Cannot call pipe after a stream was destroyed"}

// Finished is stream.finished(stream, { readable, writable }, cb) (Node's eos): cb runs
// once, with nil when the stream's readable side ended (if readable) and its writable side
// finished (if writable) and, for a stream that will emit "close" after them, once it closed;
// with the error of an "error" event; or with ErrPrematureClose if it closed before. A
// stream tells whether it will emit "close" with a WillEmitClose method (a Socket does not:
// Node's sockets have emitClose false; nodefs's streams do unless autoClose or emitClose is
// off); one without it is waited for until "close". On a stream that is closed already (a
// Closed method says so) or whose sides are done and that will not emit "close", cb runs
// from a nextTick. It returns a function that removes the listeners.
func Finished(s Stream, readable, writable bool, cb func(err error)) (cleanup func()) {
	r, _ := s.(Readable)
	w, _ := s.(Writable)
	readable = readable && r != nil
	writable = writable && w != nil
	willEmitClose := true
	if c, ok := s.(closeEmitter); ok {
		willEmitClose = c.WillEmitClose()
	}
	willEmitClose = willEmitClose && (r != nil) == readable && (w != nil) == writable
	readableFinished := r != nil && r.ReadableEnded()
	writableFinished := w != nil && w.WritableFinished()
	called := false
	var ls []struct {
		event string
		l     *Listener
	}
	cleanup = func() {
		for _, x := range ls {
			s.Off(x.event, x.l)
		}
		ls = nil
	}
	done := func(err error) {
		if !called {
			called = true
			cb(err)
		}
	}
	on := func(event string, fn func(args ...any)) {
		ls = append(ls, struct {
			event string
			l     *Listener
		}{event, s.On(event, fn)})
	}
	on("end", func(...any) {
		readableFinished = true
		if s.Destroyed() {
			willEmitClose = false
		}
		if willEmitClose && (w == nil || !w.Writable() || writable) {
			return
		}
		if !writable || writableFinished {
			done(nil)
		}
	})
	on("finish", func(...any) {
		writableFinished = true
		if s.Destroyed() {
			willEmitClose = false
		}
		if willEmitClose && (r == nil || !r.Readable() || readable) {
			return
		}
		if !readable || readableFinished {
			done(nil)
		}
	})
	on("error", func(a ...any) {
		err, _ := a[0].(error)
		done(err)
	})
	onclose := func(...any) {
		if readable && !r.ReadableEnded() || writable && !w.WritableFinished() {
			done(ErrPrematureClose)
			return
		}
		done(nil)
	}
	on("close", onclose)
	// Node's eos on a stream that is closed, or done and not to emit "close".
	isReadable := r != nil && !s.Destroyed() && r.Readable() && !r.ReadableEnded()
	notWritable := w != nil && (s.Destroyed() || !w.Writable())
	notReadable := r != nil && !isReadable
	isWritable := w != nil && !notWritable
	switch c, ok := s.(closer); {
	case ok && c.Closed():
		s.Loop().NextTick(func() { onclose() })
	case !readable && (!willEmitClose || isReadable) && (writableFinished || notWritable),
		!writable && (!willEmitClose || isWritable) && (readableFinished || notReadable):
		s.Loop().NextTick(func() { done(nil) })
	}
	return cleanup
}

// closeEmitter is a stream that tells whether it will emit "close" once it is done (Node's
// autoDestroy and emitClose).
type closeEmitter interface {
	WillEmitClose() bool
}

// closer is a stream that tells whether it is closed (Node's stream.closed): Finished on one
// that is calls back without waiting for a "close" that came already.
type closer interface {
	Closed() bool
}

// Pipeline is stream.pipeline(src, ...dsts, cb): each stream is piped into the next (the
// ones in the middle must be Duplex streams), each destination is ended when its source
// ends, and cb runs once, from a nextTick, when every stream has closed: with nil, or with
// the first error (ErrPrematureClose if a stream closed early). On an error every stream
// not yet done is destroyed with it. It returns the last stream.
func Pipeline(cb func(err error), src Readable, dsts ...Writable) Writable {
	if len(dsts) == 0 {
		src.Loop().NextTick(func() { cb(errors.New("nodenet: Pipeline needs a destination")) })
		return nil
	}
	loop := src.Loop()
	var (
		firstErr error
		count    int
		destroys []func(error)
		finished bool
	)
	var finish func(err error)
	finishImpl := func(err error, final bool) {
		if err != nil && (firstErr == nil || errors.Is(firstErr, ErrPrematureClose)) {
			firstErr = err
		}
		if firstErr == nil && !final {
			return
		}
		for len(destroys) > 0 {
			d := destroys[0]
			destroys = destroys[1:]
			d(firstErr)
		}
		if final && !finished {
			finished = true
			err := firstErr
			loop.NextTick(func() { cb(err) })
		}
	}
	finish = func(err error) {
		count--
		finishImpl(err, count == 0)
	}
	destroyer := func(s Stream, reading, writing bool) {
		done := false
		s.On("close", func(...any) { done = true })
		Finished(s, reading, writing, func(err error) { done = err == nil })
		destroys = append(destroys, func(err error) {
			if done {
				return
			}
			done = true
			if err == nil {
				err = errPipeDestroyed
			}
			s.DestroyStream(err)
		})
	}
	all := make([]Stream, 0, 1+len(dsts))
	all = append(all, src)
	for _, d := range dsts {
		all = append(all, d)
	}
	for i, s := range all {
		if i > 0 && i < len(all)-1 {
			if _, ok := s.(Duplex); !ok {
				loop.NextTick(func() { cb(ErrPipelineStream) })
				return dsts[len(dsts)-1]
			}
		}
	}
	var prev Readable = src
	for i, s := range all {
		reading, writing := i < len(all)-1, i > 0
		s.On("error", func(a ...any) { // errors after the pipe is done
			if err, _ := a[0].(error); err != nil && !errors.Is(err, ErrPrematureClose) {
				finish(err)
			}
		})
		destroyer(s, reading, writing)
		if i == 0 {
			continue
		}
		dst := s.(Writable)
		count += 2
		pipeTo(prev, dst, finish)
		if d, ok := s.(Duplex); ok {
			prev = d
		}
	}
	return dsts[len(dsts)-1]
}

// pipeTo is pipeline's pipe(src, dst, finish, { end: true }).
func pipeTo(src Readable, dst Writable, finish func(error)) {
	ended := false
	dst.On("close", func(...any) {
		if !ended {
			finish(ErrPrematureClose)
		}
	})
	Pipe(src, dst, false)
	endFn := func() {
		ended = true
		dst.EndStream()
	}
	if src.ReadableEnded() {
		src.Loop().NextTick(endFn)
	} else {
		src.Once("end", func(...any) { endFn() })
	}
	Finished(src, true, false, finish)
	Finished(dst, false, true, finish)
}
