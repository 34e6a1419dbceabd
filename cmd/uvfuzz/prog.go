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
// async body, W await result, N thenable's then, L plain log, w a socket's write callback;
// unhandled:/handled: are the process's rejection events.
//
// Actors: what a TCP session's callbacks log (see TCPSession) is prefixed with the actor
// it belongs to, "s5|" for server 5, "c5.2|" and "a5.2|" for the client and the server's
// socket of its second connection, "t9|" and "f9|" for a timer or an fs call made by one
// of them; the main program's lines have no prefix. Node fixes the order of the lines of
// one actor, not how two actors interleave (two sockets' events race), so outputs are
// compared actor by actor (see normalize). A rejection event belongs to the actor that
// logged last: Node reports rejections at the end of the callback's tick drain.

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
	OpTCP   // a TCP session (Stmt.TCP)
	OpWrite // sock.write(N bytes, cb if Body): only at the top level of a Pre or Connect block
)

// FS operations. The first three read the script's file; the others work on the files
// f0..f2 and directories d0, d1 of a temporary directory D (Stmt.Ref names the file, and
// Stmt.N the rename's target), whose state the program's fs calls change one at a time (the
// generator never has two fs calls of the main program in flight).
const (
	FSStat        = iota // fs.stat(__filename)
	FSStatMissing        // fs.stat of a missing file: ENOENT
	FSReadFile           // fs.readFile(__filename)
	FSWrite              // fs.writeFile(D/fRef, 'wID')
	FSAppend             // fs.appendFile(D/fRef, 'aID')
	FSReadTmp            // fs.readFile(D/fRef, 'utf8'): logs the content
	FSStatTmp            // fs.stat(D/fRef): logs the size
	FSUnlink             // fs.unlink(D/fRef)
	FSRename             // fs.rename(D/fRef, D/fN)
	FSMkdir              // fs.mkdir(D/dRef)
	FSReaddir            // fs.readdir(D): logs the sorted names
	fsOps
	FSTmp = FSWrite // the first op on D; the ones before it only read the script's file
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
	TCP    *TCPSession
	A      string `json:",omitempty"` // the actor (see annotate)
}

// TCPSession is a server on 127.0.0.1:0 and its clients, one at a time: the first connects
// from the 'listening' callback, each next one from the previous client's 'close', and the
// server closes from the last client's 'close' (or, CloseEarly, from its last 'connection'
// listener). A client writes what its Pre block (run right after net.connect, while it
// connects) and its Connect block write (OpWrite), and ends once it has read all of it back; the server echoes and ends when the client's end arrives
// (allowHalfOpen is false). Each callback runs a block of its own; 'data' runs it for the
// first chunk only (chunking is the kernel's choice), and 'end' logs the bytes read.
//
// Why Node fixes the order within each actor: an event that one callback causes reaches the
// other side no sooner than the next poll phase, after the check phase of the callback's
// own iteration, and every actor's next event is caused by its own earlier ones (a client
// reads the echo of what it wrote; a server socket reads only once its 'connection'
// listener has run). So what a TCP callback queues — ticks, microtasks, promise work and
// immediates, one level deep — runs before the actor's next event. Timers and fs calls it
// makes start actors of their own.
type TCPSession struct {
	Listening  *Block // no timers: it runs in the main program's tick drain
	Conns      []*TCPConn
	CloseEarly bool
	Close      *Block // server.close's callback
}

// TCPConn is one connection's callbacks: the client's, then the server socket's. Pre runs
// in the drain of the callback that connects (the previous client's 'close', or the
// server's 'listening'): it queues no immediate and makes no timer.
type TCPConn struct {
	Pre, Connect, CData, CEnd, CClose *Block
	Accept, AData, AEnd, AClose       *Block
}

// writes reports whether b is one whose top level may write on the client.
func (c *TCPConn) writes(b *Block) bool { return b == c.Pre || b == c.Connect }

// clientBlocks is the number of a TCPConn's blocks that are the client's (see blocks).
const clientBlocks = 5

// blocks returns the session's blocks with their actors' names.
func (t *TCPSession) blocks(id int) (bs []*Block, actors []string) {
	add := func(a string, b *Block) { bs, actors = append(bs, b), append(actors, a) }
	s := fmt.Sprintf("s%d", id)
	add(s, t.Listening)
	for k, c := range t.Conns {
		cl, sv := fmt.Sprintf("c%d.%d", id, k+1), fmt.Sprintf("a%d.%d", id, k+1)
		add(cl, c.Pre)
		add(cl, c.Connect)
		add(cl, c.CData)
		add(cl, c.CEnd)
		add(cl, c.CClose)
		add(sv, c.Accept)
		add(sv, c.AData)
		add(sv, c.AEnd)
		add(sv, c.AClose)
	}
	add(s, t.Close)
	return bs, actors
}

// spawnActor returns the actor of s's callback: s's own, or a new one for a timer or an fs
// call made in a TCP actor.
func (s *Stmt) spawnActor() string {
	if s.A == "" {
		return ""
	}
	switch s.Op {
	case OpTimeout:
		return fmt.Sprintf("t%d", s.ID)
	case OpFS:
		return fmt.Sprintf("f%d", s.ID)
	}
	return s.A
}

// annotate sets every statement's and expression's actor.
func annotate(b *Block, actor string) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		s.A = actor
		annotate(s.Body, s.spawnActor())
		annotateExpr(s.E, actor)
		if s.TCP != nil {
			bs, actors := s.TCP.blocks(s.ID)
			for i, tb := range bs {
				annotate(tb, actors[i])
			}
		}
	}
	if b.End != nil {
		annotateExpr(b.End.E, actor)
	}
}

func annotateExpr(e *PExpr, actor string) {
	if e == nil {
		return
	}
	e.A = actor
	annotateExpr(e.Src, actor)
	for _, it := range e.Items {
		annotateExpr(it, actor)
	}
	annotate(e.OnF, actor)
	annotate(e.OnR, actor)
	annotate(e.Body, actor)
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
	A     string `json:",omitempty"` // the actor (see annotate)
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
const net = require('net');
const T = [], P = [], R = [], C = [];
// stdout is made (and its first write done) before any timer is set: made lazily, by the
// first console.log, it takes up to tens of milliseconds on a loaded machine.
const out = process.stdout;
out.write('');
let cur = ''; // the actor that logged last
const log = (s) => {
  const i = s.indexOf('|');
  cur = i < 0 ? '' : s.slice(0, i + 1);
  out.write(s + '\n');
};
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
process.on('unhandledRejection', (r, p) => { reasons.set(p, msg(r)); log(cur + 'unhandled:' + msg(r)); });
process.on('rejectionHandled', (p) => { log(cur + 'handled:' + reasons.get(p)); });
`

// jsTmpDir makes the temporary directory D of the fs calls on it.
const jsTmpDir = `const D = fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'uvfuzz-'));
process.on('exit', () => fs.rmSync(D, { recursive: true, force: true }));
`

// lit returns the JavaScript string literal of line s of actor a.
func lit(a, s string) string {
	if a != "" {
		s = a + "|" + s
	}
	return "'" + s + "'"
}

// JS returns the program as a Node script. The main block runs in a 0 ms timeout: node's
// own work after the main script (loading modules, a first write to stdout) takes up to tens
// of milliseconds on a loaded machine, which would stretch the main block's time slot.
func (b *Block) JS() string {
	var w jsw
	w.b.WriteString(jsPrelude)
	tmp := false
	walk(b, func(s *Stmt) { tmp = tmp || s.Op == OpFS && s.FS >= FSTmp })
	if tmp {
		w.b.WriteString(jsTmpDir)
	}
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
		w.line(ind, "log(%s);", lit(s.A, fmt.Sprintf("L%d", s.ID)))
	case OpTimeout:
		w.fn(ind, fmt.Sprintf("T[%d] = setTimeout(() =>", s.ID), lit(s.spawnActor(), fmt.Sprintf("T%d", s.ID)), s.Body, fmt.Sprintf(", %d);", s.Delay), nil)
	case OpInterval:
		w.line(ind, "T[%d] = setInterval(() => {", s.ID)
		w.line(ind+1, "C[%d] = (C[%d] || 0) + 1;", s.ID, s.ID)
		w.line(ind+1, "log(%s + C[%d]);", lit(s.A, fmt.Sprintf("V%d.", s.ID)), s.ID)
		w.stmts(s.Body.Stmts, ind+1)
		w.line(ind+1, "if (C[%d] === %d) clearInterval(T[%d]);", s.ID, s.N, s.ID)
		w.line(ind, "}, %d);", s.Delay)
	case OpImmediate:
		w.fn(ind, fmt.Sprintf("T[%d] = setImmediate(() =>", s.ID), lit(s.A, fmt.Sprintf("I%d", s.ID)), s.Body, ");", nil)
	case OpClearTimeout:
		w.line(ind, "clearTimeout(T[%d]);", s.Ref)
	case OpClearInterval:
		w.line(ind, "clearInterval(T[%d]);", s.Ref)
	case OpClearImmediate:
		w.line(ind, "clearImmediate(T[%d]);", s.Ref)
	case OpTick:
		w.fn(ind, "process.nextTick(() =>", lit(s.A, fmt.Sprintf("K%d", s.ID)), s.Body, ");", nil)
	case OpMicrotask:
		w.fn(ind, "queueMicrotask(() =>", lit(s.A, fmt.Sprintf("M%d", s.ID)), s.Body, ");", nil)
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
			w.line(ind+1, "log(%s + show(v));", lit(s.A, fmt.Sprintf("W%d:", s.ID)))
			w.line(ind, "} catch (e) {")
			w.line(ind+1, "log(%s + msg(e));", lit(s.A, fmt.Sprintf("W%d!", s.ID)))
			w.line(ind, "}")
		} else {
			w.line(ind, "log(%s + show(await %s));", lit(s.A, fmt.Sprintf("W%d:", s.ID)), w.expr(s.E, ind))
		}
	case OpFS:
		w.fs(s, ind)
	case OpTCP:
		w.tcp(s, ind)
	case OpWrite:
		w.line(ind, "sent += %d;", s.N)
		if s.Body == nil {
			w.line(ind, "sock.write(Buffer.alloc(%d, 120));", s.N)
			break
		}
		w.fn(ind, fmt.Sprintf("sock.write(Buffer.alloc(%d, 120), (err) =>", s.N), lit(s.A, fmt.Sprintf("w%d:", s.ID))+" + (err ? err.code : 'ok')", s.Body, ");", nil)
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
			w2.line(ind+1, "log(%s);", lit(e.A, fmt.Sprintf("X%d", e.ID)))
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
						w3.fn(ind, "(v) =>", lit(e.A, fmt.Sprintf("H%d:", e.ID))+" + show(v)", e.OnF, "", func(end *End, i int) { w3.handlerEnd(end, i) })
					}))
				}
			}
			if e.OnR != nil {
				parts = append(parts, sub(func(w3 *jsw) {
					w3.fn(ind, "(e) =>", lit(e.A, fmt.Sprintf("H%d!", e.ID))+" + msg(e)", e.OnR, "", func(end *End, i int) { w3.handlerEnd(end, i) })
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
				w3.fn(ind, "() =>", lit(e.A, fmt.Sprintf("Y%d", e.ID)), e.Body, "", func(end *End, i int) { w3.handlerEnd(end, i) })
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
			w2.fn(ind, "(async () =>", lit(e.A, fmt.Sprintf("A%d", e.ID)), e.Body, ")()", func(end *End, i int) { w2.handlerEnd(end, i) })
		})
	case PFrom:
		return "Promise.resolve(" + w.expr(e.Src, ind) + ")"
	case PThenable:
		return sub(func(w2 *jsw) {
			w2.line(ind, "{ then(res, rej) {")
			w2.line(ind+1, "log(%s);", lit(e.A, fmt.Sprintf("N%d", e.ID)))
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

// fs writes an fs call; its callback logs the result (and what it read).
func (w *jsw) fs(s *Stmt, ind int) {
	f := fmt.Sprintf("D + '/f%d'", s.Ref)
	var call, result string
	switch s.FS {
	case FSStat:
		call = "fs.stat(__filename, (err) =>"
	case FSStatMissing:
		call = "fs.stat(__filename + '.missing', (err) =>"
	case FSReadFile:
		call = "fs.readFile(__filename, (err) =>"
	case FSWrite:
		call = fmt.Sprintf("fs.writeFile(%s, 'w%d', (err) =>", f, s.ID)
	case FSAppend:
		call = fmt.Sprintf("fs.appendFile(%s, 'a%d', (err) =>", f, s.ID)
	case FSReadTmp:
		call, result = fmt.Sprintf("fs.readFile(%s, 'utf8', (err, d) =>", f), "d"
	case FSStatTmp:
		call, result = fmt.Sprintf("fs.stat(%s, (err, st) =>", f), "st.size"
	case FSUnlink:
		call = fmt.Sprintf("fs.unlink(%s, (err) =>", f)
	case FSRename:
		call = fmt.Sprintf("fs.rename(%s, D + '/f%d', (err) =>", f, s.N)
	case FSMkdir:
		call = fmt.Sprintf("fs.mkdir(D + '/d%d', (err) =>", s.Ref)
	case FSReaddir:
		call, result = "fs.readdir(D, (err, names) =>", "names.sort().join(',')"
	}
	res := "'ok'"
	if result != "" {
		res = "'ok:' + " + result
	}
	w.fn(ind, call, lit(s.spawnActor(), fmt.Sprintf("F%d:", s.ID))+" + (err ? err.code : "+res+")", s.Body, ");", nil)
}

// tcp writes a TCP session (see TCPSession) as a block of its own.
func (w *jsw) tcp(s *Stmt, ind int) {
	t, id := s.TCP, s.ID
	_, actors := t.blocks(id)
	sa := actors[0]
	body := func(b *Block, i int) {
		if b != nil {
			w.stmts(b.Stmts, i)
		}
	}
	w.line(ind, "{")
	i := ind + 1
	w.line(i, "const srv = net.createServer();")
	var as []string
	for k := range t.Conns {
		as = append(as, fmt.Sprintf("a%d_%d", id, k+1))
	}
	w.line(i, "let n = 0;")
	w.line(i, "srv.on('connection', (sock) => [%s][n++](sock));", strings.Join(as, ", "))
	srvClose := func(i int) {
		w.line(i, "srv.close(() => {")
		w.line(i+1, "log(%s);", lit(sa, "close"))
		body(t.Close, i+1)
		w.line(i, "});")
	}
	w.line(i, "srv.listen(0, '127.0.0.1', () => {")
	w.line(i+1, "log(%s);", lit(sa, "listening"))
	body(t.Listening, i+1)
	if len(t.Conns) > 0 {
		w.line(i+1, "c%d_1();", id)
	} else {
		srvClose(i + 1)
	}
	w.line(i, "});")
	for k, c := range t.Conns {
		last := k == len(t.Conns)-1
		ca, aa := actors[1+9*k], actors[1+9*k+clientBlocks]
		// The server's socket.
		w.line(i, "function a%d_%d(sock) {", id, k+1)
		j := i + 1
		w.line(j, "let got = 0, first = true;")
		w.line(j, "sock.on('data', (d) => {")
		w.line(j+1, "sock.write(d);")
		w.line(j+1, "got += d.length;")
		w.line(j+1, "if (!first) return;")
		w.line(j+1, "first = false;")
		w.line(j+1, "log(%s);", lit(aa, "data"))
		body(c.AData, j+1)
		w.line(j, "});")
		w.line(j, "sock.on('end', () => {")
		w.line(j+1, "log(%s + got);", lit(aa, "end:"))
		body(c.AEnd, j+1)
		w.line(j, "});")
		w.line(j, "sock.on('close', () => {")
		w.line(j+1, "log(%s);", lit(aa, "close"))
		body(c.AClose, j+1)
		w.line(j, "});")
		w.line(j, "log(%s);", lit(aa, "connection"))
		body(c.Accept, j)
		if last && t.CloseEarly {
			srvClose(j)
		}
		w.line(i, "}")
		// The client.
		w.line(i, "function c%d_%d() {", id, k+1)
		w.line(j, "let got = 0, sent = 0, first = true, ended = false;")
		w.line(j, "const sock = net.connect(srv.address().port, '127.0.0.1', () => {")
		w.line(j+1, "log(%s);", lit(ca, "connect"))
		body(c.Connect, j+1)
		w.line(j+1, "if (sent === 0) {")
		w.line(j+2, "ended = true;")
		w.line(j+2, "sock.end();")
		w.line(j+1, "}")
		w.line(j, "});")
		w.line(j, "sock.on('data', (d) => {")
		w.line(j+1, "got += d.length;")
		w.line(j+1, "if (first) {")
		w.line(j+2, "first = false;")
		w.line(j+2, "log(%s);", lit(ca, "data"))
		body(c.CData, j+2)
		w.line(j+1, "}")
		w.line(j+1, "if (got === sent && !ended) {")
		w.line(j+2, "ended = true;")
		w.line(j+2, "sock.end();")
		w.line(j+1, "}")
		w.line(j, "});")
		w.line(j, "sock.on('end', () => {")
		w.line(j+1, "log(%s + got);", lit(ca, "end:"))
		body(c.CEnd, j+1)
		w.line(j, "});")
		w.line(j, "sock.on('close', () => {")
		w.line(j+1, "log(%s);", lit(ca, "close"))
		body(c.CClose, j+1)
		switch {
		case !last:
			w.line(j+1, "c%d_%d();", id, k+2)
		case !t.CloseEarly:
			srvClose(j + 1)
		}
		w.line(j, "});")
		body(c.Pre, j)
		w.line(i, "}")
	}
	w.line(ind, "}")
}
