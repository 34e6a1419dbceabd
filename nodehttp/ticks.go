package nodehttp

import (
	"github.com/uvgo/uvgo/internal/queue"
	"github.com/uvgo/uvgo/uvloop"
)

// ticker queues the package's own nextTick callbacks (a message's resume, "end" and
// "close", a response's "finish" and "close") without a closure each: the task, a kind
// and its object, goes to the ticker's FIFO, and the loop's nextTick queue gets run, a
// func bound once, which pops the first task and runs it. Every task has exactly one
// entry in the loop's queue, queued when the task was, so the tasks run in the order of
// the loop's queue, between the other callbacks there as their own closures would. Loop
// goroutine only.
type ticker struct {
	loop  *uvloop.Loop
	tasks queue.Ring[tickTask]
	run   func() // t.runOne, bound once
}

// tickKind says what a task does.
type tickKind uint8

const (
	tickResume       tickKind = iota // r.resumeNT
	tickEmitReadable                 // r.emitReadable
	tickEndReadable                  // r.endReadableNT
	tickDestroyed                    // the first tick after r.destroy (err: its error)
	tickErrorClose                   // r's "error" (err), then its "close"
	tickClose                        // r.emitClose
	tickFinish                       // res.finish
	tickResClose                     // res.emitClose
)

// tickTask is one queued callback.
type tickTask struct {
	kind tickKind
	r    *readable
	res  *ServerResponse
	err  error
}

func newTicker(l *uvloop.Loop) *ticker {
	t := &ticker{loop: l}
	t.run = t.runOne
	return t
}

// push queues a task behind everything in the loop's nextTick queue.
func (t *ticker) push(task tickTask) {
	t.tasks.Push(task)
	t.loop.NextTick(t.run)
}

func (t *ticker) readable(kind tickKind, r *readable, err error) {
	t.push(tickTask{kind: kind, r: r, err: err})
}

func (t *ticker) response(kind tickKind, res *ServerResponse) {
	t.push(tickTask{kind: kind, res: res})
}

// runOne runs the first task (popped first: if it panics, the FIFO stays in step).
func (t *ticker) runOne() {
	task, ok := t.tasks.Pop()
	if !ok {
		return
	}
	switch r := task.r; task.kind {
	case tickResume:
		r.resumeNT()
	case tickEmitReadable:
		r.emitReadable()
	case tickEndReadable:
		r.endReadableNT()
	case tickDestroyed:
		r.destroyedNT(task.err)
	case tickErrorClose:
		r.msg.Emit("error", task.err)
		r.emitClose()
	case tickClose:
		r.emitClose()
	case tickFinish:
		task.res.finish()
	case tickResClose:
		task.res.emitClose()
	}
}
