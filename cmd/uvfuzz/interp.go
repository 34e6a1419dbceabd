package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The interpreter runs a program on a uvloop.Loop with package promise, as Node runs its
// script: the main block, then the loop until nothing keeps it alive. JavaScript values are
// any: strings, []any (Promise.all), []promise.Settlement[any] (allSettled) and nil
// (undefined); reasons are errors.

type interp struct {
	l     *uvloop.Loop
	fs    *nodefs.FS
	file  string
	lines []string
	cur   string // the actor that logged last
	dir   string // the fs calls' temporary directory D
	net   *tcpState
	T     map[int]*uvloop.Timeout
	I     map[int]*uvloop.Immediate
	P     map[int]pv
	R     map[int]*resolvers
	C     map[int]int
}

type resolvers struct {
	resolve func(any)
	reject  func(error)
	adopt   func(promise.Thenable[any]) // nil for a promise made with New
}

// Interpret runs prog on a new loop; file is what the script calls __filename. It returns
// the lines printed; a panic or a loop error is printed as a last line that Node never
// prints, so it shows as a divergence.
func Interpret(prog *Block, file string) (lines []string) {
	l, err := uvloop.New()
	if err != nil {
		return []string{"uvfuzz: " + err.Error()}
	}
	dir, err := os.MkdirTemp("", "uvfuzz-")
	if err != nil {
		return []string{"uvfuzz: " + err.Error()}
	}
	defer os.RemoveAll(dir)
	it := &interp{l: l, fs: nodefs.New(l), file: file, dir: dir,
		T: map[int]*uvloop.Timeout{}, I: map[int]*uvloop.Immediate{}, P: map[int]pv{},
		R: map[int]*resolvers{}, C: map[int]int{}}
	promise.SetRejectionHook(l, func(ev promise.RejectionEvent) {
		if ev.Kind == promise.Unhandled {
			it.log(it.cur, "unhandled:"+msg(ev.Reason))
		} else {
			it.log(it.cur, "handled:"+msg(ev.Reason))
		}
	})
	l.SetTimeout(func() { it.stmts(prog.Stmts) }, 0)
	// A program that never ends (a socket whose 'close' never comes) is stopped as node
	// would be by runNode's timeout.
	watchdog := time.AfterFunc(runTimeout, func() {
		l.Post(func() {
			it.log("", "uvfuzz: timed out")
			l.Stop()
		})
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		it.log("", "uvfuzz: run: "+err.Error())
	}
	watchdog.Stop()
	l.Walk(func(h uvloop.Handle) {
		if !h.IsClosing() {
			h.Close(nil)
		}
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		it.log("", "uvfuzz: run: "+err.Error())
	}
	if err := l.Close(); err != nil {
		it.log("", "uvfuzz: close: "+err.Error())
	}
	return it.lines
}

// log logs line s of actor a.
func (it *interp) log(a, s string) {
	it.cur = a
	if a != "" {
		s = a + "|" + s
	}
	it.lines = append(it.lines, s)
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func label(p string, id int) string { return fmt.Sprintf("%s%d", p, id) }

func jsErr(p string, id int) error { return errors.New(label(p, id)) }

// stmts runs ss; an error is an exception thrown by an await (async bodies only).
func (it *interp) stmts(ss []*Stmt) error {
	for _, s := range ss {
		if err := it.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

// callback runs a callback's body, whose first line is its tag.
func (it *interp) callback(a, tag string, b *Block) func() {
	return func() {
		it.log(a, tag)
		if b != nil {
			it.stmts(b.Stmts)
		}
	}
}

func (it *interp) stmt(s *Stmt) error {
	switch s.Op {
	case OpLog:
		it.log(s.A, label("L", s.ID))
	case OpTimeout:
		it.T[s.ID] = it.l.SetTimeout(it.callback(s.spawnActor(), label("T", s.ID), s.Body), ms(s.Delay))
	case OpInterval:
		it.T[s.ID] = it.l.SetInterval(func() {
			it.C[s.ID]++
			it.log(s.A, fmt.Sprintf("V%d.%d", s.ID, it.C[s.ID]))
			it.stmts(s.Body.Stmts)
			if it.C[s.ID] == s.N {
				it.l.ClearInterval(it.T[s.ID])
			}
		}, ms(s.Delay))
	case OpImmediate:
		it.I[s.ID] = it.l.SetImmediate(it.callback(s.A, label("I", s.ID), s.Body))
	case OpClearTimeout:
		it.l.ClearTimeout(it.T[s.Ref])
	case OpClearInterval:
		it.l.ClearInterval(it.T[s.Ref])
	case OpClearImmediate:
		it.l.ClearImmediate(it.I[s.Ref])
	case OpTick:
		it.l.NextTick(it.callback(s.A, label("K", s.ID), s.Body))
	case OpMicrotask:
		it.l.QueueMicrotask(it.callback(s.A, label("M", s.ID), s.Body))
	case OpPromise:
		it.P[s.ID] = it.expr(s.E)
	case OpSettle:
		r := it.R[s.Ref]
		switch {
		case s.E != nil:
			r.adopt(it.thenable(s.E))
		case s.Reject:
			r.reject(jsErr("e", s.ID))
		default:
			r.resolve(label("v", s.ID))
		}
	case OpAwait:
		v, err := it.await(s.E)
		switch {
		case err == nil:
			it.log(s.A, label("W", s.ID)+":"+show(v))
		case s.Try:
			it.log(s.A, label("W", s.ID)+"!"+msg(err))
		default:
			return err
		}
	case OpFS:
		it.fsCall(s)
	case OpTCP:
		it.tcp(s)
	case OpWrite:
		it.write(s)
	default:
		panic(fmt.Sprintf("uvfuzz: op %d", s.Op))
	}
	return nil
}

// pv is a promise of some type, for code that handles them all alike.
type pv interface {
	anyP() *promise.Promise[any] // nil unless a promise of any
	core() promise.AnyPromise
	then(onF func(any) (any, error), onR func(error) (any, error)) *promise.Promise[any]
	chain(onF func(any) promise.Thenable[any], onR func(error) promise.Thenable[any]) *promise.Promise[any]
	finally(f func() promise.AnyPromise) pv
	await() (any, error)
}

type pw[T any] struct{ p *promise.Promise[T] }

func (w pw[T]) anyP() *promise.Promise[any] {
	p, _ := any(w.p).(*promise.Promise[any])
	return p
}

func (w pw[T]) core() promise.AnyPromise { return w.p }

func (w pw[T]) then(onF func(any) (any, error), onR func(error) (any, error)) *promise.Promise[any] {
	var f func(T) (any, error)
	switch {
	case onF != nil:
		f = func(v T) (any, error) { return onF(v) }
	case w.anyP() == nil:
		// The pass-through of a non-any value (JavaScript's undefined handler): the same
		// job, so the same turns.
		f = func(v T) (any, error) { return v, nil }
	}
	return promise.Then(w.p, f, onR)
}

func (w pw[T]) chain(onF func(any) promise.Thenable[any], onR func(error) promise.Thenable[any]) *promise.Promise[any] {
	var f func(T) promise.Thenable[any]
	if onF != nil {
		f = func(v T) promise.Thenable[any] { return onF(v) }
	}
	return promise.Chain(w.p, f, onR)
}

func (w pw[T]) finally(f func() promise.AnyPromise) pv { return pw[T]{w.p.Finally(f)} }

func (w pw[T]) await() (any, error) {
	v, err := promise.Await(w.p)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (it *interp) expr(e *PExpr) pv {
	l := it.l
	switch e.Kind {
	case PResolve:
		return pw[any]{promise.Resolve[any](l, label("v", e.ID))}
	case PReject:
		return pw[any]{promise.Reject[any](l, jsErr("e", e.ID))}
	case PValue:
		return pw[any]{promise.Resolve[any](l, label("v", e.ID))}
	case PVar:
		p := it.P[e.Ref]
		if p == nil {
			panic(fmt.Sprintf("P[%d] is not set", e.Ref))
		}
		return p
	case PNew:
		return it.newPromise(e)
	case PThen, PCatch:
		src := it.expr(e.Src)
		if e.Adopt {
			var onF func(any) promise.Thenable[any]
			var onR func(error) promise.Thenable[any]
			if e.OnF != nil {
				onF = func(v any) promise.Thenable[any] {
					it.log(e.A, label("H", e.ID)+":"+show(v))
					return it.adoptEnd(e.OnF)
				}
			}
			if e.OnR != nil {
				onR = func(err error) promise.Thenable[any] {
					it.log(e.A, label("H", e.ID)+"!"+msg(err))
					return it.adoptEnd(e.OnR)
				}
			}
			return pw[any]{src.chain(onF, onR)}
		}
		var onF func(any) (any, error)
		var onR func(error) (any, error)
		if e.OnF != nil {
			onF = func(v any) (any, error) {
				it.log(e.A, label("H", e.ID)+":"+show(v))
				return it.valueEnd(e.OnF, v)
			}
		}
		if e.OnR != nil {
			onR = func(err error) (any, error) {
				it.log(e.A, label("H", e.ID)+"!"+msg(err))
				return it.valueEnd(e.OnR, nil)
			}
		}
		return pw[any]{src.then(onF, onR)}
	case PFinally:
		src := it.expr(e.Src)
		return src.finally(func() promise.AnyPromise {
			it.log(e.A, label("Y", e.ID))
			it.stmts(e.Body.Stmts)
			switch end := e.Body.End; {
			case end == nil:
				return nil
			case end.Kind == EndThrow:
				panic(jsErr("e", end.ID))
			default:
				if end.E.Kind == PThenable {
					return promise.From(l, it.thenable(end.E))
				}
				return it.expr(end.E).core()
			}
		})
	case PAll, PRace, PAny, PAllSettled:
		ps := make([]*promise.Promise[any], 0, len(e.Items))
		for _, item := range e.Items {
			if item.Kind == PFrom {
				ps = append(ps, promise.From(l, it.thenable(item.Src)))
				continue
			}
			p := it.expr(item).anyP()
			if p == nil {
				panic("uvfuzz: a combinator's item is not a promise of any")
			}
			ps = append(ps, p)
		}
		switch e.Kind {
		case PAll:
			return pw[[]any]{promise.All(l, ps...)}
		case PAllSettled:
			return pw[[]promise.Settlement[any]]{promise.AllSettled(l, ps...)}
		case PRace:
			return pw[any]{promise.Race(l, ps...)}
		default:
			return pw[any]{promise.Any(l, ps...)}
		}
	case PAsync:
		tag := label("A", e.ID)
		if end := e.Body.End; end != nil && end.Kind == EndAdopt {
			return pw[any]{promise.AsyncPromise(l, func() (promise.Thenable[any], error) {
				it.log(e.A, tag)
				if err := it.stmts(e.Body.Stmts); err != nil {
					return nil, err
				}
				return it.thenable(end.E), nil
			})}
		}
		return pw[any]{promise.Async(l, func() (any, error) {
			it.log(e.A, tag)
			if err := it.stmts(e.Body.Stmts); err != nil {
				return nil, err
			}
			return it.valueEnd(&Block{End: e.Body.End}, nil)
		})}
	case PFrom:
		return pw[any]{promise.From(l, it.thenable(e.Src))}
	}
	panic(fmt.Sprintf("uvfuzz: expression kind %d", e.Kind))
}

// valueEnd runs how a value handler ends: its statements ran already unless b has some.
func (it *interp) valueEnd(b *Block, v any) (any, error) {
	it.stmts(b.Stmts)
	switch end := b.End; {
	case end == nil:
		return nil, nil
	case end.Kind == EndValue:
		return label("v", end.ID), nil
	case end.Kind == EndThrow:
		return nil, jsErr("e", end.ID)
	case end.Kind == EndPass:
		return v, nil
	}
	panic("uvfuzz: a value handler adopts")
}

// adoptEnd runs a Chain handler's body and returns what it returns (or throws).
func (it *interp) adoptEnd(b *Block) promise.Thenable[any] {
	it.stmts(b.Stmts)
	switch end := b.End; {
	case end != nil && end.Kind == EndAdopt:
		return it.thenable(end.E)
	case end != nil && end.Kind == EndThrow:
		panic(jsErr("e", end.ID))
	}
	panic("uvfuzz: an adopting handler returns no thenable")
}

func (it *interp) newPromise(e *PExpr) pv {
	l := it.l
	run := func(r *resolvers) {
		it.R[e.ID] = r
		it.log(e.A, label("X", e.ID))
		it.stmts(e.Body.Stmts)
		if end := e.Body.End; end != nil {
			switch end.Kind {
			case EndValue:
				r.resolve(label("v", end.ID))
			case EndReject:
				r.reject(jsErr("e", end.ID))
			case EndThrow:
				panic(jsErr("e", end.ID))
			case EndAdopt:
				r.adopt(it.thenable(end.E))
			}
		}
	}
	if !adopts(e) {
		return pw[any]{promise.New(l, func(resolve func(any), reject func(error)) {
			run(&resolvers{resolve: resolve, reject: reject})
		})}
	}
	p, r := promise.WithResolvers[any](l)
	func() {
		defer func() {
			if v := recover(); v != nil {
				r.Reject(promise.Reason(v))
			}
		}()
		run(&resolvers{resolve: r.Resolve, reject: r.Reject, adopt: r.Adopt})
	}()
	return pw[any]{p}
}

// adopts reports whether executor e resolves with a thenable anywhere.
func adopts(e *PExpr) bool {
	if e.Body.End != nil && e.Body.End.Kind == EndAdopt {
		return true
	}
	found := false
	walk(e.Body, func(s *Stmt) {
		if s.Op == OpSettle && s.Ref == e.ID && s.E != nil {
			found = true
		}
	})
	return found
}

// thenable returns what a handler, an await or a resolve function gets for e.
func (it *interp) thenable(e *PExpr) promise.Thenable[any] {
	if e.Kind == PThenable {
		return &goThenable{it: it, e: e}
	}
	p := it.expr(e).anyP()
	if p == nil {
		panic("uvfuzz: adopting a promise of a list")
	}
	return p
}

func (it *interp) await(e *PExpr) (any, error) {
	switch e.Kind {
	case PValue:
		return promise.Await(promise.Resolve[any](it.l, label("v", e.ID)))
	case PThenable:
		return promise.Await(promise.From(it.l, it.thenable(e)))
	}
	return it.expr(e).await()
}

type goThenable struct {
	it *interp
	e  *PExpr
}

func (t *goThenable) Then(r *promise.Resolvers[any]) {
	it, e := t.it, t.e
	it.log(e.A, label("N", e.ID))
	it.stmts(e.Body.Stmts)
	v, err := label("v", e.ID), jsErr("e", e.ID)
	switch e.How {
	case ThResolve:
		r.Resolve(v)
	case ThReject:
		r.Reject(err)
	case ThTick:
		it.l.NextTick(func() { r.Resolve(v) })
	case ThMicro:
		it.l.QueueMicrotask(func() { r.Reject(err) })
	case ThTwice:
		r.Resolve(v)
		r.Reject(err)
	case ThThrowAfter:
		r.Resolve(v)
		panic(jsErr("x", e.ID))
	case ThThrow:
		panic(err)
	}
}

// show is the script's show(v).
func show(v any) string {
	switch v := v.(type) {
	case nil:
		return "undefined"
	case string:
		return v
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = show(x)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case []promise.Settlement[any]:
		parts := make([]string, len(v))
		for i, s := range v {
			if s.State == promise.Fulfilled {
				parts[i] = "f:" + show(s.Value)
			} else {
				parts[i] = "r:" + msg(s.Err)
			}
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return fmt.Sprintf("uvfuzz-value:%v", v)
}

// msg is the script's msg(e).
func msg(err error) string {
	var agg *promise.AggregateError
	if errors.As(err, &agg) {
		parts := make([]string, len(agg.Errors))
		for i, e := range agg.Errors {
			parts[i] = msg(e)
		}
		return "agg[" + strings.Join(parts, ",") + "]"
	}
	return err.Error()
}

// walk calls fn for every statement of b, nested ones included.
func walk(b *Block, fn func(*Stmt)) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		fn(s)
		walk(s.Body, fn)
		walkExpr(s.E, fn)
		if s.TCP != nil {
			bs, _ := s.TCP.blocks(s.ID)
			for _, tb := range bs {
				walk(tb, fn)
			}
		}
	}
	if b.End != nil {
		walkExpr(b.End.E, fn)
	}
}

func walkExpr(e *PExpr, fn func(*Stmt)) {
	if e == nil {
		return
	}
	walkExpr(e.Src, fn)
	for _, it := range e.Items {
		walkExpr(it, fn)
	}
	walk(e.OnF, fn)
	walk(e.OnR, fn)
	walk(e.Body, fn)
}
