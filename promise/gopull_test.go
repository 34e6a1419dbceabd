package promise

import (
	"fmt"
	"iter"
	"runtime"
	"slices"
	"testing"
)

// TestGoPullAsIterPull runs the same scenarios through iter.Pull and goPull and compares
// what each saw: values pulled, where stop lands, deferred functions, panics raised again by
// the next or stop that resumed them, next and stop after the end.
func TestGoPullAsIterPull(t *testing.T) {
	type pull func(func(func(struct{}) bool)) (func() (struct{}, bool), func())
	iterPull := func(seq func(func(struct{}) bool)) (func() (struct{}, bool), func()) {
		return iter.Pull(iter.Seq[struct{}](seq))
	}
	// seq yields n times, logging; it panics at yield number panicAt (0: never).
	seqOf := func(log *[]string, n, panicAt int) func(func(struct{}) bool) {
		return func(yield func(struct{}) bool) {
			defer func() { *log = append(*log, "deferred") }()
			for i := 1; i <= n; i++ {
				if i == panicAt {
					panic(fmt.Sprint("boom ", i))
				}
				*log = append(*log, fmt.Sprint("yield ", i))
				if !yield(struct{}{}) {
					*log = append(*log, fmt.Sprint("stopped at ", i))
					return
				}
			}
			*log = append(*log, "returned")
		}
	}
	// call runs f and logs its result or panic.
	call := func(log *[]string, name string, f func() bool) {
		defer func() {
			if v := recover(); v != nil {
				*log = append(*log, fmt.Sprintf("%s panicked: %v", name, v))
			}
		}()
		*log = append(*log, fmt.Sprintf("%s %v", name, f()))
	}
	scenarios := map[string]func(p pull) []string{
		"drain": func(p pull) (log []string) {
			next, stop := p(seqOf(&log, 2, 0))
			for range 4 {
				call(&log, "next", func() bool { _, ok := next(); return ok })
			}
			stop()
			return log
		},
		"stop mid-way": func(p pull) (log []string) {
			next, stop := p(seqOf(&log, 3, 0))
			call(&log, "next", func() bool { _, ok := next(); return ok })
			stop()
			stop()
			call(&log, "next", func() bool { _, ok := next(); return ok })
			return log
		},
		"yield after stop": func(p pull) (log []string) {
			next, stop := p(func(yield func(struct{}) bool) {
				for i := range 3 {
					log = append(log, fmt.Sprint("yield ", i, " ", yield(struct{}{})))
				}
			})
			call(&log, "next", func() bool { _, ok := next(); return ok })
			stop()
			call(&log, "next", func() bool { _, ok := next(); return ok })
			return log
		},
		"goexit": func(p pull) (log []string) {
			next, stop := p(seqOf(&log, 3, 0))
			call(&log, "next", func() bool { _, ok := next(); return ok })
			done := make(chan bool)
			go func() { // runtime.Goexit in seq ends the goroutine that resumed it
				exited := true
				defer func() { done <- exited }()
				next2, _ := p(func(yield func(struct{}) bool) { runtime.Goexit() })
				next2()
				exited = false
			}()
			log = append(log, fmt.Sprint("goexit ended the caller: ", <-done))
			stop()
			return log
		},
		"stop before start": func(p pull) (log []string) {
			next, stop := p(seqOf(&log, 3, 0))
			stop()
			call(&log, "next", func() bool { _, ok := next(); return ok })
			return log
		},
		"panic": func(p pull) (log []string) {
			next, stop := p(seqOf(&log, 3, 2))
			for range 3 {
				call(&log, "next", func() bool { _, ok := next(); return ok })
			}
			stop()
			return log
		},
	}
	for name, sc := range scenarios {
		want := sc(iterPull)
		if got := sc(goPull); !slices.Equal(got, want) {
			t.Errorf("%s: goPull saw\n%q\niter.Pull saw\n%q", name, got, want)
		}
	}
}
