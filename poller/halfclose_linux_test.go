package poller_test

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// A socket waiting only to become Writable, whose send buffer is full and whose peer shut down
// its writing side, is not ready: Wait sleeps, as with epoll (io_uring's poll requests always
// wake on POLLRDHUP; the backend arms a multishot poll for it rather than spin re-arming a
// one-shot one). The test measures its thread during a 200 ms Wait: the CPU time (a Wait that
// re-arms in a loop burns it) and the voluntary context switches (one that sleeps and wakes in
// a loop counts them; a sleeping Wait has one or two). When the peer reads, the socket is
// reported Writable, and again at each Wait while it stays so (level-triggered).
func TestWritableHalfClosedPeerSleeps(t *testing.T) {
	f, p := newFds(t), newPoller(t)
	a, b := f.socketpair()
	buf := make([]byte, 64<<10)
	for {
		if _, err := unix.Write(a, buf); err == unix.EAGAIN {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Shutdown(b, unix.SHUT_WR); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(a, poller.Writable, 1); err != nil {
		t.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() time.Duration {
		var ru unix.Rusage
		if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
			t.Skipf("getrusage: %v", err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	before, switches := cpu(), voluntarySwitches(t)
	if evs, _ := wait(t, p, 200*time.Millisecond); len(evs) != 0 {
		t.Fatalf("Wait = %+v, want nothing (the socket is not writable)", evs)
	}
	used, switched := cpu()-before, voluntarySwitches(t)-switches
	t.Logf("a 200ms Wait: %v of CPU, %d voluntary context switches", used, switched)
	if used > 20*time.Millisecond || switched > 30 {
		t.Errorf("a 200ms Wait used %v of CPU and slept %d times: it spun instead of sleeping", used, switched)
	}
	for { // the peer reads: room to write again
		if _, err := unix.Read(b, buf); err == unix.EAGAIN {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		evs, _ := wait(t, p, soon)
		if len(evs) != 1 || evs[0].Fd != int32(a) || evs[0].Events&poller.Writable == 0 {
			t.Fatalf("Wait = %+v, want fd %d Writable", evs, a)
		}
	}
}

// voluntarySwitches returns the calling thread's voluntary context switches.
func voluntarySwitches(t *testing.T) int {
	t.Helper()
	return switchesIn(t, "/proc/thread-self/status")
}

// switchesIn returns the voluntary context switches in a thread's /proc status file.
func switchesIn(t *testing.T, status string) int {
	t.Helper()
	b, err := os.ReadFile(status)
	if err != nil {
		t.Skipf("cannot read the thread's status: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no voluntary_ctxt_switches in " + status)
	return 0
}
