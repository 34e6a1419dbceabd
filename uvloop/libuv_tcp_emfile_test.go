package uvloop_test

import (
	"net"
	"os"
	"os/exec"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// emfile (test-emfile.c): with every fd in use but one, a client connects to our listener.
// The client's socket takes the last fd, so the listener's accept fails with EMFILE; it
// sheds the connection as libuv does (closes its reserve fd, accepts and closes the queued
// connections, reopens the reserve). The connection callback never runs; the client's
// connect succeeds (the kernel completed the handshake), its callback closes the server, and
// the client then reads the end of the shed connection.
//
// Lowering RLIMIT_NOFILE would starve the rest of the test binary, so the test re-executes
// itself as a child that does only this, once per backend (through the ring, the multishot
// accept reports EMFILE and the listener sheds alike).
func TestTCPEmfile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts the open fds in /proc/self/fd")
	}
	if os.Getenv("UVGO_EMFILE_CHILD") == "1" {
		emfileChild(t)
		return
	}
	eachBackend(t, func(t *testing.T, b uvloop.Backend) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTCPEmfile$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "UVGO_EMFILE_CHILD=1", uvloop.BackendEnv+"="+b.String())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		t.Logf("child:\n%s", out)
	})
}

func emfileChild(t *testing.T) {
	l := newLoop(t)
	server, err := l.NewTCP()
	mustOK(t, err)
	client, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, server.Bind(loopback, 0))
	mustOK(t, server.Listen(8, func(err error) { t.Fatalf("connection callback ran (%v)", err) }))
	addr, err := server.LocalAddr()
	mustOK(t, err)

	// The runtime opens its own poller's fds on first use: let that happen before the fds run
	// out (it fails fatally when it cannot).
	if ln, err := net.Listen("tcp", "127.0.0.1:0"); err == nil {
		ln.Close()
	}
	// Lower the limit to a little above what is open, then use up every fd but one.
	dups := useUpFds(t)
	unix.Close(dups[len(dups)-1])
	dups = dups[:len(dups)-1]
	defer func() {
		for _, fd := range dups {
			unix.Close(fd)
		}
	}()

	connects, shed := 0, false
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		connects++
		server.Close(nil)
		// Beyond libuv's test: the shed connection reads as closed.
		mustOK(t, client.ReadStart(func(data []byte, err error) {
			if err == nil {
				t.Fatalf("read %q from a shed connection", data)
			}
			shed = true
			client.Close(nil)
		}))
	}))
	runLoop(t, l)
	if connects != 1 || !shed {
		t.Fatalf("%d connect callbacks (want 1), connection shed %v", connects, shed)
	}
	closeLoop(t, l)
}

// useUpFds lowers RLIMIT_NOFILE to a little above what is open and duplicates fd 0 until no
// fd is left; it returns the duplicates, for the caller to close.
func useUpFds(t *testing.T) []int {
	t.Helper()
	n := len(openFds(t))
	var lim unix.Rlimit
	setLimit(&lim.Cur, &lim.Max, n+16)
	mustOK(t, unix.Setrlimit(unix.RLIMIT_NOFILE, &lim))
	var dups []int
	for {
		fd, err := unix.Dup(0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			if err != unix.EMFILE {
				t.Fatalf("dup: %v", err)
			}
			return dups
		}
		dups = append(dups, fd)
	}
}

// setLimit sets both fields of an Rlimit, whose type differs by system (uint64 on Linux,
// int64 on FreeBSD and DragonFly).
func setLimit[T int64 | uint64](cur, max *T, n int) {
	*cur, *max = T(n), T(n)
}
