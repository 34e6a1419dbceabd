package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestEchoClients(t *testing.T) {
	bound, stop, err := Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	tests := []struct {
		name    string
		clients int
		size    int
		rounds  int
	}{
		{name: "small messages", clients: 8, size: 64, rounds: 200},
		{name: "one byte", clients: 3, size: 1, rounds: 100},
		{name: "1 MiB messages", clients: 4, size: 1 << 20, rounds: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wg sync.WaitGroup
			errs := make(chan error, tt.clients)
			for i := range tt.clients {
				wg.Go(func() {
					if err := client(bound.String(), byte(i), tt.size, tt.rounds); err != nil {
						errs <- err
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// client sends rounds messages of size bytes and checks that each comes back whole. A
// 1 MiB message is written while its echo is read, so the server's writes back up.
func client(addr string, seed byte, size, rounds int) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	msg := make([]byte, size)
	got := make([]byte, size)
	for r := range rounds {
		for i := range msg {
			msg[i] = seed + byte(r) + byte(i*7)
		}
		werr := make(chan error, 1)
		go func() { _, err := c.Write(msg); werr <- err }()
		if _, err := io.ReadFull(c, got); err != nil {
			return err
		}
		if err := <-werr; err != nil {
			return err
		}
		if !bytes.Equal(got, msg) {
			return fmt.Errorf("client %d round %d: echo differs", seed, r)
		}
	}
	return nil
}

// TestEchoSlowReader makes the server's socket fill up: a client sends 16 MiB and reads
// nothing for a while, so TryWrite leaves rests that are queued and reading stops.
func TestEchoSlowReader(t *testing.T) {
	bound, stop, err := Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	c, err := net.Dial("tcp", bound.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	msg := make([]byte, 16<<20)
	for i := range msg {
		msg[i] = byte(i * 13 / 7)
	}
	werr := make(chan error, 1)
	go func() { _, err := c.Write(msg); werr <- err }()
	time.Sleep(200 * time.Millisecond)
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if err := <-werr; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, msg) {
		t.Fatal("echo differs")
	}
}

// TestEchoHalfClose has the client send its last bytes and half-close at once: everything
// it sent must still come back before the server closes (through the ring, reads go on while
// writes are in flight, so the end of the stream can arrive with writes queued).
func TestEchoHalfClose(t *testing.T) {
	bound, stop, err := Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := stop(); err != nil {
			t.Error(err)
		}
	}()
	msg := make([]byte, 4<<20)
	for i := range msg {
		msg[i] = byte(i * 31 / 11)
	}
	for round := range 5 {
		c, err := net.Dial("tcp", bound.String())
		if err != nil {
			t.Fatal(err)
		}
		werr := make(chan error, 1)
		go func() {
			var err error
			for b := msg; len(b) > 0 && err == nil; b = b[min(1000, len(b)):] {
				_, err = c.Write(b[:min(1000, len(b))])
			}
			if err == nil {
				err = c.(*net.TCPConn).CloseWrite()
			}
			werr <- err
		}()
		got, err := io.ReadAll(c)
		c.Close()
		if err := <-werr; err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("round %d: got %d bytes back of %d (or different ones)", round, len(got), len(msg))
		}
	}
}

// TestEchoAllocs checks that echoing a message allocates nothing in steady state, on the
// server and (net.Conn's Write and Read) on the client.
func TestEchoAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("measures allocations")
	}
	bound, stop, err := Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c, err := net.Dial("tcp", bound.String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	msg, got := make([]byte, 128), make([]byte, 128)
	echo := func() {
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, got); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		echo()
	}
	if n := testing.AllocsPerRun(2000, echo); n > 0.01 {
		t.Errorf("%.3f allocations per echoed message, want 0", n)
	}
}

func TestServeBadAddress(t *testing.T) {
	for _, addr := range []string{"nonsense", "127.0.0.1:99999", "256.0.0.1:0"} {
		if _, _, err := Serve(addr); err == nil {
			t.Errorf("Serve(%q) succeeded", addr)
		}
	}
}

func Example() {
	bound, stop, err := Serve("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	c, err := net.Dial("tcp", bound.String())
	if err != nil {
		panic(err)
	}
	c.Write([]byte("hello, loop\n"))
	buf := make([]byte, 12)
	io.ReadFull(c, buf)
	fmt.Printf("%s", buf)
	c.Close()
	if err := stop(); err != nil {
		panic(err)
	}
	// Output: hello, loop
}

// SIGTERM stops the server accepting; the connection open goes on until its client closes
// it, and then the loop ends cleanly.
func TestEchoShutdownOnSignal(t *testing.T) {
	bound, wait, err := ServeUntilSignal("127.0.0.1:0", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", bound.String())
	if err != nil {
		t.Fatal(err)
	}
	echo := func(msg string) {
		t.Helper()
		if _, err := c.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, len(msg))
		if _, err := io.ReadFull(c, buf); err != nil || string(buf) != msg {
			t.Fatalf("echo %q: %q, %v", msg, buf, err)
		}
	}
	echo("before")
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for { // the listener closes once the loop has the signal
		d, err := net.Dial("tcp", bound.String())
		if err != nil {
			break
		}
		d.Close()
		time.Sleep(time.Millisecond)
	}
	echo("after")
	c.Close()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
}
