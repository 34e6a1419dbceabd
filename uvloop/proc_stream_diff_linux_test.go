package uvloop_test

import (
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/uvloop"
)

// Differential tests of a stream handed to a child process: each scenario runs on a loop per
// backend (epoll, then io_uring), unlocked and WithLockOSThread, and the logs must be the same;
// a hang fails. (From the review of processes on io_uring, branch rev3-proc.)

// procDiff runs scenario on each backend, locked or not, and fails when the logs differ.
func procDiff(t *testing.T, scenario func(t *testing.T, l *uvloop.Loop) []string) {
	for _, locked := range []bool{false, true} {
		t.Run(fmt.Sprintf("locked=%v", locked), func(t *testing.T) {
			logs := map[uvloop.Backend][]string{}
			for _, b := range []uvloop.Backend{uvloop.BackendEpoll, uvloop.BackendIOURing} {
				if err := poller.Available(b); err != nil {
					t.Skipf("%v: %v", b, err)
				}
				ok := t.Run(b.String(), func(t *testing.T) {
					checkFds(t)
					opts := []uvloop.Option{uvloop.WithBackend(b)}
					if locked {
						opts = append(opts, uvloop.WithLockOSThread())
					}
					l := newLoopWith(t, opts...)
					if l.Backend() != b {
						t.Fatalf("backend %v, want %v", l.Backend(), b)
					}
					logs[b] = scenario(t, l)
					closeLoop(t, l)
				})
				if !ok {
					return
				}
			}
			e, u := logs[uvloop.BackendEpoll], logs[uvloop.BackendIOURing]
			if strings.Join(e, "\n") != strings.Join(u, "\n") {
				t.Errorf("the backends differ:\nepoll:    %q\nio_uring: %q", e, u)
			}
		})
	}
}

// runWithin runs the loop until it ends, failing on a hang (then it stops it).
func runWithin(t *testing.T, l *uvloop.Loop, d time.Duration) {
	t.Helper()
	within(t, d, "Run", func() { l.Post(l.Stop) }, func() {
		if _, err := l.Run(uvloop.RunDefault); err != nil {
			t.Errorf("run: %v", err)
		}
	})
}

func errName(err error) string { return ringWriteErr(err) }

// TestDiffChildFloodStdout: a child writes 4 MiB to its stdout pipe; the loop reads it all,
// then EOF, then the exit.
func TestDiffChildFloodStdout(t *testing.T) {
	procDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var log []string
		out, err := l.NewPipe()
		mustOK(t, err)
		total := 0
		exited := false
		spawnShell(t, l, "head -c 4194304 /dev/zero", []uvloop.StdioContainer{{}, {Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true}},
			func(p *uvloop.Process, st int64, sig syscall.Signal) {
				exited = true
				log = append(log, fmt.Sprintf("exit %d %d", st, sig))
				p.Close(nil)
			})
		mustOK(t, out.ReadStart(func(b []byte, err error) {
			if err != nil {
				log = append(log, fmt.Sprintf("read %d then %s", total, errName(err)))
				out.Close(nil)
				return
			}
			total += len(b)
		}))
		runWithin(t, l, 30*time.Second)
		if !exited {
			log = append(log, "no exit")
		}
		sortTail(log)
		return log
	})
}

// sortTail puts the log's lines in a fixed order where the order is a race (exit vs EOF).
func sortTail(log []string) {
	for i := 1; i < len(log); i++ {
		for j := i; j > 0 && log[j] < log[j-1]; j-- {
			log[j], log[j-1] = log[j-1], log[j]
		}
	}
}

// TestDiffHandOffStreamToChild: a loop reads a header from a stream, stops reading, and hands
// the socket to a child as its stdin (StdioInheritStream), then closes its handle, the
// pattern of a server that passes a connection on. The bytes that arrive after ReadStop
// are the child's: cat copies them to its stdout. The peer writes them right after the
// ReadStop, from the read callback (as a peer would at that moment).
func TestDiffHandOffStreamToChild(t *testing.T) {
	procDiff(t, func(t *testing.T, l *uvloop.Loop) []string { return handOffToCat(t, l, true) })
}

// TestDiffHandOffStreamAfterClose: as TestDiffHandOffStreamToChild, but the peer writes only
// after the parent closed its handle: every byte is the child's.
func TestDiffHandOffStreamAfterClose(t *testing.T) {
	procDiff(t, func(t *testing.T, l *uvloop.Loop) []string { return handOffToCat(t, l, false) })
}

// handOffToCat is the hand-off scenario: the peer writes the body before Spawn (early) or
// after the parent's Close.
func handOffToCat(t *testing.T, l *uvloop.Loop, early bool) []string {
	var log []string
	hs, peers := ringStreams(t, l, 1)
	h, peer := hs[0], peers[0]
	out, _ := l.NewPipe()
	var got []byte
	peerWrites := func() {
		unix.Write(peer, []byte("body\n"))
		unix.Shutdown(peer, unix.SHUT_WR)
	}
	mustOK(t, h.ReadStart(func(b []byte, err error) {
		log = append(log, fmt.Sprintf("parent read %q %s", b, errName(err)))
		h.ReadStop()
		if early {
			peerWrites()
		}
		spawnShell(t, l, "cat", []uvloop.StdioContainer{{Flags: uvloop.StdioInheritStream, Stream: h}, {Flags: uvloop.StdioCreatePipe, Stream: out, Writable: true}},
			func(p *uvloop.Process, st int64, sig syscall.Signal) {
				log = append(log, fmt.Sprintf("exit %d %d", st, sig))
				p.Close(nil)
			})
		h.Close(nil)
		if !early {
			peerWrites()
		}
		mustOK(t, out.ReadStart(func(b []byte, err error) {
			if err != nil {
				log = append(log, fmt.Sprintf("child wrote %q", got))
				out.Close(nil)
				return
			}
			got = append(got, b...)
		}))
	}))
	unix.Write(peer, []byte("header"))
	runWithin(t, l, 10*time.Second)
	sortTail(log)
	return log
}

// TestDiffCloseWithBytesArrivedAfterReadStop: the same root as TestDiffHandOffStreamToChild
// seen from the peer: bytes that arrive right after ReadStop stay unread in the socket on
// epoll, so Close resets the connection (the peer reads ECONNRESET); on io_uring they must
// too (the receive, still armed until RecvStop submitted its cancellation at once, read them
// into the loop, and the close was a clean FIN).
func TestDiffCloseWithBytesArrivedAfterReadStop(t *testing.T) {
	procDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var log []string
		var peer net.Conn
		_, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
			c, _ := l.NewTCP()
			mustOK(t, server.Accept(c))
			mustOK(t, c.ReadStart(func(b []byte, err error) {
				log = append(log, fmt.Sprintf("read %q %s", b, errName(err)))
				c.ReadStop()
				peer.Write([]byte("more"))
				time.Sleep(10 * time.Millisecond) // the bytes cross loopback
				c.Close(nil)
				server.Close(nil)
			}))
		})
		var err error
		peer, err = net.Dial("tcp", addr.String())
		mustOK(t, err)
		defer peer.Close()
		peer.Write([]byte("first"))
		runWithin(t, l, 10*time.Second)
		peer.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err = peer.Read(make([]byte, 8))
		log = append(log, "peer reads "+errName(err))
		return log
	})
}

// TestDiffWriteThenChildWrites: the CGI pattern: the loop writes a header to a stream, then
// spawns a child whose stdout is that stream (StdioInheritStream) to write the body, and
// closes its handle. On epoll Write has written the header before Spawn returns, so the
// peer reads header then body. The callback then does some other work (100 ms here,
// standing for more spawns or computation) before it returns.
func TestDiffWriteThenChildWrites(t *testing.T) {
	procDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		var log []string
		hs, peers := ringStreams(t, l, 1)
		h, peer := hs[0], peers[0]
		tm := l.NewTimer(func(tm *uvloop.Timer) {
			tm.Close(nil)
			mustOK(t, h.Write([]byte("header\n"), func(err error) { log = append(log, "write "+errName(err)) }))
			spawnShell(t, l, "echo body", []uvloop.StdioContainer{{}, {Flags: uvloop.StdioInheritStream, Stream: h}},
				func(p *uvloop.Process, st int64, sig syscall.Signal) {
					log = append(log, fmt.Sprintf("exit %d %d", st, sig))
					p.Close(nil)
				})
			time.Sleep(100 * time.Millisecond)
			h.Close(nil)
		})
		tm.Start(time.Millisecond, 0)
		runWithin(t, l, 10*time.Second)
		unix.Shutdown(peer, unix.SHUT_WR)
		buf := make([]byte, 64)
		var got []byte
		for {
			n, err := unix.Read(peer, buf)
			if n <= 0 || err != nil {
				break
			}
			got = append(got, buf[:n]...)
		}
		log = append(log, fmt.Sprintf("peer read %q", got))
		sortTail(log)
		return log
	})
}
