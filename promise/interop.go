package promise

import (
	"context"
	"fmt"
	"sync/atomic"
)

// Remote settles a promise from any goroutine: its settlement is posted to the scheduler's
// goroutine. While it is unsettled the scheduler is kept alive (if it is a Holder), so a loop
// does not end while the promise waits for another goroutine. Its methods are safe from any
// goroutine; only the first call counts.
type Remote[T any] struct {
	r       *Resolvers[T] // loop goroutine only
	post    Poster
	release func() // loop goroutine only; nil if the scheduler is not a Holder
	used    atomic.Bool
}

// WithRemote returns a pending promise and a Remote that settles it from any goroutine. The
// scheduler must be a Poster (*uvloop.Loop is); else it returns ErrNoPoster. Call it on the
// loop goroutine.
func WithRemote[T any](s Scheduler) (*Promise[T], *Remote[T], error) {
	post, ok := s.(Poster)
	if !ok {
		return nil, nil, ErrNoPoster
	}
	p, r := WithResolvers[T](s)
	rem := &Remote[T]{r: r, post: post}
	if h, ok := s.(Holder); ok {
		rem.release = h.Hold()
	}
	return p, rem, nil
}

// Resolve fulfills the promise with v, on the loop goroutine. It returns an error wrapping
// ErrClosed if the scheduler is closed, and nil (doing nothing) after the first call.
func (r *Remote[T]) Resolve(v T) error { return r.settle(func() { r.r.Resolve(v) }) }

// Reject rejects the promise with err, on the loop goroutine; see Resolve.
func (r *Remote[T]) Reject(err error) error { return r.settle(func() { r.r.Reject(err) }) }

func (r *Remote[T]) settle(fn func()) error {
	if !r.used.CompareAndSwap(false, true) {
		return nil
	}
	err := r.post.Post(func() {
		if r.release != nil {
			r.release()
		}
		fn()
	})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	return nil
}

// RejectOnDone rejects p with context.Cause(ctx) when ctx is done, if p is still pending
// then (its resolving functions do nothing afterwards). The rejection is posted to p's
// scheduler, which must be a Poster (else it returns a stop that does nothing and
// ErrNoPoster). It does not keep the loop alive. stop, like context.AfterFunc's, detaches it
// and reports whether it did so before ctx was done. Call it on the loop goroutine.
func RejectOnDone[T any](ctx context.Context, p *Promise[T]) (stop func() bool, err error) {
	post, ok := p.rt.sched.(Poster)
	if !ok {
		return func() bool { return false }, ErrNoPoster
	}
	return context.AfterFunc(ctx, func() {
		cause := context.Cause(ctx)
		post.Post(func() {
			if p.state == Pending {
				p.flags |= flagLocked
				p.reject(cause)
			}
		})
	}), nil
}

// Wait blocks the calling goroutine, which must not be the loop goroutine, until p has
// settled, and returns its value or reason; it counts as a handler of p. It returns early
// with ctx's error, or with ErrClosed if the scheduler closes first. The scheduler must be a
// Poster.
func (p *Promise[T]) Wait(ctx context.Context) (T, error) {
	var zero T
	rt := p.rt
	post, ok := rt.sched.(Poster)
	if !ok {
		return zero, ErrNoPoster
	}
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	if err := post.Post(func() {
		p.addReaction(funcJob(func() { v, err := p.Result(); ch <- result{v, err} }))
	}); err != nil {
		return zero, fmt.Errorf("%w: %w", ErrClosed, err)
	}
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-rt.done:
		select {
		case r := <-ch:
			return r.v, r.err
		default:
			return zero, ErrClosed
		}
	}
}
