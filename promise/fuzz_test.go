package promise_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/promise"
)

// FuzzResolution builds random graphs of promises — pending ones with their resolving
// functions, settled ones, then/catch/finally with handlers that return values, throw, or
// return promises and foreign thenables, adoption (of other promises, of thenables, of
// itself), and the four combinators — twice: with package promise, and with a small model
// that follows the ECMAScript algorithms step by step (PerformPromiseThen, the resolving
// functions, NewPromiseResolveThenableJob, PromiseReactionJob, Promise.prototype.finally,
// Promise.all/race/any/allSettled). Both queue their jobs on a FIFO microtask queue, which
// the input drains a few jobs at a time. Every handler call logs what it got; the logs must
// be equal, line for line (so the number of turns each step takes is checked, too), and so
// must every promise's final state.
func FuzzResolution(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{0, 0, 3, 1, 0, 2, 5, 1, 1, 4, 0, 1, 9, 0, 2, 6, 0, 0, 12, 2})
	f.Add([]byte("adopt a thenable that throws after resolving, then race it"))
	f.Add([]byte{1, 7, 1, 3, 0, 0, 4, 1, 4, 2, 2, 8, 0, 1, 2, 3, 11, 0, 5, 9, 9, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 400 {
			return
		}
		fuzzResolution(t, data)
	})
}

// TestResolutionRandom runs the fuzz body on pseudo-random inputs, so that plain go test
// covers it.
func TestResolutionRandom(t *testing.T) {
	var x uint64 = 0x9E3779B97F4A7C15
	for range 2000 {
		data := make([]byte, 60)
		for i := range data {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			data[i] = byte(x)
		}
		fuzzResolution(t, data)
	}
}

// jobFIFO is a Scheduler whose microtasks the test runs by hand.
type jobFIFO struct{ q []func() }

func (s *jobFIFO) QueueMicrotask(fn func()) { s.q = append(s.q, fn) }

// run runs up to n microtasks (all, if n < 0), counting the ones they queue.
func (s *jobFIFO) run(n int) {
	for ; len(s.q) > 0 && n != 0; n-- {
		fn := s.q[0]
		s.q[0] = nil
		s.q = s.q[1:]
		fn()
	}
}

type fuzzInput struct {
	data []byte
	i    int
}

func (in *fuzzInput) next() int {
	if in.i >= len(in.data) {
		return 0
	}
	in.i++
	return int(in.data[in.i-1])
}

func (in *fuzzInput) more() bool { return in.i < len(in.data) }

// Handler kinds.
const (
	hNil = iota
	hValue
	hThrow
	hAdopt    // return another promise
	hThenable // return a foreign thenable
	hKinds
)

// Foreign thenable kinds: what its then does.
const (
	thSync      = iota // resolve(v)
	thRejSync          // reject(e)
	thAsync            // queueMicrotask(() => resolve(v))
	thThrow            // throw e
	thThenThrow        // resolve(v); throw e
	thTwice            // resolve(v); reject(e)
	thKinds
)

const maxPromises = 10

func fuzzResolution(t *testing.T, data []byte) {
	in := &fuzzInput{data: data}
	rs, ms := &jobFIFO{}, &jobFIFO{}
	defer promise.RuntimeOf(rs).Close()
	var rlog, mlog []string
	m := &model{s: ms, log: &mlog}

	type realP struct {
		p *promise.Promise[int]
		r *promise.Resolvers[int] // nil for a derived promise
	}
	var trace []string
	var reals []realP
	var models []*mprom
	var mres []*mresolvers
	add := func(p *promise.Promise[int], r *promise.Resolvers[int], mp *mprom, mr *mresolvers) {
		reals = append(reals, realP{p, r})
		models = append(models, mp)
		mres = append(mres, mr)
	}
	pick := func() int { return in.next() % len(reals) }
	val := func() int { return in.next() % 50 }
	errOf := func(n int) error { return errors.New("e" + strconv.Itoa(n)) }
	rlogf := func(format string, args ...any) { rlog = append(rlog, fmt.Sprintf(format, args...)) }

	// realThenable and its model twin.
	newThenable := func(kind, v int) (promise.Thenable[int], *mthen) {
		return &fuzzThen{s: rs, kind: kind, v: v, log: &rlog}, &mthen{kind: kind, v: v}
	}
	// handler returns the real value handler, the real adopting handler and the model
	// handler of one kind; tag names it in the log.
	type handlers struct {
		rv func(any) (int, error)
		ra func(any) promise.Thenable[int]
		m  func(any) (any, *string)
	}
	handler := func(tag string, kind int) handlers {
		v := val()
		switch kind {
		case hValue:
			// A value handler may also settle a pending promise, so that jobs queue
			// in the middle of a drain.
			side := -1
			if in.next()%3 == 0 {
				side = pick()
			}
			return handlers{
				rv: func(a any) (int, error) {
					rlogf("%s %s", tag, fmtArg(a))
					if side >= 0 && reals[side].r != nil {
						reals[side].r.Resolve(v)
					}
					return v, nil
				},
				m: func(a any) (any, *string) {
					m.logf("%s %s", tag, fmtArg(a))
					if side >= 0 && mres[side] != nil {
						mres[side].resolve(v)
					}
					return v, nil
				},
			}
		case hThrow:
			e := "e" + strconv.Itoa(v)
			return handlers{
				rv: func(a any) (int, error) { rlogf("%s %s", tag, fmtArg(a)); return 0, errOf(v) },
				ra: func(a any) promise.Thenable[int] { rlogf("%s %s", tag, fmtArg(a)); panic(errOf(v)) },
				m:  func(a any) (any, *string) { m.logf("%s %s", tag, fmtArg(a)); return nil, &e },
			}
		case hAdopt:
			j := pick()
			return handlers{
				ra: func(a any) promise.Thenable[int] { rlogf("%s %s", tag, fmtArg(a)); return reals[j].p },
				m:  func(a any) (any, *string) { m.logf("%s %s", tag, fmtArg(a)); return models[j], nil },
			}
		case hThenable:
			rt, mt := newThenable(in.next()%thKinds, v)
			return handlers{
				ra: func(a any) promise.Thenable[int] { rlogf("%s %s", tag, fmtArg(a)); return rt },
				m:  func(a any) (any, *string) { m.logf("%s %s", tag, fmtArg(a)); return mt, nil },
			}
		}
		return handlers{}
	}

	for op := 0; in.more() && op < 60; op++ {
		if len(reals) == 0 || (len(reals) < maxPromises && in.next()%4 == 0) {
			switch in.next() % 3 {
			case 0:
				p, r := promise.WithResolvers[int](rs)
				mp, mr := m.withResolvers()
				add(p, r, mp, mr)
				trace = append(trace, fmt.Sprintf("new pending %d", len(reals)-1))
			case 1:
				v := val()
				add(promise.Resolve(rs, v), nil, m.resolved(v), nil)
				trace = append(trace, fmt.Sprintf("new resolved %d", len(reals)-1))
			default:
				v := val()
				add(promise.Reject[int](rs, errOf(v)), nil, m.rejected("e"+strconv.Itoa(v)), nil)
				trace = append(trace, fmt.Sprintf("new rejected %d", len(reals)-1))
			}
			continue
		}
		tag := "h" + strconv.Itoa(op)
		k := in.next() % 12
		trace = append(trace, fmt.Sprintf("op %d: kind %d on %d promises", op, k, len(reals)))
		switch k {
		case 0, 1: // resolve or reject a pending promise through its resolvers
			i := pick()
			if reals[i].r == nil {
				continue
			}
			v := val()
			trace = append(trace, fmt.Sprintf("  settle %d: %d %d", i, k, v))
			if k == 0 {
				reals[i].r.Resolve(v)
				mres[i].resolve(v)
			} else {
				reals[i].r.Reject(errOf(v))
				mres[i].reject("e" + strconv.Itoa(v))
			}
		case 2: // adopt another promise (itself: a cycle)
			i, j := pick(), pick()
			if reals[i].r == nil {
				continue
			}
			reals[i].r.Adopt(reals[j].p)
			mres[i].resolve(models[j])
		case 3: // adopt a foreign thenable
			i := pick()
			if reals[i].r == nil {
				continue
			}
			rt, mt := newThenable(in.next()%thKinds, val())
			reals[i].r.Adopt(rt)
			mres[i].resolve(mt)
		case 4, 5: // then, with value handlers or adopting ones
			i := pick()
			adopt := k == 5
			fk, rk := in.next()%hKinds, in.next()%hKinds
			if !adopt {
				fk, rk = fk%3, rk%3 // nil, value, throw
			} else {
				if fk == hValue {
					fk = hAdopt
				}
				if rk == hValue {
					rk = hThenable
				}
			}
			hf, hr := handler(tag+"f", fk), handler(tag+"r", rk)
			var p *promise.Promise[int]
			if adopt {
				var onF func(int) promise.Thenable[int]
				var onR func(error) promise.Thenable[int]
				if fk != hNil {
					onF = func(v int) promise.Thenable[int] { return hf.ra(v) }
				}
				if rk != hNil {
					onR = func(err error) promise.Thenable[int] { return hr.ra(err) }
				}
				p = promise.Chain(reals[i].p, onF, onR)
			} else {
				var onF func(int) (int, error)
				var onR func(error) (int, error)
				if fk != hNil {
					onF = func(v int) (int, error) { return hf.rv(v) }
				}
				if rk != hNil {
					onR = func(err error) (int, error) { return hr.rv(err) }
				}
				p = promise.Then(reals[i].p, onF, onR)
			}
			trace = append(trace, fmt.Sprintf("  then of %d: adopt %v, kinds %d %d", i, adopt, fk, rk))
			add(p, nil, m.then(models[i], hf.m, hr.m), nil)
		case 6: // catch
			i := pick()
			h := handler(tag, 1+in.next()%2)
			trace = append(trace, fmt.Sprintf("  catch of %d", i))
			add(reals[i].p.Catch(func(err error) (int, error) { return h.rv(err) }), nil, m.then(models[i], nil, h.m), nil)
		case 7: // finally: nothing to wait for, a throw, or a promise to wait for
			i := pick()
			fk := in.next() % 3
			j := pick()
			v := val()
			e := "e" + strconv.Itoa(v)
			rp := reals[i].p.Finally(func() promise.AnyPromise {
				rlogf("%s finally", tag)
				switch fk {
				case 1:
					panic(errOf(v))
				case 2:
					return reals[j].p
				}
				return nil
			})
			mp := m.finally(models[i], func() (any, *string) {
				m.logf("%s finally", tag)
				switch fk {
				case 1:
					return nil, &e
				case 2:
					return models[j], nil
				}
				return nil, nil
			})
			add(rp, nil, mp, nil)
		case 8, 9, 10, 11: // a combinator over a few promises, observed by a then
			n := in.next() % 4
			var rps []*promise.Promise[int]
			var mps []*mprom
			for range n {
				j := pick()
				rps = append(rps, reals[j].p)
				trace = append(trace, fmt.Sprintf("  item %d", j))
				mps = append(mps, models[j])
			}
			logF := func(a any) (any, *string) { m.logf("%s %s", tag, fmtArg(a)); return len(mps), nil }
			logR := func(a any) (any, *string) { m.logf("%s %s", tag, fmtArg(a)); s := fmtArg(a); return nil, &s }
			rejR := func(err error) (int, error) { rlogf("%s %s", tag, fmtArg(err)); return 0, errors.New(fmtArg(err)) }
			var rp *promise.Promise[int]
			var mp *mprom
			switch k {
			case 8:
				rp = promise.Then(promise.All(rs, rps...), func(v []int) (int, error) { rlogf("%s %s", tag, fmtArg(v)); return len(rps), nil }, rejR)
				mp = m.then(m.all(mps), logF, logR)
			case 9:
				rp = promise.Then(promise.AllSettled(rs, rps...), func(v []promise.Settlement[int]) (int, error) {
					rlogf("%s %s", tag, fmtArg(v))
					return len(rps), nil
				}, rejR)
				mp = m.then(m.allSettled(mps), logF, logR)
			case 10:
				rp = promise.Then(promise.Race(rs, rps...), func(v int) (int, error) { rlogf("%s %s", tag, fmtArg(v)); return len(rps), nil }, rejR)
				mp = m.then(m.race(mps), logF, logR)
			default:
				rp = promise.Then(promise.Any(rs, rps...), func(v int) (int, error) { rlogf("%s %s", tag, fmtArg(v)); return len(rps), nil }, rejR)
				mp = m.then(m.anyOf(mps), logF, logR)
			}
			add(rp, nil, mp, nil)
		}
		// Drain the queue in between, sometimes, as a task boundary does. (Never part of
		// it: no JavaScript code runs between two microtasks, so package promise may merge
		// jobs that run back to back, as AllSettled does for the inputs settled when it is
		// called.)
		if in.next()%4 == 0 {
			trace = append(trace, "drain")
			rlogf("drain")
			m.logf("drain")
			rs.run(-1)
			ms.run(-1)
		}
	}
	rs.run(-1)
	ms.run(-1)
	if strings.Join(rlog, "\n") != strings.Join(mlog, "\n") {
		t.Fatalf("logs differ\npackage promise:\n%s\nmodel:\n%s\nops:\n%s", strings.Join(rlog, "\n"), strings.Join(mlog, "\n"), strings.Join(trace, "\n"))
	}
	for i := range reals {
		if got, want := realState(reals[i].p), models[i].String(); got != want {
			t.Fatalf("promise %d: %s, model %s\nlog:\n%s", i, got, want, strings.Join(rlog, "\n"))
		}
	}
}

func realState(p *promise.Promise[int]) string {
	switch p.State() {
	case promise.Fulfilled:
		return "fulfilled " + strconv.Itoa(p.Value())
	case promise.Rejected:
		return "rejected " + fmtArg(p.Err())
	}
	return "pending"
}

// fmtArg formats what a handler got, the same way for both sides.
func fmtArg(a any) string {
	switch a := a.(type) {
	case int:
		return strconv.Itoa(a)
	case string:
		return a
	case error:
		var agg *promise.AggregateError
		if errors.As(a, &agg) {
			var s []string
			for _, e := range agg.Errors {
				s = append(s, fmtArg(e))
			}
			return "agg[" + strings.Join(s, ",") + "]"
		}
		if errors.Is(a, promise.ErrCycle) {
			return "cycle"
		}
		return a.Error()
	case []int:
		var s []string
		for _, v := range a {
			s = append(s, strconv.Itoa(v))
		}
		return "[" + strings.Join(s, ",") + "]"
	case []promise.Settlement[int]:
		var s []string
		for _, v := range a {
			if v.State == promise.Fulfilled {
				s = append(s, "f:"+strconv.Itoa(v.Value))
			} else {
				s = append(s, "r:"+fmtArg(v.Err))
			}
		}
		return "[" + strings.Join(s, ",") + "]"
	case []any: // the model's lists
		var s []string
		for _, v := range a {
			s = append(s, fmtArg(v))
		}
		return "[" + strings.Join(s, ",") + "]"
	case settled:
		if a.ok {
			return "f:" + fmtArg(a.v)
		}
		return "r:" + a.r
	case aggregate:
		return "agg[" + strings.Join(a, ",") + "]"
	case *string:
		return *a
	}
	return fmt.Sprintf("?%T", a)
}

// fuzzThen is a foreign thenable of package promise's side.
type fuzzThen struct {
	s    *jobFIFO
	kind int
	v    int
	log  *[]string
}

func (t *fuzzThen) Then(r *promise.Resolvers[int]) {
	*t.log = append(*t.log, fmt.Sprintf("then %d/%d", t.kind, t.v))
	err := errors.New("t" + strconv.Itoa(t.v))
	switch t.kind {
	case thSync:
		r.Resolve(t.v)
	case thRejSync:
		r.Reject(err)
	case thAsync:
		t.s.QueueMicrotask(func() { r.Resolve(t.v) })
	case thThrow:
		panic(err)
	case thThenThrow:
		r.Resolve(t.v)
		panic(err)
	case thTwice:
		r.Resolve(t.v)
		r.Reject(err)
	}
}

// The model: ECMAScript's promise algorithms, with reasons as strings.

type model struct {
	s   *jobFIFO
	log *[]string
}

func (m *model) logf(format string, args ...any) {
	*m.log = append(*m.log, fmt.Sprintf(format, args...))
}

type mprom struct {
	state     int // 0 pending, 1 fulfilled, 2 rejected
	value     any
	reason    string
	reactions []mreaction
}

func (p *mprom) String() string {
	switch p.state {
	case 1:
		return "fulfilled " + fmtArg(p.value)
	case 2:
		return "rejected " + p.reason
	}
	return "pending"
}

// mreaction is a PromiseReaction: the derived promise's resolving functions (nil for none)
// and the handler for the outcome it reacts to (nil: pass it on).
type mreaction struct {
	cap      *mresolvers
	onF, onR func(any) (any, *string)
}

type mthen struct{ kind, v int }

type settled struct {
	ok bool
	v  any
	r  string
}

type aggregate []string

// mresolvers are CreateResolvingFunctions: only the first call of either counts.
type mresolvers struct {
	m    *model
	p    *mprom
	done *bool
}

func (r *mresolvers) resolve(x any) {
	if *r.done {
		return
	}
	*r.done = true
	r.m.resolveWith(r.p, x)
}

func (r *mresolvers) reject(reason string) {
	if *r.done {
		return
	}
	*r.done = true
	r.m.settle(r.p, 2, nil, reason)
}

func (m *model) resolvers(p *mprom) *mresolvers { return &mresolvers{m: m, p: p, done: new(bool)} }

func (m *model) withResolvers() (*mprom, *mresolvers) {
	p := &mprom{}
	return p, m.resolvers(p)
}

func (m *model) resolved(v any) *mprom { return &mprom{state: 1, value: v} }

func (m *model) rejected(r string) *mprom { return &mprom{state: 2, reason: r} }

// resolveWith is the body of a promise resolve function after its already-resolved check.
func (m *model) resolveWith(p *mprom, x any) {
	switch x := x.(type) {
	case *mprom:
		if x == p {
			m.settle(p, 2, nil, "cycle")
			return
		}
		m.s.QueueMicrotask(func() { // NewPromiseResolveThenableJob: x.then(resolve, reject)
			r := m.resolvers(p)
			m.perform(x, mreaction{
				onF: func(v any) (any, *string) { r.resolve(v); return nil, nil },
				onR: func(v any) (any, *string) { r.reject(v.(string)); return nil, nil },
			})
		})
	case *mthen:
		m.s.QueueMicrotask(func() {
			r := m.resolvers(p)
			m.logf("then %d/%d", x.kind, x.v)
			e := "t" + strconv.Itoa(x.v)
			switch x.kind {
			case thSync:
				r.resolve(x.v)
			case thRejSync:
				r.reject(e)
			case thAsync:
				m.s.QueueMicrotask(func() { r.resolve(x.v) })
			case thThrow:
				r.reject(e) // a throw rejects, unless a resolving function ran
			case thThenThrow:
				r.resolve(x.v)
				r.reject(e)
			case thTwice:
				r.resolve(x.v)
				r.reject(e)
			}
		})
	default:
		m.settle(p, 1, x, "")
	}
}

// settle is FulfillPromise / RejectPromise: it triggers the reactions, in order.
func (m *model) settle(p *mprom, state int, v any, reason string) {
	p.state, p.value, p.reason = state, v, reason
	rs := p.reactions
	p.reactions = nil
	for _, r := range rs {
		m.job(p, r)
	}
}

// job queues a PromiseReactionJob for settled p.
func (m *model) job(p *mprom, r mreaction) {
	state, v, reason := p.state, p.value, p.reason
	m.s.QueueMicrotask(func() {
		h, arg := r.onF, v
		if state == 2 {
			h, arg = r.onR, reason
		}
		if h == nil {
			if r.cap != nil {
				if state == 1 {
					r.cap.resolve(arg)
				} else {
					r.cap.reject(reason)
				}
			}
			return
		}
		res, thrown := h(arg)
		if r.cap == nil {
			return
		}
		if thrown != nil {
			r.cap.reject(*thrown)
		} else {
			r.cap.resolve(res)
		}
	})
}

// perform is PerformPromiseThen.
func (m *model) perform(p *mprom, r mreaction) {
	if p.state == 0 {
		p.reactions = append(p.reactions, r)
		return
	}
	m.job(p, r)
}

// then is Promise.prototype.then: a derived promise.
func (m *model) then(p *mprom, onF, onR func(any) (any, *string)) *mprom {
	d := &mprom{}
	m.perform(p, mreaction{cap: m.resolvers(d), onF: onF, onR: onR})
	return d
}

// promiseResolve is PromiseResolve(%Promise%, x).
func (m *model) promiseResolve(x any) *mprom {
	if p, ok := x.(*mprom); ok {
		return p
	}
	p, r := m.withResolvers()
	r.resolve(x)
	return p
}

// finally is Promise.prototype.finally.
func (m *model) finally(p *mprom, onFinally func() (any, *string)) *mprom {
	return m.then(p,
		func(v any) (any, *string) {
			res, thrown := onFinally()
			if thrown != nil {
				return nil, thrown
			}
			return m.then(m.promiseResolve(res), func(any) (any, *string) { return v, nil }, nil), nil
		},
		func(r any) (any, *string) {
			res, thrown := onFinally()
			if thrown != nil {
				return nil, thrown
			}
			reason := r.(string)
			return m.then(m.promiseResolve(res), func(any) (any, *string) { return nil, &reason }, nil), nil
		})
}

func (m *model) all(ps []*mprom) *mprom {
	d, r := m.withResolvers()
	values := make([]any, len(ps))
	remaining := 1
	for i, p := range ps {
		remaining++
		called := false
		m.then(p, func(v any) (any, *string) {
			if called {
				return nil, nil
			}
			called = true
			values[i] = v
			if remaining--; remaining == 0 {
				r.resolve(values)
			}
			return nil, nil
		}, func(e any) (any, *string) { r.reject(e.(string)); return nil, nil })
	}
	if remaining--; remaining == 0 {
		r.resolve(values)
	}
	return d
}

func (m *model) allSettled(ps []*mprom) *mprom {
	d, r := m.withResolvers()
	values := make([]any, len(ps))
	remaining := 1
	for i, p := range ps {
		remaining++
		called := false
		el := func(s settled) (any, *string) {
			if called {
				return nil, nil
			}
			called = true
			values[i] = s
			if remaining--; remaining == 0 {
				r.resolve(values)
			}
			return nil, nil
		}
		m.then(p, func(v any) (any, *string) { return el(settled{ok: true, v: v}) },
			func(e any) (any, *string) { return el(settled{r: e.(string)}) })
	}
	if remaining--; remaining == 0 {
		r.resolve(values)
	}
	return d
}

func (m *model) race(ps []*mprom) *mprom {
	d, r := m.withResolvers()
	for _, p := range ps {
		m.then(p, func(v any) (any, *string) { r.resolve(v); return nil, nil },
			func(e any) (any, *string) { r.reject(e.(string)); return nil, nil })
	}
	return d
}

func (m *model) anyOf(ps []*mprom) *mprom {
	d, r := m.withResolvers()
	errs := make([]string, len(ps))
	remaining := 1
	for i, p := range ps {
		remaining++
		called := false
		m.then(p, func(v any) (any, *string) { r.resolve(v); return nil, nil },
			func(e any) (any, *string) {
				if called {
					return nil, nil
				}
				called = true
				errs[i] = e.(string)
				if remaining--; remaining == 0 {
					r.reject(fmtArg(aggregate(errs)))
				}
				return nil, nil
			})
	}
	if remaining--; remaining == 0 {
		r.reject(fmtArg(aggregate(errs)))
	}
	return d
}
