package uvloop_test

import (
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// This file holds the helpers of the stream tests (stream_*_test.go, libuv_tcp_*_test.go,
// libuv_pipe_*_test.go).

var warmNetpoll sync.Once

// checkFds fails the test, when it ends, if it left file descriptors open that were not
// open when it began. It lists them with what they point to.
func checkFds(t testing.TB) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	// The runtime's own poller opens its fds on first use: let that happen first.
	warmNetpoll.Do(func() {
		if ln, err := net.Listen("tcp", "127.0.0.1:0"); err == nil {
			ln.Close()
		}
	})
	before := openFds(t)
	t.Cleanup(func() {
		var leaked []string
		for fd, target := range openFds(t) {
			if before[fd] != target {
				leaked = append(leaked, strconv.Itoa(fd)+" -> "+target)
			}
		}
		if len(leaked) > 0 {
			sort.Strings(leaked)
			t.Errorf("%d fds leaked: %v", len(leaked), leaked)
		}
	})
}

func openFds(t testing.TB) map[int]string {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[int]string, len(ents))
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		target, err := os.Readlink("/proc/self/fd/" + e.Name())
		if err != nil {
			continue // the fd ReadDir itself used
		}
		m[fd] = target
	}
	return m
}

// loopback is 127.0.0.1:0.
var loopback = netip.MustParseAddrPort("127.0.0.1:0")

// listenTCP starts a TCP listener on 127.0.0.1:0 and returns it with its address.
func listenTCP(t testing.TB, l *uvloop.Loop, onConn func(server *uvloop.TCP, err error)) (*uvloop.TCP, netip.AddrPort) {
	t.Helper()
	s, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, s.Bind(loopback, 0))
	mustOK(t, s.Listen(128, func(err error) { onConn(s, err) }))
	addr, err := s.LocalAddr()
	mustOK(t, err)
	return s, addr
}

// acceptTCP accepts the waiting connection into a new handle.
func acceptTCP(t testing.TB, server *uvloop.TCP) *uvloop.TCP {
	t.Helper()
	c, err := server.Loop().NewTCP()
	mustOK(t, err)
	mustOK(t, server.Accept(c))
	return c
}

// echo makes s echo what it reads, copying the loop-owned bytes, with backpressure: it
// stops reading while more than limit bytes are queued and resumes on drain. At the end of
// the stream it shuts its side down and, once that is done, closes, then calls done (if
// not nil).
func echo(t testing.TB, s uvloop.Stream, limit int, done func()) {
	var onRead func(data []byte, err error)
	paused := false
	onRead = func(data []byte, err error) {
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Errorf("echo read: %v", err)
				s.Close(nil)
				return
			}
			if err := s.Shutdown(func(error) { s.Close(done) }); err != nil {
				s.Close(done)
			}
			return
		}
		if err := s.Write(append([]byte(nil), data...), nil); err != nil {
			t.Errorf("echo write: %v", err)
		}
		if s.WriteQueueSize() > limit {
			paused = true
			s.ReadStop()
		}
	}
	s.OnDrain(func() {
		if paused && !s.IsClosing() {
			paused = false
			s.ReadStart(onRead)
		}
	})
	mustOK(t, s.ReadStart(onRead))
}

// runLoop runs l until it is no longer alive.
func runLoop(t testing.TB, l *uvloop.Loop) {
	t.Helper()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatalf("run: %v", err)
	}
}
