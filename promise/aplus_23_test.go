package promise_test

import (
	"errors"
	"regexp"
	"sync"

	"github.com/uvgo/uvgo/promise"
)

// Promises/A+ 2.3 (the resolution procedure), the parts beside 2.3.3.3.1 and 2.3.3.3.2. A
// JS `throw e` in a thenable's `then` is a Go Then panicking with e.

func aplus231(a aplus) {
	for _, s := range []side{fulfilling, rejecting} {
		a.specify("via return from a "+s.settled+" promise", func(e *env) {
			var p *promise.Promise[any]
			self := func() promise.Thenable[any] { return p }
			if s.verb == "fulfill" {
				p = promise.Chain(s.make(e, dummy), func(any) promise.Thenable[any] { return self() }, nil)
			} else {
				p = promise.Chain(s.make(e, dummy), nil, func(error) promise.Thenable[any] { return self() })
			}
			promise.Then(p, nil, func(err error) (any, error) {
				if !errors.Is(err, promise.ErrCycle) { // JavaScript's TypeError
					e.t.Errorf("rejected with %v, want ErrCycle", err)
				}
				e.done()
				return nil, nil
			})
		})
	}
}

func aplus232(a aplus) {
	a.describe("2.3.2.1: If `x` is pending, `promise` must remain pending until `x` is fulfilled or rejected.", func(a aplus) {
		testPromiseResolution(a, func(e *env) promise.Thenable[any] {
			p, _ := promise.WithResolvers[any](e.l)
			return p
		}, func(e *env, p *promise.Promise[any]) {
			settled := false
			mark := func(any) (any, error) { settled = true; return nil, nil }
			promise.Then(p, mark, onError(mark))
			e.l.SetTimeout(func() {
				if settled || p.State() != promise.Pending {
					e.t.Errorf("promise settled (%v) while x is pending", p)
				}
				e.done()
			}, ms(100))
		})
	})
	for _, s := range []side{fulfilling, rejecting} {
		title := map[string]string{
			"fulfill": "2.3.2.2: If/when `x` is fulfilled, fulfill `promise` with the same value.",
			"reject":  "2.3.2.3: If/when `x` is rejected, reject `promise` with the same reason.",
		}[s.verb]
		a.describe(title, func(a aplus) {
			check := settlesWith(s, sentinel)
			a.describe("`x` is already-"+s.settled, func(a aplus) {
				testPromiseResolution(a, func(e *env) promise.Thenable[any] { return s.make(e, sentinel) }, check)
			})
			a.describe("`x` is eventually-"+s.settled, func(a aplus) {
				testPromiseResolution(a, func(e *env) promise.Thenable[any] {
					p, r := promise.WithResolvers[any](e.l)
					e.l.SetTimeout(func() { s.settle(r, sentinel) }, ms(50))
					return p
				}, check)
			})
		})
	}
}

// settlesWith checks that p settles s's way with v's outcome, then calls done.
func settlesWith(s side, v any) func(e *env, p *promise.Promise[any]) {
	return func(e *env, p *promise.Promise[any]) {
		want := s.outcome(v)
		s.then(p, func(got any) (any, error) {
			if got != want {
				e.t.Errorf("%s with %v, want %v", s.settled, got, want)
			}
			e.done()
			return nil, nil
		}, func(got any) (any, error) {
			e.t.Errorf("%s with %v, want %s with %v", s.opposite().settled, got, s.settled, want)
			e.done()
			return nil, nil
		})
	}
}

// recvThenable's Then checks that it is called on the x that was returned: the nearest Go has
// to `this`.
type recvThenable struct {
	then func(recv *recvThenable, r *promise.Resolvers[any])
}

func (x *recvThenable) Then(r *promise.Resolvers[any]) { x.then(x, r) }

func aplus2333this(a aplus) {
	testPromiseResolution(a, func(e *env) promise.Thenable[any] {
		x := &recvThenable{}
		x.then = func(recv *recvThenable, r *promise.Resolvers[any]) {
			if recv != x {
				e.t.Errorf("Then called on %p, want x = %p", recv, x)
			}
			if r == nil || r.Promise() == nil {
				e.t.Fatalf("Then called without resolving functions")
			}
			r.Resolve(nil)
		}
		return x
	}, func(e *env, p *promise.Promise[any]) {
		promise.Then(p, func(any) (any, error) { e.done(); return nil, nil }, nil)
	})
}

// A thenable case: what x's Then does, and how promise must settle. d is a promise that
// settles with sentinel after 5ms (the suite's deferred), made when x is.
type thenCase struct {
	name string
	then func(e *env, r *promise.Resolvers[any], d *promise.Promise[any])
	want side // settles that way with sentinel
	// later says how d settles; zero: d is unused.
	later *side
}

func runThenCases(a aplus, cases []thenCase) {
	for _, c := range cases {
		a.describe(c.name, func(a aplus) {
			testPromiseResolution(a, func(e *env) promise.Thenable[any] {
				var d *promise.Promise[any]
				if c.later != nil {
					p, r := promise.WithResolvers[any](e.l)
					e.l.SetTimeout(func() { c.later.settle(r, sentinel) }, ms(50))
					d = p
				}
				return thenFunc(func(r *promise.Resolvers[any]) { c.then(e, r, d) })
			}, settlesWith(c.want, sentinel))
		})
	}
}

func later(e *env, f func()) { e.l.SetTimeout(f, 0) }

func aplus23333(a aplus) {
	type R = *promise.Resolvers[any]
	type P = *promise.Promise[any]
	res := func(r R, v any) { r.Resolve(v) }
	rej := func(r R, v any) { r.Reject(errOf(v)) }
	runThenCases(a, []thenCase{
		{name: "calling `resolvePromise` then `rejectPromise`, both synchronously", want: fulfilling,
			then: func(e *env, r R, _ P) { res(r, sentinel); rej(r, other) }},
		{name: "calling `resolvePromise` synchronously then `rejectPromise` asynchronously", want: fulfilling,
			then: func(e *env, r R, _ P) { res(r, sentinel); later(e, func() { rej(r, other) }) }},
		{name: "calling `resolvePromise` then `rejectPromise`, both asynchronously", want: fulfilling,
			then: func(e *env, r R, _ P) { later(e, func() { res(r, sentinel) }); later(e, func() { rej(r, other) }) }},
		{name: "calling `resolvePromise` with an asynchronously-fulfilled promise, then calling `rejectPromise`, both synchronously",
			want: fulfilling, later: &fulfilling,
			then: func(e *env, r R, d P) { r.Adopt(d); rej(r, other) }},
		{name: "calling `resolvePromise` with an asynchronously-rejected promise, then calling `rejectPromise`, both synchronously",
			want: rejecting, later: &rejecting,
			then: func(e *env, r R, d P) { r.Adopt(d); rej(r, other) }},
		{name: "calling `rejectPromise` then `resolvePromise`, both synchronously", want: rejecting,
			then: func(e *env, r R, _ P) { rej(r, sentinel); res(r, other) }},
		{name: "calling `rejectPromise` synchronously then `resolvePromise` asynchronously", want: rejecting,
			then: func(e *env, r R, _ P) { rej(r, sentinel); later(e, func() { res(r, other) }) }},
		{name: "calling `rejectPromise` then `resolvePromise`, both asynchronously", want: rejecting,
			then: func(e *env, r R, _ P) { later(e, func() { rej(r, sentinel) }); later(e, func() { res(r, other) }) }},
		{name: "calling `resolvePromise` twice synchronously", want: fulfilling,
			then: func(e *env, r R, _ P) { res(r, sentinel); res(r, other) }},
		{name: "calling `resolvePromise` twice, first synchronously then asynchronously", want: fulfilling,
			then: func(e *env, r R, _ P) { res(r, sentinel); later(e, func() { res(r, other) }) }},
		{name: "calling `resolvePromise` twice, both times asynchronously", want: fulfilling,
			then: func(e *env, r R, _ P) { later(e, func() { res(r, sentinel) }); later(e, func() { res(r, other) }) }},
		{name: "calling `resolvePromise` with an asynchronously-fulfilled promise, then calling it again, both times synchronously",
			want: fulfilling, later: &fulfilling,
			then: func(e *env, r R, d P) { r.Adopt(d); res(r, other) }},
		{name: "calling `resolvePromise` with an asynchronously-rejected promise, then calling it again, both times synchronously",
			want: rejecting, later: &rejecting,
			then: func(e *env, r R, d P) { r.Adopt(d); res(r, other) }},
		{name: "calling `rejectPromise` twice synchronously", want: rejecting,
			then: func(e *env, r R, _ P) { rej(r, sentinel); rej(r, other) }},
		{name: "calling `rejectPromise` twice, first synchronously then asynchronously", want: rejecting,
			then: func(e *env, r R, _ P) { rej(r, sentinel); later(e, func() { rej(r, other) }) }},
		{name: "calling `rejectPromise` twice, both times asynchronously", want: rejecting,
			then: func(e *env, r R, _ P) { later(e, func() { rej(r, sentinel) }); later(e, func() { rej(r, other) }) }},
	})
	a.describe("saving and abusing `resolvePromise` and `rejectPromise`", func(a aplus) {
		var saved sync.Map // *env -> the resolving functions its x's Then was given
		testPromiseResolution(a, func(e *env) promise.Thenable[any] {
			return thenFunc(func(r *promise.Resolvers[any]) { saved.Store(e, r) })
		}, func(e *env, p *promise.Promise[any]) {
			fulfilled, rejected := 0, 0
			promise.Then(p, func(any) (any, error) { fulfilled++; return nil, nil },
				func(error) (any, error) { rejected++; return nil, nil })
			abuse := func() {
				v, ok := saved.Load(e)
				if !ok {
					return
				}
				r := v.(*promise.Resolvers[any])
				r.Resolve(dummy)
				r.Resolve(dummy)
				r.Reject(errDummy)
				r.Reject(errDummy)
			}
			abuse() // x's Then has not been called yet: nothing is saved
			e.l.SetTimeout(abuse, ms(50))
			e.l.SetTimeout(func() {
				if fulfilled != 1 || rejected != 0 {
					e.t.Errorf("fulfilled %d times, rejected %d times; want 1 and 0", fulfilled, rejected)
				}
				saved.Delete(e)
				e.done()
			}, ms(100))
		})
	})
}

func aplus23334(a aplus) {
	type R = *promise.Resolvers[any]
	type P = *promise.Promise[any]
	a.describe("2.3.3.3.4.1: If `resolvePromise` or `rejectPromise` have been called, ignore it.", func(a aplus) {
		runThenCases(a, []thenCase{
			{name: "`resolvePromise` was called with a non-thenable", want: fulfilling,
				then: func(e *env, r R, _ P) { r.Resolve(sentinel); panic(other) }},
			{name: "`resolvePromise` was called with an asynchronously-fulfilled promise", want: fulfilling, later: &fulfilling,
				then: func(e *env, r R, d P) { r.Adopt(d); panic(other) }},
			{name: "`resolvePromise` was called with an asynchronously-rejected promise", want: rejecting, later: &rejecting,
				then: func(e *env, r R, d P) { r.Adopt(d); panic(other) }},
			{name: "`rejectPromise` was called", want: rejecting,
				then: func(e *env, r R, _ P) { r.Reject(errSentinel); panic(other) }},
			{name: "`resolvePromise` then `rejectPromise` were called", want: fulfilling,
				then: func(e *env, r R, _ P) { r.Resolve(sentinel); r.Reject(errOther); panic(other) }},
			{name: "`rejectPromise` then `resolvePromise` were called", want: rejecting,
				then: func(e *env, r R, _ P) { r.Reject(errSentinel); r.Resolve(other); panic(other) }},
		})
	})
	a.describe("2.3.3.3.4.2: Otherwise, reject `promise` with `e` as the reason.", func(a aplus) {
		runThenCases(a, []thenCase{
			{name: "straightforward case", want: rejecting,
				then: func(e *env, r R, _ P) { panic(errSentinel) }},
			{name: "`resolvePromise` is called asynchronously before the `throw`", want: rejecting,
				then: func(e *env, r R, _ P) { later(e, func() { r.Resolve(other) }); panic(errSentinel) }},
			{name: "`rejectPromise` is called asynchronously before the `throw`", want: rejecting,
				then: func(e *env, r R, _ P) { later(e, func() { r.Reject(errOther) }); panic(errSentinel) }},
		})
	})
}

// Values with a `Then` that is not the Thenable method: a field of another type, or even a
// field holding a function of the right signature (a field is not a method).
type (
	thenIsInt    struct{ Then int }
	thenIsObject struct{ Then *box }
	thenIsArray  struct{ Then []func() }
	thenIsRegexp struct{ Then *regexp.Regexp }
	thenIsField  struct {
		Then func(*promise.Resolvers[any])
	}
)

func aplus2334(a aplus) {
	for _, c := range []struct {
		name string
		make func() any
	}{
		{"`5`", func() any { return &thenIsInt{5} }},
		{"an object", func() any { return &thenIsObject{&box{}} }},
		{"an array containing a function", func() any { return &thenIsArray{[]func(){func() {}}} }},
		{"a regular expression", func() any { return &thenIsRegexp{regexp.MustCompile(`(?i)a-b`)} }},
		{"an object inheriting from `Function.prototype`", func() any {
			return &thenIsField{func(r *promise.Resolvers[any]) { r.Resolve(other) }}
		}},
	} {
		a.describe("`then` is "+c.name, func(a aplus) {
			testValueResolution(a, func(e *env) any {
				x := c.make()
				if _, ok := x.(promise.Thenable[any]); ok {
					e.t.Fatalf("%T is a Thenable", x)
				}
				return x
			}, func(e *env, p *promise.Promise[any], x any) {
				promise.Then(p, func(v any) (any, error) {
					if v != x {
						e.t.Errorf("fulfilled with %v, want x = %v", v, x)
					}
					e.done()
					return nil, nil
				}, nil)
			})
		})
	}
}

// testValueResolution is testPromiseResolution for an x that is not a Thenable: the
// handler returns it as a value, which the Go API never adopts.
func testValueResolution(a aplus, x func(e *env) any, test func(e *env, p *promise.Promise[any], x any)) {
	for _, s := range []side{fulfilling, rejecting} {
		a.specify("via return from a "+s.settled+" promise", func(e *env) {
			v := x(e)
			test(e, s.then(s.make(e, dummy), func(any) (any, error) { return v, nil }, nil), v)
		})
	}
}

func aplus234(a aplus) {
	for _, c := range []struct {
		name string
		v    any
	}{{"`undefined`", nil}, {"`null`", nil}, {"`false`", false}, {"`true`", true}, {"`0`", 0}} {
		a.describe("The value is "+c.name, func(a aplus) {
			for _, s := range []side{fulfilling, rejecting} {
				s.three(a, dummy, func(e *env, p1 *promise.Promise[any]) {
					p2 := s.then(p1, func(any) (any, error) { return c.v, nil }, nil)
					promise.Then(p2, func(v any) (any, error) {
						if v != c.v {
							e.t.Errorf("fulfilled with %#v, want %#v", v, c.v)
						}
						e.done()
						return nil, nil
					}, nil)
				})
			}
		})
	}
}
