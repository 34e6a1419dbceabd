package uvloop_test

import (
	"net"
	"runtime"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// What an idle connection costs a server is mostly what the loop allocates when it accepts
// one (bench/uring.sh's idle-connections row: RSS per connection beside libuv's, whose
// uv_tcp_t is its only cost). These tests pin it so that it does not creep back: the TCP
// handle stays in the 160-byte size class (the fields only listeners, connects, shutdowns,
// OnDrain, keep-alive and held reads use live in a side struct allocated on first use; a
// poller's refusal is kept in the loop's list of them, not in each watcher; the socket is the
// watcher's fd; a fed stream binds no method), and accepting a connection and starting to
// read allocates the handle and nothing else per connection (no sockaddr from accept4, no
// method values bound per stream), apart from the growth of the loop's per-fd tables, a chunk
// per 512 fds. Each was 344 bytes (the 352 class) and 6 allocations before, then 240, then 176;
// 160 since the write queues are circles held by their last request, one pointer each.

// maxTCPBytes is the size class a TCP handle must fit in.
const maxTCPBytes = 160

// heapDelta runs f and returns the bytes and objects allocated meanwhile, from the runtime's
// cumulative counters (which GC does not lower).
func heapDelta(f func()) (bytes, objects uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}

func TestAllocTCPHandleSize(t *testing.T) {
	l := newLoop(t)
	const n = 1000
	var handles []*uvloop.TCP // kept alive, so each is a real heap object
	// The least of three rounds: another goroutine (the runtime's, a test's left over) may
	// allocate meanwhile.
	bytes, objects := uint64(1<<63), uint64(0)
	for range 3 {
		hs := make([]*uvloop.TCP, n)
		b, o := heapDelta(func() {
			for i := range hs {
				h, err := l.NewTCP()
				if err != nil {
					t.Fatal(err)
				}
				hs[i] = h
			}
		})
		handles = append(handles, hs...)
		if b < bytes {
			bytes, objects = b, o
		}
	}
	// Less than the next size class (+16), so that growing into it fails.
	if perHandle := float64(bytes) / n; perHandle > maxTCPBytes+8 {
		t.Errorf("NewTCP allocates %.1f bytes (%d objects) per handle, want at most %d", perHandle, objects, maxTCPBytes)
	}
	if objects > n+n/100 {
		t.Errorf("NewTCP allocates %d objects for %d handles, want one each", objects, n)
	}
	closeLoop(t, l)
}

func TestAllocAcceptedConnection(t *testing.T) {
	checkFds(t)
	l := newLoop(t)
	const n = 100 // within the backlog (listenTCP's 128)
	conns := make([]*uvloop.TCP, 0, n)
	onRead := func([]byte, error) {}
	server, addr := listenTCP(t, l, func(server *uvloop.TCP, err error) {
		mustOK(t, err)
		c := acceptTCP(t, server)
		mustOK(t, c.SetNoDelay(true))
		mustOK(t, c.ReadStart(onRead))
		conns = append(conns, c)
	})
	// round dials n connections, then accepts them and starts reading each, measured, then
	// closes them all. The first round grows the per-fd tables; the next ones, on about the
	// same fds, measure what each connection costs (the least of them: a table may still
	// grow once when the fds come out a little higher).
	round := func() (bytes, objects uint64) {
		var clients []net.Conn
		defer func() {
			for _, c := range clients {
				c.Close()
			}
		}()
		for range n {
			c, err := net.Dial("tcp", addr.String())
			mustOK(t, err)
			clients = append(clients, c)
		}
		bytes, objects = heapDelta(func() {
			for len(conns) < n {
				mustRunMode(t, l, uvloop.RunOnce)
			}
		})
		for _, c := range conns {
			mustOK(t, c.Close(nil))
		}
		conns = conns[:0]
		mustRunMode(t, l, uvloop.RunNoWait) // the close callbacks
		return bytes, objects
	}
	round()
	bytes, objects := round()
	for range 2 {
		if b, o := round(); b < bytes {
			bytes, objects = b, o
		}
	}
	perConn, objsPerConn := float64(bytes)/n, float64(objects)/n
	t.Logf("backend %v: %.0f bytes, %.2f objects per connection", l.Backend(), perConn, objsPerConn)
	if perConn > maxTCPBytes+8 || objsPerConn > 1.05 { // less than the next size class (+16)
		t.Errorf("accepting a connection and reading from it allocates %.0f bytes in %.2f objects, want at most %d in 1",
			perConn, objsPerConn, maxTCPBytes)
	}
	server.Close(nil)
	closeLoop(t, l)
}
