package poller_test

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// A listener on io_uring has the kernel accept for it (a multishot accept): each connection
// comes out of Wait as an accepted event carrying its fd. Where the kernel cannot, the same
// listener waits for Readable and calls accept4 itself.
func ExamplePoller_AcceptStart() {
	p, err := poller.Open(poller.BackendIOURing)
	if err != nil {
		p, err = poller.New() // io_uring refused here: epoll
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()

	ln, _ := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	defer unix.Close(ln)
	unix.Bind(ln, &unix.SockaddrUnix{}) // an autobound abstract name
	unix.Listen(ln, 8)
	sa, _ := unix.Getsockname(ln)

	if p.CanAccept() {
		p.AcceptStart(ln, 7)
		defer p.AcceptForget(ln) // before closing ln
	} else {
		p.Add(ln, poller.Readable, 7)
		defer p.Remove(ln)
	}

	c, _ := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	defer unix.Close(c)
	unix.Connect(c, sa)

	events, _, err := p.Wait(-1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range events {
		ev := &events[i]
		fd, err := ev.AcceptedFd() // the connection, if the kernel accepted it
		if !ev.Accepted() {
			fd, _, err = unix.Accept4(ln, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fl, _ := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		fmt.Printf("tag %d: a connection, non-blocking: %v\n", ev.Tag, fl&unix.O_NONBLOCK != 0)
		unix.Close(fd)
	}
	// Output:
	// tag 7: a connection, non-blocking: true
}
