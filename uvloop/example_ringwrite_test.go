package uvloop_test

import (
	"fmt"

	"github.com/uvgo/uvgo/uvloop"
)

// On the io_uring backend a TCP stream's Write queues a send that the end of the phase
// submits; the bytes count in WriteQueueSize until the kernel reports them written. A
// caller that wants the epoll behaviour (write(2) at once) calls TryWrite first.
func ExampleTCP_RingWrites() {
	l, err := uvloop.New()
	if err != nil {
		fmt.Println(err)
		return
	}
	tcp, err := l.NewTCP()
	if err != nil {
		fmt.Println(err)
		return
	}
	ring := tcp.RingWrites()
	fmt.Println("only io_uring writes through the ring:", !ring || l.Backend() == uvloop.BackendIOURing)
	tcp.Close(nil)
	l.Run(uvloop.RunDefault)
	fmt.Println(l.Close())
	// Output:
	// only io_uring writes through the ring: true
	// <nil>
}
