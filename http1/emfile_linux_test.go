//go:build linux

package http1

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
	"golang.org/x/sys/unix"
)

// TestServerEmfile: a server with a few fds to spare is flooded with connections that send
// nothing. It sheds what it cannot accept (uvloop's EMFILE handling closes them at once),
// the ones it holds end at the headers timeout, and a legitimate client gets through. The
// server runs in a child process with a lowered RLIMIT_NOFILE, so as not to starve this one.
func TestServerEmfile(t *testing.T) {
	if os.Getenv("UVGO_HTTP_EMFILE_CHILD") == "1" {
		emfileChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerEmfile$", "-test.count=1")
	cmd.Env = append(os.Environ(), "UVGO_HTTP_EMFILE_CHILD=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "ADDR ") {
		t.Fatalf("child: %q %v\n%s", line, err, stderr.String())
	}
	addr := strings.TrimSpace(strings.TrimPrefix(line, "ADDR "))

	var flood []net.Conn
	for range 40 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			continue // the backlog is full: that is shedding too
		}
		flood = append(flood, c)
	}
	// A legitimate client retries until it is served: once the held connections time out.
	served := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.SetDeadline(time.Now().Add(2 * time.Second))
			c.Write([]byte(get))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			c.Close()
			if err == nil && resp.StatusCode == 200 {
				served = true
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, c := range flood {
		c.Close()
	}
	stdin.Close()
	rest, _ := io.ReadAll(out)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v\n%s\n%s", err, rest, stderr.String())
	}
	if !served {
		t.Fatalf("the legitimate client was locked out; child: %s", rest)
	}
	t.Logf("child: %s", rest)
}

func emfileChild(t *testing.T) {
	loop, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(loop, hello, HeadersTimeout(200*time.Millisecond))
	ap, err := srv.ListenTCP("127.0.0.1:0", 0)
	if err != nil {
		t.Fatal(err)
	}
	// The runtime opens its own poller's fds on first use (a net listener, or a timer it
	// needs): let that happen before the fds run out, or it fails fatally then. Through the
	// ring the kernel takes each flood connection's fd the moment it arrives, so the process
	// sits at its limit for most of the test and that moment came (about 1 run in 2).
	if ln, err := net.Listen("tcp", "127.0.0.1:0"); err == nil {
		ln.Close()
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	lim := unix.Rlimit{Cur: uint64(len(ents) + 4), Max: uint64(len(ents) + 4)}
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("ADDR %v\n", ap)
	go func() {
		io.Copy(io.Discard, os.Stdin) // until the parent closes it
		loop.Post(func() { srv.Close(nil) })
	}()
	if _, err := loop.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	st := srv.Stats()
	fmt.Printf("accepted=%d requests=%d timeouts=%d refused=%d\n", st.Accepted, st.Requests, st.Timeouts, st.Refused)
	if err := errors.Join(loop.Close()); err != nil {
		t.Fatal(err)
	}
	if st.Timeouts == 0 || st.Requests == 0 {
		t.Fatalf("%+v", st)
	}
}
