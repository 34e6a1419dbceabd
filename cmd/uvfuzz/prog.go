package main

import (
	"fmt"
	"strings"
)

// A program is a tree of blocks. The same tree is printed as a Node script (JS) and run by
// the interpreter on uvloop (interp.go); both print one line per event, and the lines must
// agree. Every callback logs its own tag first, so the output is the order of the events.
//
// Tags: T timeout, V interval run, I immediate, K nextTick, M queueMicrotask, F fs
// callback, X executor, H then/catch handler (H5: fulfilled, H5! rejected), Y finally, A
// async body, W await result, N thenable's then, L plain log; unhandled:/handled: are the
// process's rejection events.

// Block is a callback body: statements, then how it ends.
type Block struct {
	Stmts []*Stmt
	End   *End // nil: falls off the end (undefined)
}

// EndKind is how a body that produces a value ends.
type EndKind int

const (
	EndValue  EndKind = iota + 1 // return 'vID'
	EndThrow                     // throw new Error('eID')
	EndAdopt                     // return <E> (a promise or a thenable), or res(<E>)
	EndPass                      // return v (a fulfilled handler's input)
	EndReject                    // rej(new Error('eID')) (executors only)
)

// End ends a Block.
type End struct {
	Kind EndKind
	ID   int
	E    *PExpr // EndAdopt
}

// Op is a statement's kind.
type Op int

const (
	OpLog Op = iota
	OpTimeout
	OpInterval
	OpImmediate
	OpClearTimeout
	OpClearInterval
	OpClearImmediate
	OpTick
	OpMicrotask
	OpPromise // P[ID] = E
	OpSettle  // R[Ref].res(...) or .rej(...)
	OpAwait   // only at the top level of an async body
	OpFS
)

// FS operations.
const (
	FSStat        = iota // fs.stat(__filename)
	FSStatMissing        // fs.stat of a missing file: ENOENT
	FSReadFile           // fs.readFile(__filename)
)

// Stmt is one statement.
type Stmt struct {
	Op     Op
	ID     int
	Delay  int // OpTimeout, OpInterval: ms
	N      int // OpInterval: runs before it clears itself
	Ref    int // clears: the handle's ID; OpSettle: the executor's ID
	Reject bool
	Try    bool // OpAwait: inside try/catch
	FS     int
	E      *PExpr // OpPromise, OpAwait; OpSettle: adopt E if set
	Body   *Block
}

// PKind is a promise expression's kind.
type PKind int

const (
	PResolve PKind = iota
	PReject
	PValue // a plain value: only awaited or in a combinator's list
	PNew
	PVar
	PThen
	PCatch
	PFinally
	PAll
	PRace
	PAny
	PAllSettled
	PAsync
	PFrom     // Promise.resolve(thenable)
	PThenable // a thenable object: only adopted or awaited
)

// PExpr is an expression for a promise (or, PValue and PThenable, for something a promise
// can be made of).
type PExpr struct {
	Kind  PKind
	ID    int
	Ref   int
	Src   *PExpr
	Items []*PExpr
	OnF   *Block // PThen: nil for undefined
	OnR   *Block // PThen, PCatch
	Adopt bool   // PThen, PCatch: the handlers return thenables (Chain)
	List  bool   // PVar: the variable holds a promise of a list
	Body  *Block // PNew, PFinally, PAsync, PThenable
	How   int    // PThenable: what then() does
}

// What a thenable's then does after its body.
const (
	ThResolve    = iota // res('vID')
	ThReject            // rej(new Error('eID'))
	ThTick              // process.nextTick(() => res('vID'))
	ThMicro             // queueMicrotask(() => rej(new Error('eID')))
	ThTwice             // res('vID'); rej(new Error('eID')) (the second call does nothing)
	ThThrowAfter        // res('vID'); throw (ignored)
	ThThrow             // throw new Error('eID') (rejects)
	thHows
)

// kindList reports whether e's promise holds a list (all, allSettled, and finally of one).
func (e *PExpr) kindList() bool {
	switch e.Kind {
	case PAll, PAllSettled:
		return true
	case PFinally:
		return e.Src.kindList()
	case PVar:
		return e.List
	}
	return false
}

const jsPrelude = `'use strict';
const fs = require('fs');
const T = [], P = [], R = [], C = [];
// stdout is made (and its first write done) before any timer is set: made lazily, by the
// first console.log, it takes up to tens of milliseconds on a loaded machine.
const out = process.stdout;
out.write('');
const log = (s) => out.write(s + '\n');
function msg(e) {
  if (e instanceof AggregateError) return 'agg[' + e.errors.map(msg).join(',') + ']';
  return e instanceof Error ? e.message : 'non-error:' + String(e);
}
function show(v) {
  if (Array.isArray(v)) return '[' + v.map(show).join(',') + ']';
  if (v !== null && typeof v === 'object' && 'status' in v)
    return v.status === 'fulfilled' ? 'f:' + show(v.value) : 'r:' + msg(v.reason);
  return String(v);
}
const reasons = new Map();
process.on('unhandledRejection', (r, p) => { reasons.set(p, msg(r)); log('unhandled:' + msg(r)); });
process.on('rejectionHandled', (p) => { log('handled:' + reasons.get(p)); });
`

// JS returns the program as a Node script. The main block runs in a 0 ms timeout: node's
// own work after the main script (loading modules, a first write to stdout) takes up to tens
// of milliseconds on a loaded machine, which would stretch the main block's time slot.
func (b *Block) JS() string {
	var w jsw
	w.b.WriteString(jsPrelude)
	w.line(0, "setTimeout(() => {")
	w.stmts(b.Stmts, 1)
	w.line(0, "}, 0);")
	return w.b.String()
}

type jsw struct{ b strings.Builder }

func (w *jsw) line(ind int, format string, args ...any) {
	w.b.WriteString(strings.Repeat("  ", ind))
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

func (w *jsw) stmts(ss []*Stmt, ind int) {
	for _, s := range ss {
		w.stmt(s, ind)
	}
}

// fn writes "head {" + body + "}" + tail; the body starts with its log line.
func (w *jsw) fn(ind int, head, logExpr string, b *Block, tail string, endf func(*End, int)) {
	w.line(ind, "%s {", head)
	if logExpr != "" {
		w.line(ind+1, "log(%s);", logExpr)
	}
	if b != nil {
		w.stmts(b.Stmts, ind+1)
		if b.End != nil && endf != nil {
			endf(b.End, ind+1)
		}
	}
	w.line(ind, "}%s", tail)
}

func (w *jsw) stmt(s *Stmt, ind int) {
	switch s.Op {
	case OpLog:
		w.line(ind, "log('L%d');", s.ID)
	case OpTimeout:
		w.fn(ind, fmt.Sprintf("T[%d] = setTimeout(() =>", s.ID), fmt.Sprintf("'T%d'", s.ID), s.Body, fmt.Sprintf(", %d);", s.Delay), nil)
	case OpInterval:
		w.line(ind, "T[%d] = setInterval(() => {", s.ID)
		w.line(ind+1, "C[%d] = (C[%d] || 0) + 1;", s.ID, s.ID)
		w.line(ind+1, "log('V%d.' + C[%d]);", s.ID, s.ID)
		w.stmts(s.Body.Stmts, ind+1)
		w.line(ind+1, "if (C[%d] === %d) clearInterval(T[%d]);", s.ID, s.N, s.ID)
		w.line(ind, "}, %d);", s.Delay)
	case OpImmediate:
		w.fn(ind, fmt.Sprintf("T[%d] = setImmediate(() =>", s.ID), fmt.Sprintf("'I%d'", s.ID), s.Body, ");", nil)
	case OpClearTimeout:
		w.line(ind, "clearTimeout(T[%d]);", s.Ref)
	case OpClearInterval:
		w.line(ind, "clearInterval(T[%d]);", s.Ref)
	case OpClearImmediate:
		w.line(ind, "clearImmediate(T[%d]);", s.Ref)
	case OpTick:
		w.fn(ind, "process.nextTick(() =>", fmt.Sprintf("'K%d'", s.ID), s.Body, ");", nil)
	case OpMicrotask:
		w.fn(ind, "queueMicrotask(() =>", fmt.Sprintf("'M%d'", s.ID), s.Body, ");", nil)
	case OpPromise:
		w.line(ind, "P[%d] = %s;", s.ID, w.expr(s.E, ind))
	case OpSettle:
		switch {
		case s.E != nil:
			w.line(ind, "R[%d].res(%s);", s.Ref, w.expr(s.E, ind))
		case s.Reject:
			w.line(ind, "R[%d].rej(new Error('e%d'));", s.Ref, s.ID)
		default:
			w.line(ind, "R[%d].res('v%d');", s.Ref, s.ID)
		}
	case OpAwait:
		if s.Try {
			w.line(ind, "try {")
			w.line(ind+1, "const v = await %s;", w.expr(s.E, ind+1))
			w.line(ind+1, "log('W%d:' + show(v));", s.ID)
			w.line(ind, "} catch (e) {")
			w.line(ind+1, "log('W%d!' + msg(e));", s.ID)
			w.line(ind, "}")
		} else {
			w.line(ind, "log('W%d:' + show(await %s));", s.ID, w.expr(s.E, ind))
		}
	case OpFS:
		file := "__filename"
		call := "fs.stat"
		switch s.FS {
		case FSStatMissing:
			file = "__filename + '.missing'"
		case FSReadFile:
			call = "fs.readFile"
		}
		w.fn(ind, fmt.Sprintf("%s(%s, (err) =>", call, file), fmt.Sprintf("'F%d:' + (err ? err.code : 'ok')", s.ID), s.Body, ");", nil)
	default:
		panic(fmt.Sprintf("uvfuzz: op %d", s.Op))
	}
}

// expr returns e as a JavaScript expression; multi-line parts are indented from ind.
func (w *jsw) expr(e *PExpr, ind int) string {
	sub := func(f func(w *jsw)) string {
		var w2 jsw
		f(&w2)
		return strings.TrimRight(strings.TrimLeft(w2.b.String(), " "), "\n")
	}
	switch e.Kind {
	case PResolve:
		return fmt.Sprintf("Promise.resolve('v%d')", e.ID)
	case PReject:
		return fmt.Sprintf("Promise.reject(new Error('e%d'))", e.ID)
	case PValue:
		return fmt.Sprintf("'v%d'", e.ID)
	case PVar:
		return fmt.Sprintf("P[%d]", e.Ref)
	case PNew:
		return sub(func(w2 *jsw) {
			w2.line(ind, "new Promise((res, rej) => {")
			w2.line(ind+1, "R[%d] = { res, rej };", e.ID)
			w2.line(ind+1, "log('X%d');", e.ID)
			w2.stmts(e.Body.Stmts, ind+1)
			if end := e.Body.End; end != nil {
				switch end.Kind {
				case EndValue:
					w2.line(ind+1, "res('v%d');", end.ID)
				case EndReject:
					w2.line(ind+1, "rej(new Error('e%d'));", end.ID)
				case EndThrow:
					w2.line(ind+1, "throw new Error('e%d');", end.ID)
				case EndAdopt:
					w2.line(ind+1, "res(%s);", w2.expr(end.E, ind+1))
				}
			}
			w2.b.WriteString(strings.Repeat("  ", ind) + "})")
		})
	case PThen, PCatch:
		return sub(func(w2 *jsw) {
			src := w2.expr(e.Src, ind)
			var parts []string
			if e.Kind == PThen {
				if e.OnF == nil {
					parts = append(parts, "undefined")
				} else {
					parts = append(parts, sub(func(w3 *jsw) {
						w3.fn(ind, "(v) =>", fmt.Sprintf("'H%d:' + show(v)", e.ID), e.OnF, "", func(end *End, i int) { w3.handlerEnd(end, i) })
					}))
				}
			}
			if e.OnR != nil {
				parts = append(parts, sub(func(w3 *jsw) {
					w3.fn(ind, "(e) =>", fmt.Sprintf("'H%d!' + msg(e)", e.ID), e.OnR, "", func(end *End, i int) { w3.handlerEnd(end, i) })
				}))
			}
			method := "then"
			if e.Kind == PCatch {
				method = "catch"
			}
			w2.b.WriteString(src + "." + method + "(" + strings.Join(parts, ", ") + ")")
		})
	case PFinally:
		return sub(func(w2 *jsw) {
			src := w2.expr(e.Src, ind)
			body := sub(func(w3 *jsw) {
				w3.fn(ind, "() =>", fmt.Sprintf("'Y%d'", e.ID), e.Body, "", func(end *End, i int) { w3.handlerEnd(end, i) })
			})
			w2.b.WriteString(src + ".finally(" + body + ")")
		})
	case PAll, PRace, PAny, PAllSettled:
		name := map[PKind]string{PAll: "all", PRace: "race", PAny: "any", PAllSettled: "allSettled"}[e.Kind]
		var items []string
		for _, it := range e.Items {
			items = append(items, w.expr(it, ind))
		}
		return "Promise." + name + "([" + strings.Join(items, ", ") + "])"
	case PAsync:
		return sub(func(w2 *jsw) {
			w2.fn(ind, "(async () =>", fmt.Sprintf("'A%d'", e.ID), e.Body, ")()", func(end *End, i int) { w2.handlerEnd(end, i) })
		})
	case PFrom:
		return "Promise.resolve(" + w.expr(e.Src, ind) + ")"
	case PThenable:
		return sub(func(w2 *jsw) {
			w2.line(ind, "{ then(res, rej) {")
			w2.line(ind+1, "log('N%d');", e.ID)
			w2.stmts(e.Body.Stmts, ind+1)
			switch e.How {
			case ThResolve:
				w2.line(ind+1, "res('v%d');", e.ID)
			case ThReject:
				w2.line(ind+1, "rej(new Error('e%d'));", e.ID)
			case ThTick:
				w2.line(ind+1, "process.nextTick(() => res('v%d'));", e.ID)
			case ThMicro:
				w2.line(ind+1, "queueMicrotask(() => rej(new Error('e%d')));", e.ID)
			case ThTwice:
				w2.line(ind+1, "res('v%d');", e.ID)
				w2.line(ind+1, "rej(new Error('e%d'));", e.ID)
			case ThThrowAfter:
				w2.line(ind+1, "res('v%d');", e.ID)
				w2.line(ind+1, "throw new Error('x%d');", e.ID)
			case ThThrow:
				w2.line(ind+1, "throw new Error('e%d');", e.ID)
			}
			w2.b.WriteString(strings.Repeat("  ", ind) + "} }")
		})
	}
	panic(fmt.Sprintf("uvfuzz: expression kind %d", e.Kind))
}

func (w *jsw) handlerEnd(end *End, ind int) {
	switch end.Kind {
	case EndValue:
		w.line(ind, "return 'v%d';", end.ID)
	case EndThrow:
		w.line(ind, "throw new Error('e%d');", end.ID)
	case EndAdopt:
		w.line(ind, "return %s;", w.expr(end.E, ind))
	case EndPass:
		w.line(ind, "return v;")
	}
}
