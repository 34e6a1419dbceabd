package uvloop_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/uvloop"
)

// Differential tests of TCP streams: each scenario runs on a loop per backend (epoll and
// io_uring), logs the callbacks, and the logs must be the same (and what libuv documents).

// floodPeer writes total bytes of a counting pattern (byte i is i%251) to p from a goroutine,
// size bytes at a time, then half-closes it.
func floodPeer(p *net.TCPConn, total, size int) {
	go func() {
		buf := make([]byte, size)
		for off := 0; off < total; off += len(buf) {
			for i := range buf {
				buf[i] = byte((off + i) % 251)
			}
			if _, err := p.Write(buf); err != nil {
				break
			}
		}
		p.CloseWrite()
	}()
}

// patternReader checks what a stream reads against floodPeer's pattern.
type patternReader struct {
	got, bad, eofs, afterEOF int
	log                      []string
}

// take checks one read callback's arguments; it reports whether they carried bytes.
func (r *patternReader) take(b []byte, err error) bool {
	if r.eofs > 0 {
		r.afterEOF++
	}
	if err != nil {
		r.log = append(r.log, "err "+ringWriteErr(err))
		r.eofs++
		return false
	}
	for i, x := range b {
		if x != byte((r.got+i)%251) {
			r.bad++
			break
		}
	}
	r.got += len(b)
	return true
}

// finish runs l to the end of the stream and a few turns more, closes tm (if not nil) and c,
// and returns the log with the counts.
func (r *patternReader) finish(t *testing.T, l *uvloop.Loop, c *uvloop.TCP, tm *uvloop.Timer) []string {
	t.Helper()
	runFor(t, l, "eof", func() bool { return r.eofs > 0 })
	for range 5 {
		mustRunMode(t, l, uvloop.RunNoWait)
	}
	r.log = append(r.log, fmt.Sprintf("got %d bad %d eofs %d afterEOF %d", r.got, r.bad, r.eofs, r.afterEOF))
	if tm != nil {
		tm.Close(nil)
	}
	closeRunning(t, l, c)
	return r.log
}

// closeRunning closes c and runs l until its close callback has run.
func closeRunning(t *testing.T, l *uvloop.Loop, c *uvloop.TCP) {
	t.Helper()
	closed := false
	c.Close(func() { closed = true })
	runFor(t, l, "close", func() bool { return closed })
}

// smallBufs makes the loop end's send buffer small so that a few hundred KiB fill them.
func smallBufs(t *testing.T, c *uvloop.TCP, p *net.TCPConn) {
	mustOK(t, syscall.SetsockoptInt(c.Fd(), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096))
	_ = p // a tiny receive buffer stalls loopback in zero-window probes
}

// runFor runs l until done or 5 s pass.
func runFor(t *testing.T, l *uvloop.Loop, what string, done func() bool) {
	t.Helper()
	runUntil(t, l, what, done)
}

// Close with a send in flight (the socket full) and more writes queued: every write
// callback runs once, with ECANCELED, before the close callback (uv__stream_destroy).
func TestRingTCPCloseWithSendInFlight(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		smallBufs(t, c, p)
		var log []string
		big := make([]byte, 4<<20)
		for i := 0; i < 4; i++ {
			i := i
			mustOK(t, c.Write(big[:len(big)-i], func(err error) { log = append(log, fmt.Sprintf("w%d %s", i, ringWriteErr(err))) }))
		}
		// Let the first send go to the kernel and stall there.
		for i := 0; i < 5; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		log = append(log, fmt.Sprintf("queued>0 %v", c.WriteQueueSize() > 0))
		closed := false
		c.Close(func() { log = append(log, "close"); closed = true })
		runFor(t, l, "close", func() bool { return closed })
		return log
	})
}

// Shutdown with writes queued behind a full socket; the peer then reads everything: the
// write callbacks, then the shutdown callback, then the peer sees EOF after all the bytes.
func TestRingTCPShutdownQueuedThenPeerReads(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		smallBufs(t, c, p)
		var log []string
		data := make([]byte, 1<<20)
		for i := range data {
			data[i] = byte(i * 7)
		}
		mustOK(t, c.Write(data[:1<<19], func(err error) { log = append(log, "w0 "+ringWriteErr(err)) }))
		mustOK(t, c.Writev([][]byte{data[1<<19 : 3<<18], nil, data[3<<18:]}, func(err error) { log = append(log, "w1 "+ringWriteErr(err)) }))
		mustOK(t, c.Write(nil, func(err error) { log = append(log, "w2 "+ringWriteErr(err)) }))
		shut := false
		mustOK(t, c.Shutdown(func(err error) { log = append(log, "shutdown "+ringWriteErr(err)); shut = true }))
		if err := c.Write([]byte("x"), nil); err == nil {
			log = append(log, "write after shutdown accepted")
		}
		var got []byte
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, _ = io.ReadAll(p)
		}()
		runFor(t, l, "shutdown", func() bool { return shut })
		wg.Wait()
		log = append(log, fmt.Sprintf("peer got all %v", bytes.Equal(got, data)))
		closeRunning(t, l, c)
		return log
	})
}

// The peer resets (SO_LINGER 0) while our writes are queued behind a full socket and we do
// not read; reading starts afterwards.
func TestRingTCPPeerResetWhileWritesQueued(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		smallBufs(t, c, p)
		var log []string
		big := make([]byte, 2<<20)
		n := 0
		for i := 0; i < 3; i++ {
			i := i
			mustOK(t, c.Write(big, func(err error) { log = append(log, fmt.Sprintf("w%d %s", i, ringWriteErr(err))); n++ }))
		}
		for i := 0; i < 5; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		p.SetLinger(0)
		p.Close()
		runFor(t, l, "write callbacks", func() bool { return n == 3 })
		done := false
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			log = append(log, fmt.Sprintf("read %d %s", len(b), ringWriteErr(err)))
			if err != nil {
				done = true
			}
		}))
		runFor(t, l, "read error", func() bool { return done })
		closed := false
		c.Close(func() { log = append(log, "close"); closed = true })
		runFor(t, l, "close", func() bool { return closed })
		return log
	})
}

// The peer sends bytes then resets while we do not read; ReadStart later gets the bytes?
// On Linux recv returns the queued bytes... unless the reset purged them: whatever epoll
// gives, the ring must give.
func TestRingTCPPeerResetWhileReadStopped(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		var log []string
		got := 0
		stopped := false
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			got += len(b)
			if !stopped {
				stopped = true
				c.ReadStop()
			}
		}))
		p.Write([]byte("first"))
		runFor(t, l, "first read", func() bool { return stopped })
		log = append(log, fmt.Sprintf("first %d", got))
		p.Write([]byte("second"))
		time.Sleep(20 * time.Millisecond)
		mustRunMode(t, l, uvloop.RunNoWait)
		p.SetLinger(0)
		p.Close()
		time.Sleep(20 * time.Millisecond)
		mustRunMode(t, l, uvloop.RunNoWait)
		done := false
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			log = append(log, fmt.Sprintf("read %q %s", b, ringWriteErr(err)))
			if err != nil {
				done = true
			}
		}))
		runFor(t, l, "read end", func() bool { return done })
		werr := ""
		if err := c.Write([]byte("x"), func(err error) { werr = ringWriteErr(err) }); err != nil {
			werr = "Write " + ringWriteErr(err)
		}
		runFor(t, l, "write cb", func() bool { return werr != "" })
		log = append(log, "write "+werr)
		closed := false
		c.Close(func() { log = append(log, "close"); closed = true })
		runFor(t, l, "close", func() bool { return closed })
		return log
	})
}

// ReadStop inside the read callback, ReadStart from a timer: every byte arrives once, in
// order, and EOF comes last, once.
func TestRingTCPReadStopStartFlood(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		const total = 8 << 20
		floodPeer(p, total, 64<<10)
		defer p.Close()
		var r patternReader
		var onRead func(b []byte, err error)
		var tm *uvloop.Timer
		onRead = func(b []byte, err error) {
			if r.take(b, err) {
				c.ReadStop()
				mustOK(t, tm.Start(0, 0))
			}
		}
		tm = l.NewTimer(func(*uvloop.Timer) { mustOK(t, c.ReadStart(onRead)) })
		mustOK(t, c.ReadStart(onRead))
		return r.finish(t, l, c, tm)
	})
}

// ReadStop in the read callback that gets the last bytes, with the EOF already read by
// the kernel; ReadStart later: EOF is held and comes after the bytes; IsReadable stays.
func TestRingTCPEOFHeldOverReadStop(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		var log []string
		p.Write([]byte("abc"))
		p.CloseWrite()
		time.Sleep(20 * time.Millisecond)
		reads := 0
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			log = append(log, fmt.Sprintf("read %q %s", b, ringWriteErr(err)))
			reads++
			c.ReadStop()
		}))
		runFor(t, l, "read", func() bool { return reads > 0 })
		for i := 0; i < 5; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		log = append(log, fmt.Sprintf("readable %v", c.IsReadable()))
		mustOK(t, c.ReadStart(func(b []byte, err error) {
			log = append(log, fmt.Sprintf("read2 %q %s", b, ringWriteErr(err)))
			reads++
		}))
		runFor(t, l, "read2", func() bool { return reads > 1 })
		for i := 0; i < 3; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		// Writing still works after the peer's half-close.
		werr := ""
		mustOK(t, c.Write([]byte("reply"), func(err error) { werr = ringWriteErr(err) }))
		runFor(t, l, "write", func() bool { return werr != "" })
		log = append(log, "write "+werr)
		b := make([]byte, 16)
		n, _ := p.Read(b)
		log = append(log, "peer "+string(b[:n]))
		p.Close()
		closeRunning(t, l, c)
		return log
	})
}

// Writev of more than IOV_MAX buffers, empty ones among them, to a slow reader.
func TestRingTCPWritevManyBuffers(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		smallBufs(t, c, p)
		var want []byte
		var bufs [][]byte
		for i := 0; i < 3000; i++ {
			var b []byte
			if i%3 != 0 {
				b = bytes.Repeat([]byte{byte(i)}, 1+i%50)
			}
			bufs = append(bufs, b)
			want = append(want, b...)
		}
		// And a writev of only empty buffers, more than IOV_MAX of them.
		empties := make([][]byte, 2100)
		var log []string
		mustOK(t, c.Writev(bufs, func(err error) { log = append(log, "wv "+ringWriteErr(err)) }))
		mustOK(t, c.Writev(empties, func(err error) { log = append(log, "empty "+ringWriteErr(err)) }))
		mustOK(t, c.Writev(bufs, func(err error) { log = append(log, "wv2 "+ringWriteErr(err)) }))
		want = append(want, want...)
		var got []byte
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			got = make([]byte, len(want))
			p.SetReadDeadline(time.Now().Add(5 * time.Second))
			io.ReadFull(p, got)
		}()
		runFor(t, l, "writes", func() bool { return len(log) == 3 })
		wg.Wait()
		log = append(log, fmt.Sprintf("peer ok %v queue %d", bytes.Equal(got, want), c.WriteQueueSize()))
		closeRunning(t, l, c)
		return log
	})
}

// Several MiB to a slow reader with a drain callback: drain once, after the write
// callbacks; WriteQueueSize 0 at drain.
func TestRingTCPDrainSlowReader(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		smallBufs(t, c, p)
		var log []string
		data := make([]byte, 6<<20)
		c.OnDrain(func() { log = append(log, fmt.Sprintf("drain q=%d", c.WriteQueueSize())) })
		mustOK(t, c.Write(data[:3<<20], func(err error) {
			log = append(log, fmt.Sprintf("w0 %s q>0 %v", ringWriteErr(err), c.WriteQueueSize() > 0))
		}))
		mustOK(t, c.Write(data[3<<20:], func(err error) { log = append(log, fmt.Sprintf("w1 %s q=%d", ringWriteErr(err), c.WriteQueueSize())) }))
		log = append(log, fmt.Sprintf("queued>=3MiB %v", c.WriteQueueSize() >= 3<<20))
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := make([]byte, 4096)
			total := 0
			for total < len(data) {
				n, err := p.Read(b)
				total += n
				if err != nil {
					return
				}
			}
		}()
		runFor(t, l, "drain", func() bool { return len(log) >= 4 })
		wg.Wait()
		closeRunning(t, l, c)
		return log
	})
}

// The peer half-closes while we write: we read EOF, and our writes still go through.
func TestRingTCPPeerHalfCloseWhileWriting(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		smallBufs(t, c, p)
		var log []string
		data := make([]byte, 1<<20)
		mustOK(t, c.Write(data, func(err error) { log = append(log, "w "+ringWriteErr(err)) }))
		mustOK(t, c.ReadStart(func(b []byte, err error) { log = append(log, fmt.Sprintf("read %d %s", len(b), ringWriteErr(err))) }))
		for i := 0; i < 3; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		p.CloseWrite()
		runFor(t, l, "eof", func() bool { return len(log) > 0 })
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); io.CopyN(io.Discard, p, int64(len(data))) }()
		runFor(t, l, "write", func() bool { return len(log) >= 2 })
		wg.Wait()
		closed := false
		c.Close(func() { log = append(log, "close"); closed = true })
		runFor(t, l, "close", func() bool { return closed })
		return log
	})
}

// TryWrite while a ring send is in flight must not reorder bytes: whatever TryWrite
// reports, the peer sees the Write's bytes before TryWrite's.
func TestRingTCPTryWriteOrder(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var log []string
		mustOK(t, c.Write([]byte("AAAA"), func(err error) { log = append(log, "w "+ringWriteErr(err)) }))
		n, err := c.TryWrite([]byte("BBBB"))
		tw := fmt.Sprintf("try %d %s", n, ringWriteErr(err))
		runFor(t, l, "write", func() bool { return len(log) > 0 })
		n2, err2 := c.TryWrite([]byte("CCCC"))
		log = append(log, fmt.Sprintf("try-after %d %s", n2, ringWriteErr(err2)))
		c.Close(nil)
		for i := 0; i < 3; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		b, _ := io.ReadAll(p)
		// Report only the order, not whether the first TryWrite was refused (documented).
		_ = tw
		log = append(log, "peer-prefix "+string(b[:4]))
		return log
	})
}

// The phases of write, shutdown and drain callbacks, with a write issued from inside a
// write callback, against prepare and check.
func TestRingTCPWriteCallbackPhases(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var log []string
		prep := l.NewPrepare(func(*uvloop.Prepare) { log = append(log, "prepare") })
		chk := l.NewCheck(func(*uvloop.Check) { log = append(log, "check") })
		mustOK(t, prep.Start())
		mustOK(t, chk.Start())
		left := 3
		var next func(err error)
		next = func(err error) {
			log = append(log, "w "+ringWriteErr(err))
			if left--; left > 0 {
				mustOK(t, c.Write([]byte("abcd"), next))
			} else {
				mustOK(t, c.Shutdown(func(err error) { log = append(log, "shutdown "+ringWriteErr(err)) }))
			}
		}
		tm := l.NewTimer(func(*uvloop.Timer) {
			log = append(log, "timer")
			mustOK(t, c.Write([]byte("abcd"), next))
		})
		mustOK(t, tm.Start(0, 0))
		runFor(t, l, "shutdown", func() bool { return len(log) > 0 && strings.HasPrefix(log[len(log)-1], "shutdown") || len(log) > 200 })
		prep.Close(nil)
		chk.Close(nil)
		tm.Close(nil)
		// From the timer to the shutdown callback.
		i := 0
		for i < len(log) && log[i] != "timer" {
			i++
		}
		var out []string
		for _, s := range log[i:] {
			out = append(out, s)
			if strings.HasPrefix(s, "shutdown") {
				break
			}
		}
		closeRunning(t, l, c)
		return out
	})
}

// CloseReset with writes queued behind a full socket: ECANCELED for each, the peer sees a
// reset.
func TestRingTCPCloseResetQueued(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		smallBufs(t, c, p)
		var log []string
		big := make([]byte, 4<<20)
		for i := 0; i < 2; i++ {
			i := i
			mustOK(t, c.Write(big, func(err error) { log = append(log, fmt.Sprintf("w%d %s", i, ringWriteErr(err))) }))
		}
		for i := 0; i < 5; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		closed := false
		mustOK(t, c.CloseReset(func() { log = append(log, "close"); closed = true }))
		runFor(t, l, "close", func() bool { return closed })
		p.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := io.Copy(io.Discard, p)
		log = append(log, "peer "+ringWriteErr(err))
		return log
	})
}

// Close from inside a write callback run in the poll phase (the socket was full), with
// more writes queued: those fail with ECANCELED, once each, before the close callback.
func TestRingTCPCloseInWriteCallback(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		smallBufs(t, c, p)
		var log []string
		closed := false
		big := make([]byte, 2<<20)
		mustOK(t, c.Write(big, func(err error) {
			log = append(log, "w0 "+ringWriteErr(err))
			c.Close(func() { log = append(log, "close"); closed = true })
		}))
		for i := 1; i < 4; i++ {
			i := i
			mustOK(t, c.Write(big, func(err error) { log = append(log, fmt.Sprintf("w%d %s", i, ringWriteErr(err))) }))
		}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.SetReadDeadline(time.Now().Add(5 * time.Second))
			io.Copy(io.Discard, p)
		}()
		runFor(t, l, "close", func() bool { return closed })
		wg.Wait()
		return log
	})
}

// Backpressure on the read side: ReadStop in every read callback and ReadStart before the
// next round, with Write (not TryWrite) on the answering side, allocates nothing.
func TestRingTCPReadStopStartZeroAllocs(t *testing.T) {
	p := newEchoPair(t)
	defer p.close()
	msg := make([]byte, 64)
	p.onClientRead = func(data []byte, err error) {
		if err != nil {
			t.Fatalf("client read: %v", err)
		}
		p.got += len(data)
		p.client.ReadStop()
	}
	var srvWrite func(error)
	srvWrite = func(err error) { mustOK(t, err) }
	p.onServerRead = func(data []byte, err error) {
		if err != nil {
			return
		}
		mustOK(t, p.server.Write(msg[:len(data)], srvWrite))
	}
	mustOK(t, p.server.ReadStop())
	mustOK(t, p.server.ReadStart(p.onServerRead))
	mustOK(t, p.client.ReadStop())
	round := func() {
		mustOK(t, p.client.ReadStart(p.onClientRead))
		p.roundTrip(msg)
	}
	for range 100 {
		round()
	}
	if n := testing.AllocsPerRun(1000, round); n != 0 {
		t.Errorf("%v allocations per round with ReadStop/ReadStart (backend %v), want 0", n, p.l.Backend())
	}
}

// Write, Shutdown and Close in one callback: the write is done or cancelled, the shutdown
// cancelled, all before the close callback.
func TestRingTCPWriteShutdownClose(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var log []string
		mustOK(t, c.Write([]byte("abc"), func(err error) { log = append(log, "w "+ringWriteErr(err)) }))
		mustOK(t, c.Shutdown(func(err error) { log = append(log, "shutdown "+ringWriteErr(err)) }))
		closed := false
		c.Close(func() { log = append(log, "close"); closed = true })
		runFor(t, l, "close", func() bool { return closed })
		p.SetReadDeadline(time.Now().Add(5 * time.Second))
		b, err := io.ReadAll(p)
		log = append(log, fmt.Sprintf("peer %q %s", b, ringWriteErr(err)))
		return log
	})
}

// EMFILE, then fds free again: the connections queued while no fd was left are shed (their
// peers see the end), and a connection made once fds are free is announced. Run in a child
// per backend (RLIMIT_NOFILE is lowered there).
func TestRingTCPEmfileRecover(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("linux only")
	}
	if os.Getenv("UVLOOP_EMFILE_CHILD") == "1" {
		ringTCPEmfileChild(t)
		return
	}
	logs := map[uvloop.Backend]string{}
	for _, b := range []uvloop.Backend{uvloop.BackendEpoll, uvloop.BackendIOURing} {
		if err := poller.Available(b); err != nil {
			t.Skipf("%v: %v", b, err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestRingTCPEmfileRecover$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "UVLOOP_EMFILE_CHILD=1", uvloop.BackendEnv+"="+b.String())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v child: %v\n%s", b, err, out)
		}
		var lines []string
		for _, line := range strings.Split(string(out), "\n") {
			if i := strings.Index(line, "LOG "); i >= 0 {
				lines = append(lines, line[i+4:])
			}
		}
		logs[b] = strings.Join(lines, "; ")
	}
	t.Logf("epoll: %s", logs[uvloop.BackendEpoll])
	if logs[uvloop.BackendEpoll] != logs[uvloop.BackendIOURing] {
		t.Errorf("the backends differ:\nepoll:    %s\nio_uring: %s", logs[uvloop.BackendEpoll], logs[uvloop.BackendIOURing])
	}
}

func ringTCPEmfileChild(t *testing.T) {
	l := newLoop(t)
	server, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, server.Bind(loopback, 0))
	conns := 0
	mustOK(t, server.Listen(8, func(err error) {
		conns++
		t.Logf("LOG conn %s", ringWriteErr(err))
		if err == nil {
			c, err := l.NewTCP()
			mustOK(t, err)
			mustOK(t, server.Accept(c))
			c.Close(nil)
		}
	}))
	addr, err := server.LocalAddr()
	mustOK(t, err)
	if ln, err := net.Listen("tcp", "127.0.0.1:0"); err == nil {
		ln.Close()
	}
	sa := &unix.SockaddrInet4{Port: int(addr.Port()), Addr: addr.Addr().As4()}
	var clients []int
	for i := 0; i < 3; i++ {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
		mustOK(t, err)
		clients = append(clients, fd)
	}
	defer func() {
		for _, fd := range clients {
			unix.Close(fd)
		}
	}()
	dups := useUpFds(t)
	defer func() {
		for _, fd := range dups {
			unix.Close(fd)
		}
	}()
	// Two connections while no fd is free: shed.
	for _, fd := range clients[:2] {
		if err := unix.Connect(fd, sa); err != nil && err != unix.EINPROGRESS {
			t.Fatal(err)
		}
	}
	peerEnd := func(fd int) string {
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		deadline := time.Now().Add(3 * time.Second)
		for time.Now().Before(deadline) {
			mustRunMode(t, l, uvloop.RunNoWait)
			if k, _ := unix.Poll(pfd, 1); k > 0 {
				b := make([]byte, 8)
				n, err := unix.Read(fd, b)
				if err != nil {
					return ringWriteErr(err)
				}
				return fmt.Sprintf("read %d", n)
			}
		}
		return "no end"
	}
	t.Logf("LOG peer0 %s", peerEnd(clients[0]))
	t.Logf("LOG peer1 %s", peerEnd(clients[1]))
	t.Logf("LOG conns while out of fds %d", conns)
	// Free fds; a new connection is announced.
	for _, fd := range dups[len(dups)-4:] {
		unix.Close(fd)
	}
	dups = dups[:len(dups)-4]
	if err := unix.Connect(clients[2], sa); err != nil && err != unix.EINPROGRESS {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for conns == 0 && time.Now().Before(deadline) {
		mustRunMode(t, l, uvloop.RunNoWait)
		time.Sleep(time.Millisecond)
	}
	t.Logf("LOG conns after fds freed %d", conns)
	t.Logf("LOG peer2 %s", peerEnd(clients[2]))
	closeLoop(t, l)
}

// ReadStop and ReadStart twice inside each read callback, across a flood: the bytes
// arrive once each and in order, EOF once, last.
func TestRingTCPReadStopStartSameCallback(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		const total = 4 << 20
		floodPeer(p, total, 32<<10)
		defer p.Close()
		var r patternReader
		calls := 0
		var onRead func(b []byte, err error)
		onRead = func(b []byte, err error) {
			calls++
			if !r.take(b, err) {
				return
			}
			c.ReadStop()
			mustOK(t, c.ReadStart(onRead))
			if calls%3 == 0 {
				c.ReadStop()
				l.SetImmediate(func() { mustOK(t, c.ReadStart(onRead)) })
			}
		}
		mustOK(t, c.ReadStart(onRead))
		return r.finish(t, l, c, nil)
	})
}

// A Write made outside any callback (between runs): its callback runs in the pending phase
// of the next run, before prepare, on both backends.
func TestRingTCPWriteOutsideCallback(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		a, pa := ringWritePair(t, l)
		defer pa.Close()
		for i := 0; i < 3; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		var log []string
		prep := l.NewPrepare(func(*uvloop.Prepare) { log = append(log, "prepare") })
		mustOK(t, prep.Start())
		mustOK(t, a.Write([]byte("abc"), func(err error) { log = append(log, "wA "+ringWriteErr(err)) }))
		runFor(t, l, "write", func() bool { return len(log) >= 2 })
		prep.Close(nil)
		closed := false
		a.Close(func() { closed = true })
		runFor(t, l, "close", func() bool { return closed })
		return log[:2]
	})
}

// Write then CloseReset in one callback: the write is done (the socket took it) on both,
// and the peer sees the same end.
func TestRingTCPWriteThenCloseReset(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		c, p := ringWritePair(t, l)
		defer p.Close()
		var log []string
		mustOK(t, c.Write([]byte("abc"), func(err error) { log = append(log, "w "+ringWriteErr(err)) }))
		closed := false
		mustOK(t, c.CloseReset(func() { log = append(log, "close"); closed = true }))
		runFor(t, l, "close", func() bool { return closed })
		time.Sleep(10 * time.Millisecond)
		p.SetReadDeadline(time.Now().Add(5 * time.Second))
		b, err := io.ReadAll(p)
		log = append(log, fmt.Sprintf("peer %q %s", b, ringWriteErr(err)))
		return log
	})
}

// Many connections flood at once while their readers stop and start: every stream gets its
// bytes once, in order, then EOF (the shared provided buffers run out on the ring).
func TestRingTCPManyStreamsFlood(t *testing.T) {
	ringWriteDiff(t, func(t *testing.T, l *uvloop.Loop) []string {
		const conns, total = 24, 1 << 20
		type st struct {
			c              *uvloop.TCP
			got, bad, eofs int
			onRead         func([]byte, error)
		}
		var wg sync.WaitGroup
		var peers []*net.TCPConn
		streams := make([]*st, conns)
		for k := 0; k < conns; k++ {
			c, p := ringWritePair(t, l)
			peers = append(peers, p)
			s := &st{c: c}
			streams[k] = s
			s.onRead = func(b []byte, err error) {
				if err != nil {
					s.eofs++
					return
				}
				for i, x := range b {
					if x != byte((s.got+i)%249) {
						s.bad++
						break
					}
				}
				s.got += len(b)
				if s.got%3 == 0 {
					c.ReadStop()
					l.SetImmediate(func() {
						if !c.IsClosing() {
							mustOK(t, c.ReadStart(s.onRead))
						}
					})
				}
			}
			mustOK(t, c.ReadStart(s.onRead))
		}
		for _, p := range peers {
			p := p
			wg.Add(1)
			go func() {
				defer wg.Done()
				buf := make([]byte, total)
				for i := range buf {
					buf[i] = byte(i % 249)
				}
				p.Write(buf)
				p.CloseWrite()
			}()
		}
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			done := true
			for _, s := range streams {
				if s.eofs == 0 {
					done = false
				}
			}
			if done {
				break
			}
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		wg.Wait()
		var log []string
		for k, s := range streams {
			log = append(log, fmt.Sprintf("%d got %d bad %d eofs %d", k, s.got, s.bad, s.eofs))
			s.c.Close(nil)
			peers[k].Close()
		}
		for i := 0; i < 3; i++ {
			mustRunMode(t, l, uvloop.RunNoWait)
		}
		return log
	})
}
