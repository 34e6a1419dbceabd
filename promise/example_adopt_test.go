package promise_test

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// NewAdopting's resolve takes what JavaScript's takes: a plain value (Value), a promise to
// adopt, or a throw (Fail).
func ExampleNewAdopting() {
	loop, _ := uvloop.New()
	defer loop.Close()

	cached := map[string]int{"a": 1}
	get := func(key string) *promise.Promise[int] {
		return promise.NewAdopting(loop, func(resolve func(promise.Thenable[int]), reject func(error)) {
			if v, ok := cached[key]; ok {
				resolve(promise.Value(v)) // settled now
				return
			}
			if key == "" {
				resolve(promise.Fail[int](errors.New("empty key")))
				return
			}
			resolve(promise.Promisify(loop, func(cb func(error, int)) { // settled later
				loop.SetImmediate(func() { cb(nil, len(key)) })
			}))
		})
	}
	for _, k := range []string{"a", "bcd", ""} {
		p := get(k)
		fmt.Println(k, "->", p.State())
		promise.Then(p, func(v int) (int, error) { fmt.Println(k, "=", v); return v, nil },
			func(err error) (int, error) { fmt.Println(k, "failed:", err); return 0, nil })
	}
	loop.Run(uvloop.RunDefault)
	// Output:
	// a -> fulfilled
	// bcd -> pending
	//  -> rejected
	// a = 1
	//  failed: empty key
	// bcd = 3
}

// One Chain handler may return a plain value or a promise; the plain value costs no extra
// microtask turn, so "parsed 7" comes in the same turn as a Then handler's would.
func ExampleChain() {
	loop, _ := uvloop.New()
	defer loop.Close()

	parse := func(s string) promise.Thenable[int] {
		if v, err := strconv.Atoi(s); err == nil {
			return promise.Value(v)
		}
		return promise.Promisify(loop, func(cb func(error, int)) {
			loop.SetTimeout(func() { cb(nil, len(s)) }, 0)
		})
	}
	for _, s := range []string{"seven", "7"} {
		p := promise.Chain(promise.Resolve(loop, s), parse, nil)
		promise.Then(p, func(v int) (int, error) { fmt.Println("parsed", s, v); return v, nil }, nil)
	}
	loop.Run(uvloop.RunDefault)
	// Output:
	// parsed 7 7
	// parsed seven 5
}

// Promisify1 is util.promisify; Callbackify is util.callbackify.
func ExampleCallbackify() {
	loop, _ := uvloop.New()
	defer loop.Close()

	readConfig := func(name string, cb func(err error, size int)) {
		loop.SetImmediate(func() {
			if name == "" {
				cb(errors.New("no name"), 0)
				return
			}
			cb(nil, len(name)*10)
		})
	}
	readConfigP := promise.Promisify1(loop, readConfig)
	promise.Callbackify(readConfigP("app.json"), func(err error, size int) {
		fmt.Println("size", size, "err", err)
	})
	promise.Callbackify(readConfigP(""), func(err error, size int) {
		fmt.Println("size", size, "err", err)
	})
	loop.Run(uvloop.RunDefault)
	// Output:
	// size 80 err <nil>
	// size 0 err no name
}
