package promise_test

import (
	"fmt"
	"slices"

	"github.com/uvgo/uvgo/promise"
)

// Promises/A+ 2.1 (states) and 2.2 (`then`), generated as the suite generates them. A JS
// `throw e` in a handler is a Go handler returning e (the documented equivalent) or panicking
// with it; both are checked where the suite throws.

// testFulfilled runs test on a promise that is fulfilled with v already, right after test
// returns, and after 5ms (the suite's testThreeCases).
func testFulfilled(a aplus, v any, test func(e *env, p *promise.Promise[any])) {
	a.specify("already-fulfilled", func(e *env) { test(e, resolved(e.l, v)) })
	a.specify("immediately-fulfilled", func(e *env) {
		p, r := promise.WithResolvers[any](e.l)
		test(e, p)
		r.Resolve(v)
	})
	a.specify("eventually-fulfilled", func(e *env) {
		p, r := promise.WithResolvers[any](e.l)
		test(e, p)
		e.l.SetTimeout(func() { r.Resolve(v) }, ms(50))
	})
}

// testRejected is testFulfilled for a promise rejected with err.
func testRejected(a aplus, err error, test func(e *env, p *promise.Promise[any])) {
	a.specify("already-rejected", func(e *env) { test(e, rejected(e.l, err)) })
	a.specify("immediately-rejected", func(e *env) {
		p, r := promise.WithResolvers[any](e.l)
		test(e, p)
		r.Reject(err)
	})
	a.specify("eventually-rejected", func(e *env) {
		p, r := promise.WithResolvers[any](e.l)
		test(e, p)
		e.l.SetTimeout(func() { r.Reject(err) }, ms(50))
	})
}

// errOf is the reason standing for one of the suite's objects when a promise rejects with it.
func errOf(v any) error {
	switch v {
	case dummy:
		return errDummy
	case sentinel:
		return errSentinel
	case other:
		return errOther
	}
	return promise.Reason(v)
}

// side is one way of settling, so that the fulfillment and rejection halves of 2.1, 2.2.2/3,
// 2.2.4 and 2.2.6 come from one table.
type side struct {
	settled string // "fulfilled"
	verb    string // "fulfill"
	noun    string // "fulfillment"
	handler string // "`onFulfilled`"
	// outcome is what a promise settled this way with v carries: v, or the error for v.
	outcome func(v any) any
	three   func(a aplus, v any, test func(e *env, p *promise.Promise[any]))
	settle  func(r *promise.Resolvers[any], v any)
	make    func(e *env, v any) *promise.Promise[any] // resolved(v) or rejected(errOf(v))
	// then registers h for this side and o (nil: none) for the other; both get the outcome.
	then func(p *promise.Promise[any], h, o func(any) (any, error)) *promise.Promise[any]
}

var (
	fulfilling = side{
		settled: "fulfilled", verb: "fulfill", noun: "fulfillment", handler: "`onFulfilled`",
		outcome: func(v any) any { return v },
		three:   testFulfilled,
		settle:  func(r *promise.Resolvers[any], v any) { r.Resolve(v) },
		make:    func(e *env, v any) *promise.Promise[any] { return resolved(e.l, v) },
		then: func(p *promise.Promise[any], h, o func(any) (any, error)) *promise.Promise[any] {
			return promise.Then(p, h, onError(o))
		},
	}
	rejecting = side{
		settled: "rejected", verb: "reject", noun: "rejection", handler: "`onRejected`",
		outcome: func(v any) any { return errOf(v) },
		three: func(a aplus, v any, test func(e *env, p *promise.Promise[any])) {
			testRejected(a, errOf(v), test)
		},
		settle: func(r *promise.Resolvers[any], v any) { r.Reject(errOf(v)) },
		make:   func(e *env, v any) *promise.Promise[any] { return rejected(e.l, errOf(v)) },
		then: func(p *promise.Promise[any], h, o func(any) (any, error)) *promise.Promise[any] {
			return promise.Then(p, o, onError(h))
		},
	}
)

func (s side) opposite() side {
	if s.verb == "fulfill" {
		return rejecting
	}
	return fulfilling
}

func onError(h func(any) (any, error)) func(error) (any, error) {
	if h == nil {
		return nil
	}
	return func(err error) (any, error) { return h(err) }
}

// nilHandlers are the suite's non-function handlers that Go has: nil.
var nilHandlers = []string{"`undefined`", "`null`"}

func aplus21(root aplus) {
	for _, s := range []side{fulfilling, rejecting} {
		o := s.opposite()
		num := map[string]string{"fulfill": "2.1.2.1", "reject": "2.1.3.1"}[s.verb]
		root.describe(num+": When "+s.settled+", a promise: must not transition to any other state.", func(a aplus) {
			// check: only s's handler may run, and done comes from the 10ms timer alone.
			check := func(e *env, p *promise.Promise[any]) {
				mine := false
				s.then(p, func(any) (any, error) { mine = true; return nil, nil }, func(any) (any, error) {
					if mine {
						e.t.Errorf("%s called after the %s handler", o.handler, s.noun)
					}
					e.done()
					return nil, nil
				})
				e.l.SetTimeout(e.done, ms(100))
			}
			s.three(a, dummy, check)
			for _, c := range []struct {
				name   string
				settle func(e *env, r *promise.Resolvers[any])
			}{
				{fmt.Sprintf("trying to %s then immediately %s", s.verb, o.verb), func(e *env, r *promise.Resolvers[any]) {
					s.settle(r, dummy)
					o.settle(r, dummy)
				}},
				{fmt.Sprintf("trying to %s then %s, delayed", s.verb, o.verb), func(e *env, r *promise.Resolvers[any]) {
					e.l.SetTimeout(func() { s.settle(r, dummy); o.settle(r, dummy) }, ms(50))
				}},
				{fmt.Sprintf("trying to %s immediately then %s delayed", s.verb, o.verb), func(e *env, r *promise.Resolvers[any]) {
					s.settle(r, dummy)
					e.l.SetTimeout(func() { o.settle(r, dummy) }, ms(50))
				}},
			} {
				a.specify(c.name, func(e *env) {
					p, r := promise.WithResolvers[any](e.l)
					check(e, p)
					c.settle(e, r)
				})
			}
		})
	}
}

func aplus22(root aplus) {
	root.describe("2.2.1: Both `onFulfilled` and `onRejected` are optional arguments.", aplus221)
	for _, s := range []side{fulfilling, rejecting} {
		num := map[string]string{"fulfill": "2.2.2", "reject": "2.2.3"}[s.verb]
		root.describe(num+": If "+s.handler+" is a function,", func(a aplus) { aplus222(a, num, s) })
	}
	root.describe("2.2.4: `onFulfilled` or `onRejected` must not be called until the execution context stack contains only platform code.", aplus224)
	root.describe("2.2.6: `then` may be called multiple times on the same promise.", func(a aplus) {
		for _, s := range []side{fulfilling, rejecting} {
			num := map[string]string{"fulfill": "2.2.6.1", "reject": "2.2.6.2"}[s.verb]
			a.describe(fmt.Sprintf("%s: If/when `promise` is %s, all respective %s callbacks must execute in the order of their originating calls to `then`.",
				num, s.settled, s.handler), func(a aplus) { aplus226(a, s) })
		}
	})
	root.describe("2.2.7: `then` must return a promise: `promise2 = promise1.then(onFulfilled, onRejected)`", aplus227)
}

func aplus221(a aplus) {
	done := func(e *env) func(any) (any, error) { return func(any) (any, error) { e.done(); return nil, nil } }
	noop := func(any) (any, error) { return nil, nil }
	for _, s := range []side{rejecting, fulfilling} {
		o := s.opposite() // the handler left out
		num := map[string]string{"reject": "2.2.1.1", "fulfill": "2.2.1.2"}[s.verb]
		a.describe(num+": If "+o.handler+" is not a function, it must be ignored.", func(a aplus) {
			a.describe("applied to a directly-"+s.settled+" promise", func(a aplus) {
				for _, n := range nilHandlers {
					a.specify(o.handler+" is "+n, func(e *env) {
						s.then(s.make(e, dummy), done(e), nil)
					})
				}
			})
			// The suite's title says `onFulfilled` in both halves.
			a.describe("applied to a promise "+s.settled+" and then chained off of", func(a aplus) {
				for _, n := range nilHandlers {
					a.specify("`onFulfilled` is "+n, func(e *env) {
						// the first then has only o's handler, so s's outcome passes through
						s.then(o.then(s.make(e, dummy), noop, nil), done(e), nil)
					})
				}
			})
		})
	}
}

func aplus222(a aplus, num string, s side) {
	what := map[string]string{"fulfill": "fulfillment value", "reject": "rejection reason"}[s.verb]
	a.describe(fmt.Sprintf("%s.1: it must be called after `promise` is %s, with `promise`’s %s as its first argument.", num, s.settled, what), func(a aplus) {
		s.three(a, sentinel, func(e *env, p *promise.Promise[any]) {
			s.then(p, func(v any) (any, error) {
				if want := s.outcome(sentinel); v != want {
					e.t.Errorf("called with %v, want %v", v, want)
				}
				e.done()
				return nil, nil
			}, nil)
		})
	})
	a.describe(fmt.Sprintf("%s.2: it must not be called before `promise` is %s", num, s.settled), func(a aplus) {
		a.specify(s.settled+" after a delay", func(e *env) {
			p, r := promise.WithResolvers[any](e.l)
			isSettled := false
			s.then(p, func(any) (any, error) {
				if !isSettled {
					e.t.Errorf("%s called before the promise was %s", s.handler, s.settled)
				}
				e.done()
				return nil, nil
			}, nil)
			e.l.SetTimeout(func() { s.settle(r, dummy); isSettled = true }, ms(50))
		})
		a.specify("never "+s.settled, func(e *env) {
			p, _ := promise.WithResolvers[any](e.l)
			called := false
			s.then(p, func(any) (any, error) { called = true; e.done(); return nil, nil }, nil)
			e.l.SetTimeout(func() {
				if called {
					e.t.Errorf("%s called", s.handler)
				}
				e.done()
			}, ms(150))
		})
	})
	a.describe(num+".3: it must not be called more than once.", func(a aplus) {
		// once registers a handler that must run once, and calls done if last.
		once := func(e *env, p *promise.Promise[any], last bool) {
			n := 0
			s.then(p, func(any) (any, error) {
				if n++; n != 1 {
					e.t.Errorf("%s called %d times", s.handler, n)
				}
				if last {
					e.done()
				}
				return nil, nil
			}, nil)
		}
		a.specify("already-"+s.settled, func(e *env) { once(e, s.make(e, dummy), true) })
		for _, c := range []struct {
			name   string
			settle func(e *env, r *promise.Resolvers[any])
		}{
			{"immediately", func(e *env, r *promise.Resolvers[any]) { s.settle(r, dummy); s.settle(r, dummy) }},
			{"delayed", func(e *env, r *promise.Resolvers[any]) {
				e.l.SetTimeout(func() { s.settle(r, dummy); s.settle(r, dummy) }, ms(50))
			}},
			{"immediately then delayed", func(e *env, r *promise.Resolvers[any]) {
				s.settle(r, dummy)
				e.l.SetTimeout(func() { s.settle(r, dummy) }, ms(50))
			}},
		} {
			a.specify(fmt.Sprintf("trying to %s a pending promise more than once, %s", s.verb, c.name), func(e *env) {
				p, r := promise.WithResolvers[any](e.l)
				once(e, p, true)
				c.settle(e, r)
			})
		}
		a.specify("when multiple `then` calls are made, spaced apart in time", func(e *env) {
			p, r := promise.WithResolvers[any](e.l)
			once(e, p, false)
			e.l.SetTimeout(func() { once(e, p, false) }, ms(50))
			e.l.SetTimeout(func() { once(e, p, true) }, ms(100))
			e.l.SetTimeout(func() { s.settle(r, dummy) }, ms(150))
		})
		a.specify("when `then` is interleaved with "+s.noun, func(e *env) {
			p, r := promise.WithResolvers[any](e.l)
			once(e, p, false)
			s.settle(r, dummy)
			once(e, p, true)
		})
	})
}

func aplus224(a aplus) {
	a.describe("`then` returns before the promise becomes fulfilled or rejected", func(a aplus) {
		for _, s := range []side{fulfilling, rejecting} {
			s.three(a, dummy, func(e *env, p *promise.Promise[any]) {
				returned := false
				s.then(p, func(any) (any, error) {
					if !returned {
						e.t.Errorf("%s called before `then` returned", s.handler)
					}
					e.done()
					return nil, nil
				}, nil)
				returned = true
			})
		}
	})
	for _, s := range []side{fulfilling, rejecting} {
		o := s.opposite()
		a.describe("Clean-stack execution ordering tests ("+s.noun+" case)", func(a aplus) {
			a.specifySync(fmt.Sprintf("when %s is added immediately before the promise is %s", s.handler, s.settled), func(e *env) {
				p, r := promise.WithResolvers[any](e.l)
				called := false
				s.then(p, func(any) (any, error) { called = true; return nil, nil }, nil)
				s.settle(r, dummy)
				if called {
					e.t.Errorf("%s called on the stack of the %s", s.handler, s.verb)
				}
			})
			a.specifySync(fmt.Sprintf("when %s is added immediately after the promise is %s", s.handler, s.settled), func(e *env) {
				p, r := promise.WithResolvers[any](e.l)
				called := false
				s.settle(r, dummy)
				s.then(p, func(any) (any, error) { called = true; return nil, nil }, nil)
				if called {
					e.t.Errorf("%s called on the stack of `then`", s.handler)
				}
			})
			// inside: a handler of s added inside a handler of `outer` on another promise
			// (or, for the same side, the same promise) must wait until that one returns.
			inside := func(e *env, outer side) {
				inner := s.make(e, nil)
				p := inner
				if outer.verb != s.verb {
					p = outer.make(e, nil)
				}
				finished := false
				outer.then(p, func(any) (any, error) {
					s.then(inner, func(any) (any, error) {
						if !finished {
							e.t.Errorf("inner %s called before the outer handler finished", s.handler)
						}
						e.done()
						return nil, nil
					}, nil)
					finished = true
					return nil, nil
				}, nil)
			}
			a.specify(fmt.Sprintf("when one %s is added inside another %s", s.handler, s.handler), func(e *env) { inside(e, s) })
			a.specify(fmt.Sprintf("when %s is added inside an %s", s.handler, o.handler), func(e *env) { inside(e, o) })
			a.specify(fmt.Sprintf("when the promise is %s asynchronously", s.settled), func(e *env) {
				p, r := promise.WithResolvers[any](e.l)
				finished := false
				e.l.SetTimeout(func() { s.settle(r, dummy); finished = true }, 0)
				s.then(p, func(any) (any, error) {
					if !finished {
						e.t.Errorf("%s called before the timer callback returned", s.handler)
					}
					e.done()
					return nil, nil
				}, nil)
			})
		})
	}
}

// spy records the calls of a handler: their arguments, and their place among all spies'.
type spy struct {
	args  []any
	order []int
	clock *int
	ret   func() (any, error)
}

func newSpies(n int) []*spy {
	clock := new(int)
	ss := make([]*spy, n)
	for i := range ss {
		ss[i] = &spy{clock: clock, ret: func() (any, error) { return nil, nil }}
	}
	return ss
}

func (s *spy) fn(v any) (any, error) {
	*s.clock++
	s.args = append(s.args, v)
	s.order = append(s.order, *s.clock)
	return s.ret()
}

// calledInOrder reports whether every spy was called, each before the next.
func calledInOrder(ss ...*spy) bool {
	last := 0
	for _, s := range ss {
		if len(s.order) == 0 || s.order[0] <= last {
			return false
		}
		last = s.order[0]
	}
	return true
}

func aplus226(a aplus, s side) {
	o := s.opposite()
	multiple := func(throws bool) func(e *env, p *promise.Promise[any]) {
		return func(e *env, p *promise.Promise[any]) {
			hs := newSpies(4)
			h, wrong := hs[:3], hs[3]
			for _, x := range h {
				x.ret = func() (any, error) { return other, nil }
			}
			if throws {
				h[1].ret = func() (any, error) { panic(other) }
			}
			for _, x := range h {
				s.then(p, x.fn, wrong.fn)
			}
			s.then(p, func(v any) (any, error) {
				want := s.outcome(sentinel)
				if v != want {
					e.t.Errorf("got %v, want %v", v, want)
				}
				for i, x := range h {
					if !slices.Equal(x.args, []any{want}) {
						e.t.Errorf("handler %d called with %v, want [%v]", i+1, x.args, want)
					}
				}
				if len(wrong.args) != 0 {
					e.t.Errorf("%s called %d times", o.handler, len(wrong.args))
				}
				e.done()
				return nil, nil
			}, nil)
		}
	}
	a.describe("multiple boring "+s.noun+" handlers", func(a aplus) { s.three(a, sentinel, multiple(false)) })
	a.describe("multiple "+s.noun+" handlers, one of which throws", func(a aplus) { s.three(a, sentinel, multiple(true)) })
	a.describe("results in multiple branching chains with their own fulfillment values", func(a aplus) {
		s.three(a, sentinel, func(e *env, p *promise.Promise[any]) {
			left := 3
			semiDone := func() {
				if left--; left == 0 {
					e.done()
				}
			}
			expect := func(q *promise.Promise[any], want any) {
				check := func(v any) (any, error) {
					if v != want {
						e.t.Errorf("branch got %v, want %v", v, want)
					}
					semiDone()
					return nil, nil
				}
				if _, ok := want.(error); ok {
					rejecting.then(q, check, nil)
				} else {
					fulfilling.then(q, check, nil)
				}
			}
			expect(s.then(p, func(any) (any, error) { return sentinel, nil }, nil), sentinel)
			expect(s.then(p, func(any) (any, error) { return nil, errSentinel2 }, nil), errSentinel2)
			expect(s.then(p, func(any) (any, error) { return sentinel3, nil }, nil), sentinel3)
		})
	})
	a.describe(s.handler+" handlers are called in the original order", func(a aplus) {
		s.three(a, dummy, func(e *env, p *promise.Promise[any]) {
			h := newSpies(3)
			for _, x := range h {
				s.then(p, x.fn, nil)
			}
			s.then(p, func(any) (any, error) {
				if !calledInOrder(h...) {
					e.t.Errorf("handlers called in the order %v %v %v", h[0].order, h[1].order, h[2].order)
				}
				e.done()
				return nil, nil
			}, nil)
		})
		a.describe("even when one handler is added inside another handler", func(a aplus) {
			s.three(a, dummy, func(e *env, p *promise.Promise[any]) {
				h := newSpies(3)
				s.then(p, func(v any) (any, error) {
					h[0].fn(v)
					s.then(p, h[2].fn, nil)
					return nil, nil
				}, nil)
				s.then(p, h[1].fn, nil)
				s.then(p, func(any) (any, error) {
					e.l.SetTimeout(func() {
						if !calledInOrder(h...) {
							e.t.Errorf("handlers called in the order %v %v %v", h[0].order, h[1].order, h[2].order)
						}
						e.done()
					}, ms(15))
					return nil, nil
				}, nil)
			})
		})
	})
}

func aplus227(a aplus) {
	a.specifySync("is a promise", func(e *env) {
		p1, _ := promise.WithResolvers[any](e.l)
		var p2 any = promise.Then[any, any](p1, nil, nil)
		if p2 == (*promise.Promise[any])(nil) {
			e.t.Fatal("then returned nil")
		}
		if _, ok := p2.(promise.Thenable[any]); !ok {
			e.t.Errorf("then returned %T, not a Thenable", p2)
		}
	})
	a.describe("2.2.7.1: If either `onFulfilled` or `onRejected` returns a value `x`, run the Promise Resolution Procedure `[[Resolve]](promise2, x)`", func(a aplus) {
		// As in the suite: 2.3's cases are the tests.
		a.specifySync("see separate 3.3 tests", func(*env) {})
	})
	a.describe("2.2.7.2: If either `onFulfilled` or `onRejected` throws an exception `e`, `promise2` must be rejected with `e` as the reason.", func(a aplus) {
		for _, r := range reasons {
			a.describe("The reason is "+r.name, func(a aplus) {
				for _, s := range []side{fulfilling, rejecting} {
					s.three(a, dummy, func(e *env, p1 *promise.Promise[any]) {
						reason := r.make(e)
						left := 2
						check := func(got any) (any, error) {
							if got != reason {
								e.t.Errorf("promise2 rejected with %v, want %v", got, reason)
							}
							if left--; left == 0 {
								e.done()
							}
							return nil, nil
						}
						// thrown as a returned error, and as a panic
						returned := s.then(p1, func(any) (any, error) { return nil, reason }, nil)
						panicked := s.then(p1, func(any) (any, error) { panic(reason) }, nil)
						rejecting.then(returned, check, nil)
						rejecting.then(panicked, check, nil)
					})
				}
			})
		}
	})
	for _, s := range []side{fulfilling, rejecting} {
		num := map[string]string{"fulfill": "2.2.7.3", "reject": "2.2.7.4"}[s.verb]
		a.describe(fmt.Sprintf("%s: If %s is not a function and `promise1` is %s, `promise2` must be %s with the same %s.",
			num, s.handler, s.settled, s.settled, map[string]string{"fulfill": "value", "reject": "reason"}[s.verb]), func(a aplus) {
			for _, n := range nilHandlers {
				a.describe(s.handler+" is "+n, func(a aplus) {
					s.three(a, sentinel, func(e *env, p1 *promise.Promise[any]) {
						p2 := promise.Then[any, any](p1, nil, nil)
						s.then(p2, func(v any) (any, error) {
							if want := s.outcome(sentinel); v != want {
								e.t.Errorf("promise2 settled with %v, want %v", v, want)
							}
							e.done()
							return nil, nil
						}, nil)
					})
				})
			}
		})
	}
}
