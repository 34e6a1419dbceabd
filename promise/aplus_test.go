package promise_test

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The Promises/A+ compliance tests (promises-aplus-tests 2.1.2), ported in our own words.
// Cases are generated as the suite generates them, over the settle timings and the kinds of
// thenables, and named by the suite's titles, so that TestAPlusChecklist can hold the port
// against testdata/aplus/titles.txt (the 872 full titles, listed by the suite's own mocha
// run) and APLUS.md maps each title to its Go test or to why it cannot apply.
//
// Timings are the suite's divided by 10 (its 50ms "eventually" is 5ms here).

var writeAPlus = flag.Bool("aplus.write", false, "rewrite APLUS.md from the A+ port")

var covered sync.Map // full title -> Go test name

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond / 10 }

// aplus is one describe block: the titles above it and the Go test running it.
type aplus struct {
	t     *testing.T
	title []string
}

func (a aplus) describe(name string, f func(a aplus)) {
	a.t.Run(name, func(t *testing.T) {
		f(aplus{t: t, title: append(append([]string(nil), a.title...), name)})
	})
}

// env is what one case sees: its loop, its test and done.
type env struct {
	l    *uvloop.Loop
	t    *testing.T
	done func()
}

// specify is a case that calls done exactly once (mocha's `function (done)`).
func (a aplus) specify(name string, f func(e *env)) { a.spec(name, 1, f) }

// specifySync is a case that is over when f returns (mocha's `function ()`); what it queued
// still runs, and a failure there still counts.
func (a aplus) specifySync(name string, f func(e *env)) { a.spec(name, 0, f) }

func (a aplus) spec(name string, wantDone int, f func(e *env)) {
	full := strings.Join(append(append([]string(nil), a.title...), name), " ")
	a.t.Run(name, func(t *testing.T) {
		covered.Store(full, t.Name())
		t.Parallel()
		l, err := uvloop.New()
		if err != nil {
			t.Fatal(err)
		}
		promise.SetRejectionMode(l, promise.ModeNone) // the suite ignores unhandled rejections too
		calls := 0
		e := &env{l: l, t: t, done: func() { calls++ }}
		f(e)
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Errorf("Run: %v", err)
		}
		if calls != wantDone {
			t.Errorf("done called %d times, want %d", calls, wantDone)
		}
		if err := l.Close(); err != nil {
			t.Error(err)
		}
	})
}

// The adapter.
func resolved(l *uvloop.Loop, v any) *promise.Promise[any] {
	if th, ok := v.(promise.Thenable[any]); ok {
		return promise.From(l, th)
	}
	return promise.Resolve(l, v)
}

func rejected(l *uvloop.Loop, err error) *promise.Promise[any] { return promise.Reject[any](l, err) }

// give calls resolvePromise(v): a thenable is adopted, anything else fulfills.
func give(r *promise.Resolvers[any], v any) {
	if th, ok := v.(promise.Thenable[any]); ok {
		r.Adopt(th)
	} else {
		r.Resolve(v)
	}
}

type box struct{ name string }

var (
	dummy         any = &box{"dummy"}
	sentinel      any = &box{"sentinel"}
	other         any = &box{"other"}
	sentinelArray any = &[]any{sentinel}
	sentinel2     any = &box{"sentinel2"}
	sentinel3     any = &box{"sentinel3"}
	errDummy          = errors.New("dummy")
	errSentinel       = errors.New("sentinel")
	errSentinel2      = errors.New("sentinel2")
	errOther          = errors.New("other")
)

// thenFunc is a foreign thenable made of a function.
type thenFunc func(r *promise.Resolvers[any])

func (f thenFunc) Then(r *promise.Resolvers[any]) { f(r) }

type kind struct {
	name string
	make func(e *env, v any) promise.Thenable[any]
}

type rkind struct {
	name string
	make func(e *env, err error) promise.Thenable[any]
}

func once(e *env, f thenFunc) thenFunc {
	n := 0
	return func(r *promise.Resolvers[any]) {
		if n++; n > 1 {
			e.t.Error("a one-time thenable's then was used twice")
		}
		f(r)
	}
}

// The suite's 7 fulfilled and 7 rejected thenables (helpers/thenables.js).
var fulfilledKinds = []kind{
	{"a synchronously-fulfilled custom thenable", func(e *env, v any) promise.Thenable[any] {
		return thenFunc(func(r *promise.Resolvers[any]) { give(r, v) })
	}},
	{"an asynchronously-fulfilled custom thenable", func(e *env, v any) promise.Thenable[any] {
		return thenFunc(func(r *promise.Resolvers[any]) { e.l.SetTimeout(func() { give(r, v) }, 0) })
	}},
	{"a synchronously-fulfilled one-time thenable", func(e *env, v any) promise.Thenable[any] {
		return once(e, func(r *promise.Resolvers[any]) { give(r, v) })
	}},
	{"a thenable that tries to fulfill twice", func(e *env, v any) promise.Thenable[any] {
		return thenFunc(func(r *promise.Resolvers[any]) { give(r, v); give(r, other) })
	}},
	{"a thenable that fulfills but then throws", func(e *env, v any) promise.Thenable[any] {
		return thenFunc(func(r *promise.Resolvers[any]) { give(r, v); panic(other) })
	}},
	{"an already-fulfilled promise", func(e *env, v any) promise.Thenable[any] { return resolved(e.l, v) }},
	{"an eventually-fulfilled promise", func(e *env, v any) promise.Thenable[any] {
		p, r := promise.WithResolvers[any](e.l)
		e.l.SetTimeout(func() { give(r, v) }, ms(50))
		return p
	}},
}

var rejectedKinds = []rkind{
	{"a synchronously-rejected custom thenable", func(e *env, err error) promise.Thenable[any] {
		return thenFunc(func(r *promise.Resolvers[any]) { r.Reject(err) })
	}},
	{"an asynchronously-rejected custom thenable", func(e *env, err error) promise.Thenable[any] {
		return thenFunc(func(r *promise.Resolvers[any]) { e.l.SetTimeout(func() { r.Reject(err) }, 0) })
	}},
	{"a synchronously-rejected one-time thenable", func(e *env, err error) promise.Thenable[any] {
		return once(e, func(r *promise.Resolvers[any]) { r.Reject(err) })
	}},
	{"a thenable that immediately throws in `then`", func(e *env, err error) promise.Thenable[any] {
		return thenFunc(func(*promise.Resolvers[any]) { panic(err) })
	}},
	// Go has no accessors: the nearest thing to a throwing `then` getter is a Then that
	// panics before anything else.
	{"an object with a throwing `then` accessor", func(e *env, err error) promise.Thenable[any] {
		return thenFunc(func(*promise.Resolvers[any]) { panic(err) })
	}},
	{"an already-rejected promise", func(e *env, err error) promise.Thenable[any] { return rejected(e.l, err) }},
	{"an eventually-rejected promise", func(e *env, err error) promise.Thenable[any] {
		p, r := promise.WithResolvers[any](e.l)
		e.l.SetTimeout(func() { r.Reject(err) }, ms(50))
		return p
	}},
}

// The suite's rejection reasons (helpers/reasons.js): each makes a fresh error.
var reasons = []struct {
	name string
	make func(e *env) error
}{
	{"`undefined`", func(*env) error { return promise.Reason(nil) }},
	{"`null`", func(*env) error { return promise.Reason(nil) }},
	{"`false`", func(*env) error { return promise.Reason(false) }},
	{"`0`", func(*env) error { return promise.Reason(0) }},
	{"an error", func(*env) error { return errors.New("") }},
	{"an error without a stack", func(*env) error { return &promise.ValueError{Value: "no stack"} }},
	{"a date", func(*env) error { return promise.Reason(time.Now()) }},
	{"an object", func(*env) error { return promise.Reason(&box{}) }},
	{"an always-pending thenable", func(*env) error {
		return promise.Reason(thenFunc(func(*promise.Resolvers[any]) {}))
	}},
	{"a fulfilled promise", func(e *env) error { return promise.Reason(resolved(e.l, dummy)) }},
	{"a rejected promise", func(e *env) error { return promise.Reason(rejected(e.l, errDummy)) }},
}

// testPromiseResolution: x returned from a handler of a fulfilled and of a rejected promise.
func testPromiseResolution(a aplus, x func(e *env) promise.Thenable[any], test func(e *env, p *promise.Promise[any])) {
	a.specify("via return from a fulfilled promise", func(e *env) {
		p := promise.Chain(resolved(e.l, dummy), func(any) promise.Thenable[any] { return x(e) }, nil)
		test(e, p)
	})
	a.specify("via return from a rejected promise", func(e *env) {
		p := promise.Chain(rejected(e.l, errDummy), nil, func(error) promise.Thenable[any] { return x(e) })
		test(e, p)
	})
}

func fulfillsWith(want func(e *env) any) func(e *env, p *promise.Promise[any]) {
	return func(e *env, p *promise.Promise[any]) {
		w := want(e)
		promise.Then(p, func(v any) (any, error) {
			if v != w {
				e.t.Errorf("fulfilled with %v, want %v", v, w)
			}
			e.done()
			return nil, nil
		}, nil)
	}
}

func rejectsWith(want func(e *env) error) func(e *env, p *promise.Promise[any]) {
	return func(e *env, p *promise.Promise[any]) {
		w := want(e)
		promise.Then(p, nil, func(err error) (any, error) {
			if err != w {
				e.t.Errorf("rejected with %v, want %v", err, w)
			}
			e.done()
			return nil, nil
		})
	}
}

// testCallingResolvePromise: x's then calls resolvePromise(y), synchronously or later.
func testCallingResolvePromise(a aplus, y func(e *env) any, name string, test func(e *env, p *promise.Promise[any])) {
	a.describe("`y` is "+name, func(a aplus) {
		a.describe("`then` calls `resolvePromise` synchronously", func(a aplus) {
			testPromiseResolution(a, func(e *env) promise.Thenable[any] {
				return thenFunc(func(r *promise.Resolvers[any]) { give(r, y(e)) })
			}, test)
		})
		a.describe("`then` calls `resolvePromise` asynchronously", func(a aplus) {
			testPromiseResolution(a, func(e *env) promise.Thenable[any] {
				return thenFunc(func(r *promise.Resolvers[any]) { e.l.SetTimeout(func() { give(r, y(e)) }, 0) })
			}, test)
		})
	})
}

func testCallingRejectPromise(a aplus, reason func(e *env) error, name string) {
	a.describe("`r` is "+name, func(a aplus) {
		for _, async := range []bool{false, true} {
			title := "`then` calls `rejectPromise` synchronously"
			if async {
				title = "`then` calls `rejectPromise` asynchronously"
			}
			a.describe(title, func(a aplus) {
				// one reason per case, shared by x and the check
				var mu sync.Mutex
				reasonsOf := map[*env]error{}
				get := func(e *env) error {
					mu.Lock()
					defer mu.Unlock()
					if r, ok := reasonsOf[e]; ok {
						return r
					}
					r := reason(e)
					reasonsOf[e] = r
					return r
				}
				testPromiseResolution(a, func(e *env) promise.Thenable[any] {
					return thenFunc(func(r *promise.Resolvers[any]) {
						if async {
							e.l.SetTimeout(func() { r.Reject(get(e)) }, 0)
						} else {
							r.Reject(get(e))
						}
					})
				}, rejectsWith(get))
			})
		}
	})
}

func constant(v any) func(*env) any { return func(*env) any { return v } }

func TestAPlus(t *testing.T) {
	root := aplus{t: t}
	aplus21(root)
	aplus22(root)
	root.describe("2.3.1: If `promise` and `x` refer to the same object, reject `promise` with a `TypeError' as the reason.", aplus231)
	root.describe("2.3.2: If `x` is a promise, adopt its state", aplus232)
	root.describe("2.3.3: Otherwise, if `x` is an object or function,", func(a aplus) {
		a.describe("2.3.3.3: If `then` is a function, call it with `x` as `this`, first argument `resolvePromise`, and second argument `rejectPromise`", func(a aplus) {
			a.describe("Calls with `x` as `this` and two function arguments", aplus2333this)
			a.describe("2.3.3.3.1: If/when `resolvePromise` is called with value `y`, run `[[Resolve]](promise, y)`", aplus23331)
			a.describe("2.3.3.3.2: If/when `rejectPromise` is called with reason `r`, reject `promise` with `r`", aplus23332)
			a.describe("2.3.3.3.3: If both `resolvePromise` and `rejectPromise` are called, or multiple calls to the same argument are made, the first call takes precedence, and any further calls are ignored.", aplus23333)
			a.describe("2.3.3.3.4: If calling `then` throws an exception `e`,", aplus23334)
		})
		a.describe("2.3.3.4: If `then` is not a function, fulfill promise with `x`", aplus2334)
	})
	root.describe("2.3.4: If `x` is not an object or function, fulfill `promise` with `x`", aplus234)
}

func aplus23331(a aplus) {
	a.describe("`y` is not a thenable", func(a aplus) {
		for _, c := range []struct {
			name string
			v    any
		}{{"`undefined`", nil}, {"`null`", nil}, {"`false`", false}, {"`5`", 5}, {"an object", sentinel}, {"an array", sentinelArray}} {
			testCallingResolvePromise(a, constant(c.v), c.name, fulfillsWith(constant(c.v)))
		}
	})
	a.describe("`y` is a thenable", func(a aplus) {
		for _, k := range fulfilledKinds {
			testCallingResolvePromise(a, func(e *env) any { return k.make(e, sentinel) }, k.name, fulfillsWith(constant(sentinel)))
		}
		for _, k := range rejectedKinds {
			testCallingResolvePromise(a, func(e *env) any { return k.make(e, errSentinel) }, k.name,
				rejectsWith(func(*env) error { return errSentinel }))
		}
	})
	a.describe("`y` is a thenable for a thenable", func(a aplus) {
		for _, outer := range fulfilledKinds {
			for _, inner := range fulfilledKinds {
				testCallingResolvePromise(a, func(e *env) any { return outer.make(e, inner.make(e, sentinel)) },
					outer.name+" for "+inner.name, fulfillsWith(constant(sentinel)))
			}
			for _, inner := range rejectedKinds {
				testCallingResolvePromise(a, func(e *env) any { return outer.make(e, inner.make(e, errSentinel)) },
					outer.name+" for "+inner.name, rejectsWith(func(*env) error { return errSentinel }))
			}
		}
	})
}

func aplus23332(a aplus) {
	for _, r := range reasons {
		testCallingRejectPromise(a, r.make, r.name)
	}
}

// notApplicable gives, by title prefix and (if set) a part of the rest, why a case of the
// suite cannot apply in Go.
var notApplicable = func() []struct{ prefix, contains, why string } {
	na := []struct{ prefix, contains, why string }{
		{"2.2.5 ", "", "Go functions have no `this`"},
		{"2.3.3: Otherwise, if `x` is an object or function, 2.3.3.1: Let `then` be `x.then`", "", "Go has no property getters: a Thenable's method is resolved statically, it cannot be retrieved twice"},
		{"2.3.3: Otherwise, if `x` is an object or function, 2.3.3.2: ", "", "Go has no property getters, so retrieving `then` cannot throw (the nearest case, a Then that panics at once, is covered under 2.3.3.3.4 and as a thenable kind)"},
		{"2.3.3: Otherwise, if `x` is an object or function, 2.3.3.3: If `then` is a function, call it with `x` as `this`, first argument `resolvePromise`, and second argument `rejectPromise` Uses the original value of `then`", "", "Go methods cannot be replaced after retrieval"},
		{"2.3.4: If `x` is not an object or function, fulfill `promise` with `x` The value is `true` with `Boolean.prototype` modified", "", "Go types cannot grow methods at run time"},
		{"2.3.4: If `x` is not an object or function, fulfill `promise` with `x` The value is `1` with `Number.prototype` modified", "", "Go types cannot grow methods at run time"},
	}
	// A handler is a Go func: nil is the only value that is not a function (ported as
	// `undefined` and `null`); `false`, `5`, an object or an array does not compile as one.
	for _, sec := range []string{"2.2.1: ", "2.2.7: "} {
		for _, h := range []string{"`onFulfilled`", "`onRejected`"} {
			for _, v := range []string{"`false`", "`5`", "an object", "an array containing a function"} {
				na = append(na, struct{ prefix, contains, why string }{sec, h + " is " + v,
					"a handler is a Go func: " + v + " does not compile as one (nil, the one non-function handler Go has, is ported as `undefined` and `null`)"})
			}
		}
	}
	return na
}()

// TestAPlusChecklist holds the port against the suite's titles and, with -aplus.write,
// rewrites APLUS.md.
func TestAPlusChecklist(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "aplus", "titles.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var titles []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		titles = append(titles, sc.Text())
	}
	if len(titles) != 872 {
		t.Fatalf("%d titles, want 872", len(titles))
	}
	known := map[string]bool{}
	for _, s := range titles {
		known[s] = true
	}
	var stray []string
	covered.Range(func(k, _ any) bool {
		if !known[k.(string)] {
			stray = append(stray, k.(string))
		}
		return true
	})
	sort.Strings(stray)
	for _, s := range stray {
		t.Errorf("Go case not in the suite's titles: %q", s)
	}
	if run := flag.Lookup("test.run").Value.String(); run == "" || run == "TestAPlus" {
		// TestAPlus ran whole in this process: every title is a Go case or has a reason,
		// never both.
		for _, s := range titles {
			_, ok := covered.Load(s)
			switch why := naReason(s); {
			case ok && why != "":
				t.Errorf("ported and marked not applicable: %q", s)
			case !ok && why == "":
				t.Errorf("neither ported nor marked not applicable: %q", s)
			}
		}
	}
	if !*writeAPlus {
		return
	}
	var b strings.Builder
	nCov, nNA, nTodo := 0, 0, 0
	var rows strings.Builder
	for _, s := range titles {
		status := "not ported yet"
		if name, ok := covered.Load(s); ok {
			status = "`" + name.(string) + "`"
			nCov++
		} else if why := naReason(s); why != "" {
			status = "n/a: " + why
			nNA++
		} else {
			nTodo++
		}
		fmt.Fprintf(&rows, "| %s | %s |\n", strings.ReplaceAll(s, "|", "\\|"), strings.ReplaceAll(status, "|", "\\|"))
	}
	fmt.Fprintf(&b, "# Promises/A+ checklist (promises-aplus-tests 2.1.2)\n\n")
	fmt.Fprintf(&b, "Every case of the suite (872: 2.1 = 12, 2.2 = 196, 2.3 = 664), by its full mocha title,\n")
	fmt.Fprintf(&b, "with the Go subtest (aplus_test.go, aplus_22_test.go, aplus_23_test.go) that covers it, or why\nit cannot apply in Go.\n")
	fmt.Fprintf(&b, "Generated by `go test ./promise/ -run TestAPlus -args -aplus.write`; the titles come from the\n")
	fmt.Fprintf(&b, "suite's own run (testdata/aplus/titles.txt).\n\n")
	fmt.Fprintf(&b, "Covered: %d. Not applicable: %d. Not ported yet: %d.\n\n", nCov, nNA, nTodo)
	b.WriteString("| A+ case | Go test |\n|---|---|\n")
	b.WriteString(rows.String())
	if err := os.WriteFile("APLUS.md", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func naReason(title string) string {
	for _, n := range notApplicable {
		if strings.HasPrefix(title, n.prefix) && strings.Contains(title[len(n.prefix):], n.contains) {
			return n.why
		}
	}
	return ""
}
