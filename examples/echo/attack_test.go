//go:build linux

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The Attack tests are hostile and unusual clients against the echo server (resets with writes
// queued, half-closes, clients that never read, floods, storms, running out of fds), on the
// backend the loop gets (UVGO_BACKEND; CI runs them on io_uring, which auto gives these locked
// loops where the kernel allows it, and on epoll): every byte a well-behaved client sends is
// answered, a misbehaving one is cut off without harm to the others, and stopping the server
// under all of it returns and leaves no fd behind.

// backendName reports which backend this process's loops run on: a ring fd open means
// io_uring (the server's loop holds one while it runs).
func backendName(t *testing.T) string {
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		l, _ := os.Readlink("/proc/self/fd/" + e.Name())
		if strings.Contains(l, "io_uring") {
			return "io_uring"
		}
	}
	return "epoll"
}

func fdCount(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// serve starts the server and checks on cleanup that stop returns within 5 s and that no
// fd is left behind.
func serve(t *testing.T) string {
	t.Helper()
	before := fdCount(t)
	bound, stop, err := Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("backend %s", backendName(t))
	t.Cleanup(func() {
		done := make(chan error, 1)
		go func() { done <- stop() }()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("stop did not return within 5 s")
		}
		// Client sockets the test opened are closed by their own cleanups before this one
		// runs (cleanups are LIFO and serve is called first).
		deadline := time.Now().Add(2 * time.Second)
		for {
			after := fdCount(t)
			if after <= before {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%d fds before, %d after stop", before, after)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	return bound.String()
}

func pattern(seed, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(seed*131 + i*7 + i>>9)
	}
	return b
}

// echoOnce sends msg (from a goroutine) while reading its echo; checks it whole.
func echoOnce(c net.Conn, msg []byte) error {
	werr := make(chan error, 1)
	go func() { _, err := c.Write(msg); werr <- err }()
	got := make([]byte, len(msg))
	_, rerr := io.ReadFull(c, got)
	if err := <-werr; err != nil {
		return fmt.Errorf("write: %w", err)
	}
	if rerr != nil {
		return fmt.Errorf("read: %w", rerr)
	}
	if !bytes.Equal(got, msg) {
		return errors.New("echo differs")
	}
	return nil
}

// goodClients runs n well-behaved clients until stop closes, each echoing size-byte
// messages; it returns a function that waits and reports the rounds and errors.
func goodClients(t *testing.T, addr string, n, size int, stop <-chan struct{}) func() {
	var wg sync.WaitGroup
	var rounds atomic.Int64
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(15 * time.Second))
			for r := 0; ; r++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := echoOnce(c, pattern(i+r, size)); err != nil {
					errs <- fmt.Errorf("good client %d round %d: %w", i, r, err)
					return
				}
				rounds.Add(1)
			}
		})
	}
	return func() {
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if rounds.Load() == 0 {
			t.Error("good clients made no round")
		}
		t.Logf("good clients: %d rounds", rounds.Load())
	}
}

// TestAttackResetWithQueuedWrites: clients send a lot without reading (the server's
// writes queue), then reset (SO_LINGER 0). Others keep echoing.
func TestAttackResetWithQueuedWrites(t *testing.T) {
	addr := serve(t)
	stop := make(chan struct{})
	wait := goodClients(t, addr, 4, 32<<10, stop)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			c.SetWriteDeadline(time.Now().Add(time.Duration(50+i*10) * time.Millisecond))
			msg := pattern(i, 8<<20)
			c.Write(msg) // blocks until the deadline: the server's writes back up
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		})
	}
	wg.Wait()
	time.Sleep(100 * time.Millisecond)
	close(stop)
	wait()
	// The loop still serves.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if err := echoOnce(c, pattern(1, 1<<20)); err != nil {
		t.Fatal(err)
	}
}

// TestAttackHalfCloseConcurrent: many clients at once send (in pieces of odd sizes) and
// half-close; each must get back all it sent, then EOF.
func TestAttackHalfCloseConcurrent(t *testing.T) {
	addr := serve(t)
	for round := range 2 {
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Go(func() {
				size := []int{1, 100, 4096, 65536, 65537, 300000, 1 << 20, 3<<20 + 5}[i%8]
				msg := pattern(i+round, size)
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Error(err)
					return
				}
				defer c.Close()
				c.SetDeadline(time.Now().Add(8 * time.Second))
				werr := make(chan error, 1)
				go func() {
					var err error
					piece := 1 + i*97
					for b := msg; len(b) > 0 && err == nil; b = b[min(piece, len(b)):] {
						_, err = c.Write(b[:min(piece, len(b))])
					}
					if err == nil {
						err = c.(*net.TCPConn).CloseWrite()
					}
					werr <- err
				}()
				got, err := io.ReadAll(c)
				if werr := <-werr; werr != nil {
					t.Errorf("round %d client %d (%d bytes): write: %v", round, i, size, werr)
					return
				}
				if err != nil {
					t.Errorf("round %d client %d (%d bytes): read: %v after %d bytes", round, i, size, err, len(got))
					return
				}
				if !bytes.Equal(got, msg) {
					t.Errorf("round %d client %d: got %d bytes of %d (or different ones)", round, i, len(got), size)
				}
			})
		}
		wg.Wait()
	}
}

// TestAttackHalfCloseNoRead: the client sends a lot, half-closes at once, and only then
// starts reading, late: the server's queue is full when the end comes.
func TestAttackHalfCloseNoRead(t *testing.T) {
	addr := serve(t)
	for round := range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(8 * time.Second))
		msg := pattern(round, 6<<20)
		werr := make(chan error, 1)
		go func() {
			_, err := c.Write(msg)
			if err == nil {
				err = c.(*net.TCPConn).CloseWrite()
			}
			werr <- err
		}()
		time.Sleep(300 * time.Millisecond)
		got, err := io.ReadAll(c)
		c.Close()
		if werr := <-werr; werr != nil {
			t.Fatalf("round %d: write: %v", round, werr)
		}
		if err != nil {
			t.Fatalf("round %d: read: %v after %d", round, err, len(got))
		}
		if !bytes.Equal(got, msg) {
			t.Fatalf("round %d: got %d bytes of %d (or different ones)", round, len(got), len(msg))
		}
	}
}

// TestAttackNeverReader: clients that send and never read (server backpressure) while
// others echo; then the never-readers disconnect (plain close, with data unread).
func TestAttackNeverReader(t *testing.T) {
	addr := serve(t)
	var hogs []net.Conn
	var hw sync.WaitGroup
	for i := range 8 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		hogs = append(hogs, c)
		hw.Go(func() {
			msg := pattern(i, 64<<10)
			for {
				if _, err := c.Write(msg); err != nil {
					return
				}
			}
		})
	}
	stop := make(chan struct{})
	wait := goodClients(t, addr, 8, 4096, stop)
	time.Sleep(1500 * time.Millisecond)
	close(stop)
	wait()
	for _, c := range hogs {
		c.Close()
	}
	hw.Wait()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if err := echoOnce(c, pattern(9, 2<<20)); err != nil {
		t.Fatal(err)
	}
}

// TestAttackAbandon: thousands of connections opened, some sending a little, and left
// without reading; then all closed (half of them reset). The loop keeps serving.
func TestAttackAbandon(t *testing.T) {
	addr := serve(t)
	const n = 3000
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		conns = append(conns, c)
		if i%3 == 0 {
			c.Write(pattern(i, 1000+i))
		}
	}
	stop := make(chan struct{})
	wait := goodClients(t, addr, 4, 1000, stop)
	for i, c := range conns {
		if i%2 == 0 {
			c.(*net.TCPConn).SetLinger(0)
		}
		c.Close()
	}
	conns = conns[:0]
	time.Sleep(200 * time.Millisecond)
	close(stop)
	wait()
}

// TestAttackStorm: connect-send-close storms (some resets, some plain closes, some with a
// half-close) while big echoes are in flight, then stop during the storm.
func TestAttackStorm(t *testing.T) {
	addr := serve(t)
	stop := make(chan struct{})
	wait := goodClients(t, addr, 3, 256<<10, stop)
	var wg sync.WaitGroup
	var dials atomic.Int64
	for w := range 6 {
		wg.Go(func() {
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				c, err := net.Dial("tcp", addr)
				if err != nil {
					continue
				}
				dials.Add(1)
				c.Write(pattern(w+k, 1+(k*977)%200000))
				switch k % 3 {
				case 0:
					c.(*net.TCPConn).SetLinger(0)
				case 1:
					c.(*net.TCPConn).CloseWrite()
					c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
					c.Read(make([]byte, 100))
				}
				c.Close()
			}
		})
	}
	time.Sleep(2 * time.Second)
	close(stop)
	wg.Wait()
	wait()
	t.Logf("%d storm dials", dials.Load())
}

// TestAttackStopUnderLoad runs stop while clients are in the middle of big echoes, with
// writes queued and never-readers: stop must return, clients must see the end.
func TestAttackStopUnderLoad(t *testing.T) {
	for round := range 3 {
		before := fdCount(t)
		bound, stop, err := Serve("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := bound.String()
		var wg sync.WaitGroup
		var conns []net.Conn
		var mu sync.Mutex
		for i := range 16 {
			wg.Go(func() {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
				c.SetDeadline(time.Now().Add(8 * time.Second))
				msg := pattern(i, 4<<20)
				if i%2 == 0 {
					go io.Copy(io.Discard, c)
				}
				for {
					if _, err := c.Write(msg); err != nil {
						return
					}
				}
			})
		}
		time.Sleep(time.Duration(100+round*150) * time.Millisecond)
		done := make(chan error, 1)
		go func() { done <- stop() }()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("round %d: stop did not return", round)
		}
		wg.Wait() // the writers see the connection end
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		time.Sleep(50 * time.Millisecond)
		if after := fdCount(t); after > before {
			t.Errorf("round %d: %d fds before, %d after", round, before, after)
		}
	}
}

// TestAttackManyConcurrent: 300 clients echo 100 KB at once, more than the ring's shared
// receive buffers hold (ENOBUFS, receives armed again); every byte must come back in order.
func TestAttackManyConcurrent(t *testing.T) {
	addr := serve(t)
	var wg sync.WaitGroup
	start := make(chan struct{})
	var bad atomic.Int64
	for i := range 300 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			defer c.Close()
			c.SetDeadline(time.Now().Add(9 * time.Second))
			<-start
			if err := echoOnce(c, pattern(i, 100_000+i)); err != nil {
				if bad.Add(1) <= 3 {
					t.Errorf("client %d: %v", i, err)
				}
			}
		})
	}
	close(start)
	wg.Wait()
	if bad.Load() > 0 {
		t.Errorf("%d clients of 300 failed", bad.Load())
	}
}

// TestAttackHalfCloseThenReset: the client sends a lot, half-closes, reads a little, then
// resets: the server's Shutdown is pending with writes queued when the reset comes.
func TestAttackHalfCloseThenReset(t *testing.T) {
	addr := serve(t)
	stop := make(chan struct{})
	wait := goodClients(t, addr, 3, 8192, stop)
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Go(func() {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			c.SetDeadline(time.Now().Add(5 * time.Second))
			go func() {
				c.Write(pattern(i, 2<<20))
				c.(*net.TCPConn).CloseWrite()
			}()
			io.ReadFull(c, make([]byte, 1000*i))
			time.Sleep(time.Duration(i%7) * 10 * time.Millisecond)
			c.(*net.TCPConn).SetLinger(0)
			c.Close()
		})
	}
	wg.Wait()
	close(stop)
	wait()
}

// TestAttackEMFILE: the process runs out of fds while clients connect (the server's accepts
// fail with EMFILE: the reserve-fd trick sheds them); once fds are back, the server accepts
// and echoes again, and the connections it kept still echo.
func TestAttackEMFILE(t *testing.T) {
	addr := serve(t)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	var kept []net.Conn
	for range 20 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, c)
		defer c.Close()
		if err := echoOnce(c, []byte("warm")); err != nil {
			t.Fatal(err)
		}
	}
	low := lim
	low.Cur = uint64(fdCount(t) + 60)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	var storm []net.Conn
	for range 200 {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break // the client is out of fds too
		}
		storm = append(storm, c)
		c.Write([]byte("x"))
	}
	time.Sleep(200 * time.Millisecond)
	for _, c := range storm {
		c.Close()
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d storm connections", len(storm))
	time.Sleep(100 * time.Millisecond)
	for i, c := range kept {
		c.SetDeadline(time.Now().Add(3 * time.Second))
		if err := echoOnce(c, pattern(i, 70000)); err != nil {
			t.Errorf("kept %d: %v", i, err)
		}
	}
	for i := range 50 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(3 * time.Second))
		if err := echoOnce(c, pattern(i, 1000)); err != nil {
			t.Errorf("new %d: %v", i, err)
		}
		c.Close()
	}
}
