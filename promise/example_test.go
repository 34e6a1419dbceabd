package promise_test

import (
	"fmt"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// The classic async1/async2 puzzle prints in Node v20's order: an await of an async call
// that returned a value resumes one microtask later, before promise2.
func ExampleAsync() {
	loop, _ := uvloop.New()
	defer loop.Close()

	async2 := func() *promise.Promise[struct{}] {
		return promise.Async(loop, func() (struct{}, error) {
			fmt.Println("async2")
			return struct{}{}, nil
		})
	}
	async1 := func() *promise.Promise[struct{}] {
		return promise.Async(loop, func() (struct{}, error) {
			fmt.Println("async1 start")
			promise.Await(async2())
			fmt.Println("async1 end")
			return struct{}{}, nil
		})
	}

	fmt.Println("script start")
	loop.SetTimeout(func() { fmt.Println("setTimeout") }, 0)
	async1()
	promise.Then(promise.New(loop, func(resolve func(struct{}), _ func(error)) {
		fmt.Println("promise1")
		resolve(struct{}{})
	}), func(struct{}) (struct{}, error) {
		fmt.Println("promise2")
		return struct{}{}, nil
	}, nil)
	fmt.Println("script end")

	if _, err := loop.Run(uvloop.RunDefault); err != nil {
		fmt.Println(err)
	}
	// Output:
	// script start
	// async1 start
	// async2
	// promise1
	// script end
	// async1 end
	// promise2
	// setTimeout
}

// Then changes the type; a handler's error skips to Catch; Finally passes the value through.
func ExampleThen() {
	loop, _ := uvloop.New()
	defer loop.Close()

	p := promise.Resolve(loop, 20)
	q := promise.Then(p, func(v int) (string, error) { return fmt.Sprint(v + 1), nil }, nil)
	q.Finally(func() promise.AnyPromise { fmt.Println("finally"); return nil })
	promise.Then(q, func(s string) (int, error) {
		fmt.Println("got", s)
		return 0, fmt.Errorf("bad %s", s)
	}, nil).Catch(func(err error) (int, error) {
		fmt.Println("caught:", err)
		return -1, nil
	})
	loop.Run(uvloop.RunDefault)
	// Output:
	// finally
	// got 21
	// caught: bad 21
}

// queue is a scheduler of one's own: a FIFO of microtasks, run by drain. Being a
// RuntimeHolder, it keeps the package's state itself, so that promise.Resolve and the others
// find it without a process-wide lookup.
type queue struct {
	jobs []func()
	rt   any
}

func (q *queue) QueueMicrotask(fn func()) { q.jobs = append(q.jobs, fn) }
func (q *queue) RuntimeSlot() any         { return q.rt }
func (q *queue) SetRuntimeSlot(v any)     { q.rt = v }

func (q *queue) drain() {
	for len(q.jobs) > 0 {
		fn := q.jobs[0]
		q.jobs = q.jobs[1:]
		fn()
	}
}

func ExampleRuntimeHolder() {
	q := &queue{}
	defer promise.RuntimeOf(q).Close() // a scheduler that is not a Closer closes its Runtime
	p := promise.Then(promise.Resolve(q, 20), func(v int) (int, error) { return v + 1, nil }, nil)
	fmt.Println(p.State(), q.rt != nil)
	q.drain()
	fmt.Println(p.State(), p.Value())
	// Output:
	// pending true
	// fulfilled 21
}
