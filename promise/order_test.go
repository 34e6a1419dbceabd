package promise_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The ordering scenarios: each Go function below has a JS twin, testdata/order/<name>.js,
// whose Node v20 output is recorded in <name>.txt. TestOrder runs the Go twin and compares it
// with the recording, and, when node is on $PATH, runs the JS twin and compares that too, so
// the recording is checked against the oracle on every run.

type logger struct{ lines []string }

func (lg *logger) log(a ...any) {
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = fmt.Sprint(v)
	}
	lg.lines = append(lg.lines, strings.Join(s, " "))
}

type unit = struct{}

// hops logs "<tag> hop i" from a chain of n thens on a resolved promise: a microtask counter.
func hops(l *uvloop.Loop, lg *logger, tag string, n int) {
	p := promise.Resolve(l, unit{})
	for i := 1; i <= n; i++ {
		p = promise.Then(p, func(unit) (unit, error) { lg.log(tag, "hop", i); return unit{}, nil }, nil)
	}
}

// syncThenable is a foreign thenable that resolves at once.
type syncThenable[T any] struct{ v T }

func (t syncThenable[T]) Then(r *promise.Resolvers[T]) { r.Resolve(t.v) }

// after runs fn in the reaction n microtask turns from now.
func after(l *uvloop.Loop, n int, fn func()) {
	p := promise.Resolve(l, unit{})
	for i := 1; i < n; i++ {
		p = promise.Then(p, func(unit) (unit, error) { return unit{}, nil }, nil)
	}
	promise.Then(p, func(unit) (unit, error) { fn(); return unit{}, nil }, nil)
}

func logThen[T any](p *promise.Promise[T], lg *logger, msg string) {
	promise.Then(p, func(T) (unit, error) { lg.log(msg); return unit{}, nil }, nil)
}

func swallow[T any](p *promise.Promise[T]) *promise.Promise[T] {
	p.Catch(func(error) (T, error) { var z T; return z, nil })
	return p
}

var orderScenarios = map[string]func(l *uvloop.Loop, lg *logger){
	"adoption": func(l *uvloop.Loop, lg *logger) {
		p1, r1 := promise.WithResolvers[int](l)
		r1.Adopt(promise.Resolve(l, 1))
		logThen(p1, lg, "adopt native")
		p2, r2 := promise.WithResolvers[int](l)
		r2.Adopt(syncThenable[int]{1})
		logThen(p2, lg, "adopt thenable")
		promise.Async(l, func() (unit, error) {
			promise.Await(promise.From[int](l, syncThenable[int]{1}))
			lg.log("await thenable")
			return unit{}, nil
		})
		promise.Async(l, func() (unit, error) {
			promise.Await(promise.Resolve(l, 1))
			lg.log("await native")
			return unit{}, nil
		})
		logThen(promise.AsyncPromise(l, func() (promise.Thenable[int], error) { return promise.Resolve(l, 1), nil }), lg, "async returns native")
		logThen(promise.Async(l, func() (int, error) { return 1, nil }), lg, "async returns value")
		logThen(promise.Chain(promise.Resolve(l, 1), func(int) promise.Thenable[int] { return promise.Resolve(l, 2) }, nil), lg, "then returns native")
		logThen(promise.Resolve(l, 1).Finally(func() promise.AnyPromise { return nil }), lg, "finally")
		logThen(promise.Reject[int](l, errors.New("x")).Catch(func(error) (int, error) { return 0, nil }), lg, "catch")
		promise.Reject[int](l, errors.New("y")).Finally(func() promise.AnyPromise { return nil }).Catch(func(error) (int, error) {
			lg.log("finally rejected")
			return 0, nil
		})
		hops(l, lg, "H", 6)
		lg.log("sync end")
	},
	"combinators": func(l *uvloop.Loop, lg *logger) {
		r := func(v int) *promise.Promise[int] { return promise.Resolve(l, v) }
		e := func(m string) *promise.Promise[int] { return swallow(promise.Reject[int](l, errors.New(m))) }
		join := func(v []int) string {
			s := make([]string, len(v))
			for i, x := range v {
				s[i] = fmt.Sprint(x)
			}
			return strings.Join(s, ",")
		}
		promise.Then(promise.All(l, r(1), r(2), r(3)), func(v []int) (unit, error) { lg.log("all", join(v)); return unit{}, nil }, nil)
		promise.All(l, r(1), e("a"), r(3)).Catch(func(err error) ([]int, error) { lg.log("all rejected", err.Error()); return nil, nil })
		promise.Then(promise.All[int](l), func(v []int) (unit, error) { lg.log("all empty", len(v)); return unit{}, nil }, nil)
		promise.Then(promise.AllSettled(l, r(1), e("b")), func(v []promise.Settlement[int]) (unit, error) {
			lg.log("allSettled", v[0].State.String()+","+v[1].State.String())
			return unit{}, nil
		}, nil)
		promise.Then(promise.Race(l, r(1), r(2)), func(v int) (unit, error) { lg.log("race", v); return unit{}, nil }, nil)
		promise.Race(l, e("c"), r(2)).Catch(func(err error) (int, error) { lg.log("race rejected", err.Error()); return 0, nil })
		promise.Then(promise.Any(l, e("d"), r(5)), func(v int) (unit, error) { lg.log("any", v); return unit{}, nil }, nil)
		aggr := func(err error) (int, error) {
			var ae *promise.AggregateError
			errors.As(err, &ae)
			return len(ae.Errors), nil
		}
		promise.Any(l, e("f"), e("g")).Catch(func(err error) (int, error) { n, _ := aggr(err); lg.log("any rejected", n); return 0, nil })
		promise.Any[int](l).Catch(func(err error) (int, error) { n, _ := aggr(err); lg.log("any empty", n); return 0, nil })
		later, res := promise.WithResolvers[int](l)
		promise.Then(promise.All(l, r(1), later), func(v []int) (unit, error) { lg.log("all later", join(v)); return unit{}, nil }, nil)
		never, _ := promise.WithResolvers[int](l)
		promise.Then(promise.Race(l, later, never), func(v int) (unit, error) { lg.log("race later", v); return unit{}, nil }, nil)
		promise.Then(promise.Resolve(l, unit{}), func(unit) (unit, error) {
			promise.Then(promise.Resolve(l, unit{}), func(unit) (unit, error) {
				lg.log("resolve later")
				res.Resolve(9)
				return unit{}, nil
			}, nil)
			return unit{}, nil
		}, nil)
		hops(l, lg, "H", 6)
	},
	"combinators-mixed": func(l *uvloop.Loop, lg *logger) {
		r := func(v int) *promise.Promise[int] { return promise.Resolve(l, v) }
		e := func(m string) *promise.Promise[int] { return swallow(promise.Reject[int](l, errors.New(m))) }
		join := func(v []int) string {
			s := make([]string, len(v))
			for i, x := range v {
				s[i] = fmt.Sprint(x)
			}
			return strings.Join(s, ",")
		}
		type pend struct {
			p *promise.Promise[int]
			r *promise.Resolvers[int]
		}
		pending := func() pend { p, r := promise.WithResolvers[int](l); return pend{p, r} }
		a, b, c, d, f, g, h := pending(), pending(), pending(), pending(), pending(), pending(), pending()
		logThen(promise.Resolve(l, unit{}), lg, "queued before")
		promise.Then(promise.All(l, r(1), a.p, r(3)), func(v []int) (unit, error) { lg.log("all mixed", join(v)); return unit{}, nil }, nil)
		promise.Then(promise.All(l, r(1), e("x"), b.p),
			func([]int) (unit, error) { lg.log("all mixed fulfilled?"); return unit{}, nil },
			func(err error) (unit, error) { lg.log("all mixed rejected", err.Error()); return unit{}, nil })
		promise.All(l, a.p, e("late"), r(2)).Catch(func(err error) ([]int, error) {
			lg.log("all pending first rejected", err.Error())
			return nil, nil
		})
		promise.Then(promise.AllSettled(l, e("y"), c.p, r(2)), func(v []promise.Settlement[int]) (unit, error) {
			s := make([]string, len(v))
			for i, x := range v {
				s[i] = x.State.String()
			}
			lg.log("allSettled mixed", strings.Join(s, ","))
			return unit{}, nil
		}, nil)
		promise.Then(promise.Any(l, e("p"), d.p, e("q")), func(v int) (unit, error) { lg.log("any mixed", v); return unit{}, nil }, nil)
		promise.Then(promise.Any(l, e("s"), r(5), f.p), func(v int) (unit, error) { lg.log("any settled wins", v); return unit{}, nil }, nil)
		promise.Any(l, e("t"), g.p).Catch(func(err error) (int, error) {
			var ae *promise.AggregateError
			errors.As(err, &ae)
			s := make([]string, len(ae.Errors))
			for i, x := range ae.Errors {
				s[i] = x.Error()
			}
			lg.log("any mixed rejected", strings.Join(s, ","))
			return 0, nil
		})
		promise.Then(promise.Race(l, h.p, r(6)), func(v int) (unit, error) { lg.log("race settled wins", v); return unit{}, nil }, nil)
		promise.Race(l, b.p, e("z")).Catch(func(err error) (int, error) { lg.log("race rejected", err.Error()); return 0, nil })
		promise.Then(promise.Race(l, c.p, d.p), func(v int) (unit, error) { lg.log("race pending", v); return unit{}, nil }, nil)
		logThen(promise.Resolve(l, unit{}), lg, "queued after")
		after(l, 2, func() {
			lg.log("settle a, d, c")
			a.r.Resolve(2)
			d.r.Resolve(4)
			c.r.Reject(errors.New("c"))
		})
		after(l, 3, func() {
			lg.log("reject b, g, h")
			b.r.Reject(errors.New("b"))
			g.r.Reject(errors.New("g"))
			h.r.Reject(errors.New("h"))
			f.r.Resolve(7)
		})
		hops(l, lg, "H", 7)
	},
	"finally-pending": func(l *uvloop.Loop, lg *logger) {
		gate, openGate := promise.WithResolvers[string](l)
		bad, failBad := promise.WithResolvers[string](l)
		timed, resolveTimed := promise.WithResolvers[string](l)
		logValue := func(p *promise.Promise[int], msg string) {
			promise.Then(p, func(v int) (unit, error) { lg.log(msg, v); return unit{}, nil }, nil)
		}
		logReason := func(p *promise.Promise[int], msg string) {
			p.Catch(func(err error) (int, error) { lg.log(msg, err.Error()); return 0, nil })
		}
		logValue(promise.Resolve(l, 1).Finally(func() promise.AnyPromise { lg.log("finally 1 runs"); return gate }), "after finally 1")
		logReason(promise.Reject[int](l, errors.New("x")).Finally(func() promise.AnyPromise { lg.log("finally 2 runs"); return gate }), "after finally 2")
		promise.Then(promise.Resolve(l, 3).Finally(func() promise.AnyPromise { lg.log("finally 3 runs"); return bad }),
			func(v int) (unit, error) { lg.log("after finally 3 fulfilled", v); return unit{}, nil },
			func(err error) (unit, error) { lg.log("after finally 3", err.Error()); return unit{}, nil })
		logReason(promise.Reject[int](l, errors.New("z")).Finally(func() promise.AnyPromise { return bad }), "after finally 4")
		logValue(promise.Resolve(l, 5).Finally(func() promise.AnyPromise { lg.log("finally 5 runs"); return timed }), "after finally 5")
		logValue(promise.Resolve(l, 6).Finally(func() promise.AnyPromise { return gate }).
			Finally(func() promise.AnyPromise { lg.log("finally 6b runs"); return gate }), "after finally 6")
		l.SetTimeout(func() { lg.log("timer resolves"); resolveTimed.Resolve("ignored") }, 0)
		after(l, 2, func() { lg.log("resolve gate"); openGate.Resolve("ignored") })
		after(l, 3, func() { lg.log("reject bad"); failBad.Reject(errors.New("y")) })
		hops(l, lg, "H", 9)
		lg.log("sync end")
	},
	"nexttick-then": func(l *uvloop.Loop, lg *logger) {
		tick := func(msg string, then ...func()) {
			l.NextTick(func() {
				lg.log(msg)
				for _, f := range then {
					f()
				}
			})
		}
		promise.Then(promise.Then(promise.Resolve(l, unit{}), func(unit) (unit, error) {
			lg.log("then 1")
			tick("tick from then 1")
			return unit{}, nil
		}, nil), func(unit) (unit, error) { lg.log("then 2"); return unit{}, nil }, nil)
		tick("tick 1", func() {
			logThen(promise.Resolve(l, unit{}), lg, "then from tick 1")
			tick("tick from tick 1")
		})
		l.QueueMicrotask(func() {
			lg.log("microtask")
			l.QueueMicrotask(func() { lg.log("microtask from microtask") })
		})
		tick("tick 2")
		promise.Async(l, func() (unit, error) {
			lg.log("async start")
			promise.Await(promise.Resolve[any](l, nil))
			lg.log("async after await")
			tick("tick from async", func() { logThen(promise.Resolve(l, unit{}), lg, "then from tick from async") })
			promise.Await(promise.Resolve[any](l, nil))
			lg.log("async after await 2")
			return unit{}, nil
		})
		l.SetTimeout(func() {
			lg.log("timeout")
			tick("tick from timeout")
			promise.Then(promise.Resolve(l, unit{}), func(unit) (unit, error) {
				lg.log("then from timeout")
				tick("tick from then from timeout")
				return unit{}, nil
			}, nil)
			l.SetImmediate(func() {
				lg.log("immediate")
				logThen(promise.Resolve(l, unit{}), lg, "then from immediate")
				tick("tick from immediate")
			})
			l.SetTimeout(func() { lg.log("timeout 2") }, 0)
		}, 0)
		hops(l, lg, "H", 4)
		lg.log("sync end")
	},
	"async": func(l *uvloop.Loop, lg *logger) {
		inner := func(name string) *promise.Promise[string] {
			return promise.Async(l, func() (string, error) {
				lg.log(name, "inner start")
				promise.Await(promise.Resolve[any](l, nil))
				lg.log(name, "inner after await")
				return name + "!", nil
			})
		}
		outer := promise.Async(l, func() (int, error) {
			lg.log("outer start")
			v, _ := promise.Await(inner("a"))
			lg.log("outer got", v)
			if _, err := promise.Await(promise.Reject[int](l, errors.New("boom"))); err != nil {
				lg.log("outer caught", err.Error())
			}
			pending, res := promise.WithResolvers[int](l)
			l.SetTimeout(func() {
				lg.log("timer resolves")
				res.Resolve(7)
				l.NextTick(func() { lg.log("tick after resolve") })
			}, 0)
			w, _ := promise.Await(pending)
			lg.log("outer got pending", w)
			return w * 2, nil
		})
		promise.Then(outer, func(v int) (unit, error) { lg.log("outer result", v); return unit{}, nil }, nil)
		hops(l, lg, "H", 5)
		lg.log("sync end")
	},
}

func TestOrder(t *testing.T) {
	node, _ := exec.LookPath("node")
	for name, fn := range orderScenarios {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "order", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			l, err := uvloop.New()
			if err != nil {
				t.Fatal(err)
			}
			lg := &logger{}
			fn(l, lg)
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(lg.lines, "\n") + "\n"
			if got != string(want) {
				t.Errorf("Go twin:\n%s\nwant (Node v20):\n%s", got, want)
			}
			if node == "" {
				return
			}
			out, err := exec.Command(node, filepath.Join("testdata", "order", name+".js")).Output()
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			if string(out) != string(want) {
				t.Errorf("node now prints:\n%s\nrecorded:\n%s", out, want)
			}
		})
	}
}
