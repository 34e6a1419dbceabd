package main

import (
	"math/rand/v2"
	"slices"
)

// The generator writes only programs whose output Node fixes, whatever the timing: the
// rules below keep every pair of events whose order would depend on the clock apart.
//
// Time is cut into slots of unit ms. A timeout of k*unit ms set in slot a fires in slot
// a+k; all the timers that fire in one slot are in one duration list (Node runs a list in
// insertion order, so their order is fixed), and a slot with more than one of them is a
// group: its timers may be split over timers phases, so their callbacks queue no
// immediate, start no fs call, and (unless the list is the 1 ms one) set no 0 ms timeout.
//
// Within a slot the work is a tree of epochs: the slot's timers (the main block runs in a 0
// ms timeout, see Block.JS), the 0 ms timeouts they set (the epoch's zero child, +1 ms), and
// the callback of an fs call (the fs child). In an epoch, check phases are counted: 0 is the
// entry phase (timers, or the poll phase for an fs callback), k is the k-th check phase after
// it.
//   - A 0 ms timeout set at phase p races with immediates that run after the first timers
//     phase that follows p: immediates may run at check phases <= max(p, 1) only.
//   - An fs callback comes in some later poll phase: an epoch with an fs call has no 0 ms
//     timeout and no immediate after the phase the call was made in, and one fs call only.
//   - Promise reactions, async bodies, thenables' then and interval callbacks run at times
//     the generator does not track: they start no timer, immediate or fs call (they may log,
//     queue ticks and microtasks, settle and chain promises, and clear handles, since the
//     order of everything they see is fixed).
//
//   - Node 20's libuv (1.46.0) re-checks its timer heap against the loop's time after each
//     timer callback, and node's getLibuvNow updates that time: a setTimeout or setInterval
//     in the ticks and microtasks that follow a timers-phase callback can make a 0 ms timeout
//     set there (or just before) due in the same timers phase, ahead of the check phase,
//     whenever a millisecond boundary passed. So in an epoch entered from a timers phase, a
//     0 ms timeout set in the entry phase and a timer set by a tick or microtask of the entry
//     phase exclude each other (unless they are one and the same).
//
// The fs calls of the main program follow one another (an epoch makes one, and its
// callback's epoch is the next), so the state of the temporary directory they share is
// fixed when each one runs.
//
// A TCP session (see TCPSession) logs as actors of its own, which the main program's rules
// do not constrain. Its callbacks run in poll, check and close phases (its 'listening' in
// the tick drain of the main callback that called listen): they queue ticks, microtasks,
// promises and immediates one level deep (an immediate's body queues none), and start
// timers (0 or 5 ms) and read-only fs calls as actors of their own, whose bodies queue
// immediates but no timers, so no session timer is set in a timers phase (see the rule
// above). A session's blocks see no promise, resolver or handle of the main program's, nor
// one of another callback's, except handles they clear before they could run.
//
// Slots are unit ms apart; nested timers drift by up to a millisecond or two per hop, so the
// depth of timers and 0 ms hops is bounded.

const (
	unit     = 50 // ms between slots
	maxSlot  = 6  // the last slot a timer may fire in
	maxDrift = 5  // timer, 0 ms and fs hops on a path
	maxZero  = 2  // 0 ms hops in one slot
	maxCheck = 3  // check phases an epoch's immediates may reach
	maxDepth = 5  // block nesting
)

type epoch struct {
	group    bool // entered by timers that may split over timers phases
	list     int  // the duration list of the timers that enter it
	a        int  // slot
	zdepth   int
	drift    int
	maxImm   int // the latest check phase an immediate runs in
	minZeroP int // the earliest phase a 0 ms timeout was set in; -1: none
	fsP      int // the phase of the fs call; -1: none
	zero     *epoch
	poll     bool // entered from the poll phase (an fs callback)
	zero0    int  // 0 ms timeouts set in the entry phase
	tickT    int  // timers set by ticks and microtasks of the entry phase
	same     bool // the one of each is one timer
}

type slot struct {
	list  int
	group bool
	ep    *epoch
}

// gctx is where a block runs.
type gctx struct {
	ep    *epoch // nil: a microtask-like callback, which sets no timer
	k     int    // check phase
	async bool   // the top level of an async body: await allowed
	execs []int  // enclosing executors whose resolvers are set
	tick  bool   // a nextTick or queueMicrotask body (at any depth) of the phase k
	depth int
	vars  []pvar // promises assigned before this point
	// In a TCP session's callbacks (see TCPSession):
	again bool // an interval's body, which runs more than once: no TCP session
	tw    bool // a TCP actor's block: ep is nil
	imm   bool // an immediate may be queued: the callback's own iteration, before its check phase
	spawn bool // a timer or an fs call may be made, as an actor of its own
	late  bool // a close phase's: its immediates run after the next timers phase
}

type pvar struct {
	id   int
	list bool
}

func (c gctx) micro() gctx {
	c.ep, c.k, c.async, c.imm = nil, 0, false, false
	c.depth++
	c.vars = append([]pvar(nil), c.vars...)
	return c
}

func (c gctx) nested() gctx {
	c.async = false
	c.depth++
	c.vars = append([]pvar(nil), c.vars...)
	return c
}

type gen struct {
	r        *rand.Rand
	id       int
	budget   int
	slots    map[int]*slot
	timers   []int // timeout and interval IDs that a clear may name
	ims      []int // immediate IDs that a clear may name
	sessions int   // TCP sessions
}

// Generate returns the program of seed.
func Generate(seed uint64) *Block {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x75766675)), slots: map[int]*slot{}}
	g.budget = 8 + g.r.IntN(40)
	// The main block runs in a 0 ms timeout (see Block.JS): an epoch entered from a timers
	// phase like any other.
	main := &epoch{list: 1, minZeroP: -1, fsP: -1}
	c := gctx{ep: main}
	b := &Block{}
	for g.budget > 0 {
		g.stmt(c, b, &c.vars)
	}
	annotate(b, "")
	return b
}

func (g *gen) next() int { g.id++; return g.id }

func (g *gen) chance(pct int) bool { return g.r.IntN(100) < pct }

func bound(_ *epoch, p int) int { return max(p, 1) }

// refireOK reports whether a timer set in c (a 0 ms one if zero) keeps its epoch clear of
// libuv 1.46's timer re-check (see above), and counts it if so.
func refireOK(c gctx, zero bool) bool {
	ep := c.ep
	if ep.poll || c.k != 0 {
		return true
	}
	z, t := ep.zero0, ep.tickT
	if zero {
		z++
	}
	if c.tick {
		t++
	}
	same := ep.same || (zero && c.tick && z == 1 && t == 1)
	if z >= 1 && t >= 1 && !(z == 1 && t == 1 && same) {
		return false
	}
	ep.zero0, ep.tickT, ep.same = z, t, same
	return true
}

func (g *gen) canImmediate(c gctx) bool {
	ep := c.ep
	if ep == nil || ep.group {
		return false
	}
	j := c.k + 1
	if j > maxCheck {
		return false
	}
	if ep.minZeroP >= 0 && j > bound(ep, ep.minZeroP) {
		return false
	}
	if ep.fsP >= 0 && j > ep.fsP {
		return false
	}
	return true
}

// zeroEpoch returns the epoch a 0 ms timeout set in c runs in, or nil if none may be set.
func (g *gen) zeroEpoch(c gctx) *epoch {
	ep := c.ep
	if ep == nil || ep.fsP >= 0 || (ep.group && ep.list != 1) || ep.zdepth >= maxZero || ep.drift >= maxDrift {
		return nil
	}
	if bound(ep, c.k) < ep.maxImm {
		return nil
	}
	if ep.zero != nil && !ep.zero.group {
		return nil
	}
	if !refireOK(c, true) {
		return nil
	}
	if ep.zero == nil {
		ep.zero = &epoch{group: g.chance(40), list: 1, a: ep.a, zdepth: ep.zdepth + 1, drift: ep.drift + 1, minZeroP: -1, fsP: -1}
	}
	if ep.minZeroP < 0 || c.k < ep.minZeroP {
		ep.minZeroP = c.k
	}
	return ep.zero
}

// slotEpoch returns the epoch of a timer of d ms set in c (d a multiple of unit), or nil.
func (g *gen) slotEpoch(c gctx, d int, solo bool) *epoch {
	ep := c.ep
	if ep == nil || ep.drift >= maxDrift {
		return nil
	}
	a := ep.a + d/unit
	if a > maxSlot {
		return nil
	}
	s := g.slots[a]
	if s != nil && (s.list != d || !s.group || solo) {
		return nil
	}
	if !refireOK(c, false) {
		return nil
	}
	if s == nil {
		s = &slot{list: d, group: !solo && g.chance(40)}
		s.ep = &epoch{group: s.group, list: d, a: a, drift: ep.drift + 1, minZeroP: -1, fsP: -1}
		g.slots[a] = s
		return s.ep
	}
	s.ep.drift = max(s.ep.drift, ep.drift+1)
	return s.ep
}

func (g *gen) canFS(c gctx) bool {
	ep := c.ep
	return ep != nil && !ep.group && ep.fsP < 0 && ep.minZeroP < 0 && ep.maxImm <= c.k && ep.drift < maxDrift
}

// stmt appends one statement to b (or none, if the one drawn cannot be placed).
func (g *gen) stmt(c gctx, b *Block, vars *[]pvar) {
	g.budget--
	c.vars = *vars
	leaf := c.depth >= maxDepth || g.budget <= 0
	switch n := g.r.IntN(28); {
	case n < 2:
		b.Stmts = append(b.Stmts, &Stmt{Op: OpLog, ID: g.next()})
	case n < 6 && !leaf && c.tw && c.spawn:
		id := g.next()
		d := 0
		if g.chance(30) {
			d = 5 // a list of its own: the main program's timers are 0 ms or multiples of unit
		}
		b.Stmts = append(b.Stmts, &Stmt{Op: OpTimeout, ID: id, Delay: d, Body: g.actorBlock(c, 3)})
		g.timers = append(g.timers, id)
	case n < 6 && !leaf && c.ep != nil:
		if g.chance(45) {
			ep := g.zeroEpoch(c)
			if ep == nil {
				return
			}
			id := g.next()
			g.timers = append(g.timers, id)
			body := g.block(gctx{ep: ep, execs: c.execs, depth: c.depth + 1, vars: clone(c.vars)}, 3)
			b.Stmts = append(b.Stmts, &Stmt{Op: OpTimeout, ID: id, Delay: 0, Body: body})
			return
		}
		d := unit * (1 + g.r.IntN(3))
		ep := g.slotEpoch(c, d, false)
		if ep == nil {
			return
		}
		id := g.next()
		g.timers = append(g.timers, id)
		body := g.block(gctx{ep: ep, execs: c.execs, depth: c.depth + 1, vars: clone(c.vars)}, 4)
		b.Stmts = append(b.Stmts, &Stmt{Op: OpTimeout, ID: id, Delay: d, Body: body})
	case n < 7 && !leaf && c.ep != nil:
		d := unit * (1 + g.r.IntN(2))
		runs := 1 + g.r.IntN(3)
		a := c.ep.a
		for i := 1; i <= runs; i++ {
			s := g.slots[a+i*d/unit]
			if a+i*d/unit > maxSlot || (s != nil && (s.list != d || !s.group)) || c.ep.drift+i > maxDrift {
				return
			}
		}
		if !refireOK(c, false) {
			return
		}
		for i := 1; i <= runs; i++ {
			if s := g.slots[a+i*d/unit]; s == nil {
				g.slots[a+i*d/unit] = &slot{list: d, ep: &epoch{list: d, a: a + i*d/unit, drift: c.ep.drift + i, minZeroP: -1, fsP: -1}}
			}
		}
		id := g.next()
		g.timers = append(g.timers, id)
		cc := c.micro()
		cc.again = true
		body := g.block(cc, 2)
		b.Stmts = append(b.Stmts, &Stmt{Op: OpInterval, ID: id, Delay: d, N: runs, Body: body})
	case n < 10 && !leaf && c.tw && c.imm:
		id := g.next()
		g.ims = append(g.ims, id)
		cc := c.nested()
		cc.imm = false
		timers := g.timers
		if c.late {
			g.timers = nil // they may have run: a clear would race with them
		}
		b.Stmts = append(b.Stmts, &Stmt{Op: OpImmediate, ID: id, Body: g.block(cc, 3)})
		g.timers = timers
	case n < 10 && !leaf && g.canImmediate(c):
		c.ep.maxImm = max(c.ep.maxImm, c.k+1)
		id := g.next()
		g.ims = append(g.ims, id)
		cc := c.nested()
		cc.k = c.k + 1
		b.Stmts = append(b.Stmts, &Stmt{Op: OpImmediate, ID: id, Body: g.block(cc, 3)})
	case n < 11 && len(g.timers) > 0:
		op := OpClearTimeout
		if g.chance(30) {
			op = OpClearInterval
		}
		b.Stmts = append(b.Stmts, &Stmt{Op: op, Ref: g.timers[g.r.IntN(len(g.timers))]})
	case n < 12 && len(g.ims) > 0:
		b.Stmts = append(b.Stmts, &Stmt{Op: OpClearImmediate, Ref: g.ims[g.r.IntN(len(g.ims))]})
	case n < 15 && !leaf:
		op := OpTick
		if g.chance(50) {
			op = OpMicrotask
		}
		cc := c.nested()
		cc.tick = true
		b.Stmts = append(b.Stmts, &Stmt{Op: op, ID: g.next(), Body: g.block(cc, 2)})
	case n < 20:
		id := g.next()
		e := g.pexpr(c, true)
		b.Stmts = append(b.Stmts, &Stmt{Op: OpPromise, ID: id, E: e})
		*vars = append(*vars, pvar{id, e.kindList()})
	case n < 22 && len(c.execs) > 0:
		s := &Stmt{Op: OpSettle, ID: g.next(), Ref: c.execs[g.r.IntN(len(c.execs))]}
		switch g.r.IntN(3) {
		case 0:
			s.Reject = true
		case 1:
			s.E = g.adoptee(c)
		}
		b.Stmts = append(b.Stmts, s)
	case n < 25 && c.async:
		s := &Stmt{Op: OpAwait, ID: g.next(), Try: g.chance(60)}
		switch g.r.IntN(6) {
		case 0:
			s.E = &PExpr{Kind: PValue, ID: g.next()}
		case 1:
			s.E = g.thenable(c)
		default:
			s.E = g.pexpr(c, true)
		}
		b.Stmts = append(b.Stmts, s)
	case n < 26 && !leaf && c.tw && c.spawn:
		// Only the script's file: the temporary directory's state is the main program's.
		s := &Stmt{Op: OpFS, ID: g.next(), FS: g.r.IntN(FSTmp)}
		s.Body = g.actorBlock(c, 3)
		b.Stmts = append(b.Stmts, s)
	case n < 27 && !leaf && g.canFS(c):
		c.ep.fsP = c.k
		ep := &epoch{a: c.ep.a, zdepth: c.ep.zdepth, drift: c.ep.drift + 1, minZeroP: -1, fsP: -1, poll: true}
		s := &Stmt{Op: OpFS, ID: g.next(), FS: g.r.IntN(fsOps)}
		s.Ref, s.N = g.r.IntN(3), g.r.IntN(3)
		if s.FS == FSMkdir {
			s.Ref %= 2
		}
		s.Body = g.block(gctx{ep: ep, execs: c.execs, depth: c.depth + 1, vars: clone(c.vars)}, 3)
		b.Stmts = append(b.Stmts, s)
	case n < 28 && !leaf && !c.tw && !c.again && g.sessions < 2:
		g.sessions++
		b.Stmts = append(b.Stmts, g.tcp(c))
	}
}

// actorBlock generates the body of a timer or fs callback made in a TCP actor: an actor of
// its own, whose immediates run in its own iteration, and which makes no timers (one set in
// a timers phase could make the main program's 0 ms timeouts due early, see above).
func (g *gen) actorBlock(c gctx, n int) *Block {
	return g.tcpBlock(gctx{tw: true, imm: true, depth: c.depth + 1}, n)
}

// tcpBlock generates a TCP actor's callback: its promises and clears are its own.
func (g *gen) tcpBlock(c gctx, n int) *Block {
	timers, ims := g.timers, g.ims
	g.timers, g.ims = nil, nil
	c.vars, c.execs, c.async = nil, nil, false
	b := g.block(c, n)
	g.timers, g.ims = timers, ims
	return b
}

// tcp generates a TCP session (see TCPSession).
func (g *gen) tcp(c gctx) *Stmt {
	g.budget += 12 // a session's many callbacks
	s := &Stmt{Op: OpTCP, ID: g.next(), TCP: &TCPSession{CloseEarly: g.chance(30)}}
	t := s.TCP
	cb := gctx{tw: true, imm: true, spawn: true, depth: c.depth + 1}
	// 'listening' runs in the drain of the main program's callback that called listen,
	// which may be a timers phase: no timers.
	listening := cb
	listening.spawn = false
	t.Listening = g.tcpBlock(listening, 2)
	// Pre runs in the drain of the callback that connects: in a close phase, or in the main
	// program's drain for the first client.
	pre := cb
	pre.imm, pre.spawn = false, false
	late := cb
	late.late = true
	writes := func(b *Block, n int) {
		for range n {
			w := &Stmt{Op: OpWrite, ID: g.next(), N: 1 + g.r.IntN(4000)}
			if g.chance(60) {
				// A write's callback runs in the poll phase that completes it (or in the
				// connect callback's drain).
				w.Body = g.tcpBlock(cb, 2)
			}
			b.Stmts = slices.Insert(b.Stmts, g.r.IntN(len(b.Stmts)+1), w)
		}
	}
	for range 1 + g.r.IntN(3) {
		conn := &TCPConn{Connect: g.tcpBlock(cb, 2)}
		writes(conn.Connect, g.r.IntN(4))
		if g.chance(40) {
			conn.Pre = g.tcpBlock(pre, 1)
			writes(conn.Pre, 1+g.r.IntN(3))
		}
		conn.CData = g.tcpBlock(cb, 2)
		conn.CEnd = g.tcpBlock(cb, 2)
		// 'close' runs in the close phase: its immediates run after the next timers and
		// poll phases, where nothing of its actor happens any more, but its timers may
		// have run by then.
		conn.CClose = g.tcpBlock(late, 2)
		conn.Accept = g.tcpBlock(cb, 2)
		conn.AData = g.tcpBlock(cb, 2)
		conn.AEnd = g.tcpBlock(cb, 2)
		conn.AClose = g.tcpBlock(late, 2)
		t.Conns = append(t.Conns, conn)
	}
	t.Close = g.tcpBlock(late, 2) // from a tick of a close phase's callback, or of a poll phase's
	return s
}

func clone(v []pvar) []pvar { return append([]pvar(nil), v...) }

// block generates a body of up to about n statements.
func (g *gen) block(c gctx, n int) *Block {
	b := &Block{}
	vars := clone(c.vars)
	for i := g.r.IntN(n + 1); i > 0 && g.budget > 0; i-- {
		g.stmt(c, b, &vars)
	}
	return b
}

// pexpr generates a promise expression (of a list if list is set and the dice say so).
func (g *gen) pexpr(c gctx, list bool) *PExpr {
	leaf := c.depth >= maxDepth || g.budget <= 0
	var anyVars []pvar
	for _, v := range c.vars {
		if list || !v.list {
			anyVars = append(anyVars, v)
		}
	}
	n := g.r.IntN(20)
	if leaf {
		n = g.r.IntN(3)
	}
	switch {
	case n == 0:
		return &PExpr{Kind: PResolve, ID: g.next()}
	case n == 1:
		return &PExpr{Kind: PReject, ID: g.next()}
	case n == 2:
		if len(anyVars) == 0 {
			return &PExpr{Kind: PResolve, ID: g.next()}
		}
		v := anyVars[g.r.IntN(len(anyVars))]
		return &PExpr{Kind: PVar, Ref: v.id, List: v.list}
	case n < 6:
		g.budget--
		e := &PExpr{Kind: PNew, ID: g.next()}
		cc := c.nested()
		cc.execs = append(append([]int(nil), c.execs...), e.ID)
		e.Body = g.block(cc, 2)
		switch g.r.IntN(6) {
		case 0:
			e.Body.End = &End{Kind: EndValue, ID: g.next()}
		case 1:
			e.Body.End = &End{Kind: EndReject, ID: g.next()}
		case 2:
			e.Body.End = &End{Kind: EndThrow, ID: g.next()}
		case 3:
			e.Body.End = &End{Kind: EndAdopt, E: g.adoptee(c)}
		}
		return e
	case n < 10:
		g.budget--
		e := &PExpr{Kind: PThen, ID: g.next(), Src: g.pexpr(c, true), Adopt: g.chance(30)}
		if g.chance(25) {
			e.Kind = PCatch
		}
		if e.Adopt && e.Src.kindList() {
			e.Kind = PThen
		}
		if e.Kind == PThen && (g.chance(85) || e.Adopt && e.Src.kindList()) {
			e.OnF = g.handler(c, e.Adopt, true)
		}
		if e.Kind == PCatch || g.chance(40) {
			e.OnR = g.handler(c, e.Adopt, false)
		}
		return e
	case n < 12:
		g.budget--
		e := &PExpr{Kind: PFinally, ID: g.next(), Src: g.pexpr(c, list)}
		e.Body = g.block(c.micro(), 2)
		switch g.r.IntN(6) {
		case 0:
			e.Body.End = &End{Kind: EndThrow, ID: g.next()}
		case 1, 2:
			e.Body.End = &End{Kind: EndAdopt, E: g.adoptee(c)}
		}
		return e
	case n < 15:
		g.budget--
		kinds := []PKind{PRace, PAny}
		if list {
			kinds = append(kinds, PAll, PAllSettled)
		}
		e := &PExpr{Kind: kinds[g.r.IntN(len(kinds))]}
		for i := g.r.IntN(4); i > 0; i-- {
			switch g.r.IntN(6) {
			case 0:
				e.Items = append(e.Items, &PExpr{Kind: PValue, ID: g.next()})
			case 1:
				e.Items = append(e.Items, &PExpr{Kind: PFrom, Src: g.thenable(c)})
			default:
				e.Items = append(e.Items, g.pexpr(c, false))
			}
		}
		return e
	case n < 18:
		g.budget--
		e := &PExpr{Kind: PAsync, ID: g.next()}
		cc := c.micro()
		cc.async = true
		e.Body = g.block(cc, 4)
		switch g.r.IntN(5) {
		case 0, 1:
			e.Body.End = &End{Kind: EndValue, ID: g.next()}
		case 2:
			e.Body.End = &End{Kind: EndThrow, ID: g.next()}
		case 3:
			e.Body.End = &End{Kind: EndAdopt, E: g.adoptee(c)}
		}
		return e
	default:
		return &PExpr{Kind: PFrom, Src: g.thenable(c)}
	}
}

// adoptee is something a promise can adopt: a promise (of a value, not a list) or a thenable.
func (g *gen) adoptee(c gctx) *PExpr {
	if g.chance(35) {
		return g.thenable(c.micro())
	}
	return g.pexpr(c.micro(), false)
}

func (g *gen) thenable(c gctx) *PExpr {
	g.budget--
	e := &PExpr{Kind: PThenable, ID: g.next(), How: g.r.IntN(thHows)}
	e.Body = g.block(c.micro(), 1)
	return e
}

// handler generates a then/catch handler; adopt handlers return a thenable or throw.
func (g *gen) handler(c gctx, adopt, fulfilled bool) *Block {
	b := g.block(c.micro(), 2)
	if adopt {
		if g.chance(75) {
			b.End = &End{Kind: EndAdopt, E: g.adoptee(c)}
		} else {
			b.End = &End{Kind: EndThrow, ID: g.next()}
		}
		return b
	}
	switch g.r.IntN(5) {
	case 0, 1:
		b.End = &End{Kind: EndValue, ID: g.next()}
	case 2:
		b.End = &End{Kind: EndThrow, ID: g.next()}
	case 3:
		if fulfilled {
			b.End = &End{Kind: EndPass}
		}
	}
	return b
}
