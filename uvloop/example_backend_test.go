package uvloop_test

import (
	"errors"
	"fmt"

	"github.com/uvgo/uvgo/uvloop"
)

// A program that prefers io_uring asks for it and falls back to the system's default where
// the kernel lacks or refuses it; Backend and Metrics say which runs.
func ExampleWithBackend() {
	l, err := uvloop.New(uvloop.WithBackend(uvloop.BackendIOURing))
	if errors.Is(err, errors.ErrUnsupported) {
		l, err = uvloop.New(uvloop.WithBackend(uvloop.BackendEpoll))
	}
	if errors.Is(err, errors.ErrUnsupported) {
		l, err = uvloop.New(uvloop.WithBackend(uvloop.BackendKqueue))
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()
	b := l.Backend()
	fmt.Println("a backend was chosen:", b != uvloop.BackendAuto)
	fmt.Println("Metrics says the same:", l.Metrics().Backend == b)
	// Output:
	// a backend was chosen: true
	// Metrics says the same: true
}
