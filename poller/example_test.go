//go:build linux || darwin || freebsd || netbsd || openbsd

package poller_test

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// A pipe becomes readable once something is written into it.
func Example() {
	p, err := poller.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()

	var fds [2]int
	if err := unix.Pipe(fds[:]); err != nil {
		fmt.Println(err)
		return
	}
	r, w := fds[0], fds[1]
	defer unix.Close(w)
	defer unix.Close(r)

	if err := p.Add(r, poller.Readable, 42); err != nil {
		fmt.Println(err)
		return
	}
	events, _, _ := p.Wait(0)
	fmt.Println("before the write:", len(events), "events")

	unix.Write(w, []byte("hello"))
	events, woke, err := p.Wait(-1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ev := range events {
		fmt.Printf("fd is the read end: %v, tag %d, %v, woke %v\n", ev.Fd == int32(r), ev.Tag, ev.Events, woke)
	}

	p.Remove(r) // before closing r
	// Output:
	// before the write: 0 events
	// fd is the read end: true, tag 42, Readable, woke false
}
