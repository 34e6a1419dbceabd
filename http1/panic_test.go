package http1

import (
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// startPanicServer is startServer for handlers that panic: Run is called again after each
// panic, which is counted in panics.
func startPanicServer(t *testing.T, h Handler, panics *atomic.Int32, opts ...Option) *testServer {
	t.Helper()
	return startServerCounting(t, h, panics, opts...)
}

// boom panics for /boom; /later panics after a timer is set to end the response; the rest
// is answered with the target.
var boom = HandlerFunc(func(w *Response, r *Request) {
	switch string(r.Target) {
	case "/boom":
		panic("boom")
	case "/ended":
		w.EndString("ended")
		panic("boom, after the end")
	case "/later":
		w.Server().Loop().SetTimeout(func() { w.EndString("later") }, 0)
		panic("boom, later")
	}
	w.End(r.Target)
})

// A handler that panics leaves its connection as Node leaves one whose request listener
// threw (node v20, with process.on('uncaughtException')): the responses before go out, the
// request gets no answer, and the connection takes no other request — the rest of the read
// is dropped, more bytes get 400 and close, the client's end closes it, and the request
// timeout answers 408. The other connections go on.
func TestServerHandlerPanics(t *testing.T) {
	t.Run("more bytes", func(t *testing.T) {
		var panics atomic.Int32
		ts := startPanicServer(t, boom, &panics)
		c, br := ts.dial()
		c.Write([]byte("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /boom HTTP/1.1\r\nHost: x\r\n\r\nGET /c HTTP/1.1\r\nHost: x\r\n\r\n"))
		expect(t, br, "GET", 200, "/a", false)
		// Another connection is served meanwhile.
		c2, br2 := ts.dial()
		c2.Write([]byte("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n"))
		expect(t, br2, "GET", 200, "/ok", false)
		c.Write([]byte("GET /d HTTP/1.1\r\nHost: x\r\n\r\n"))
		expect(t, br, "GET", 400, "", true)
		if n := panics.Load(); n != 1 {
			t.Errorf("%d panics returned by Run, want 1", n)
		}
		c.Close()
		ts.waitConnections(1)
	})
	t.Run("request timeout", func(t *testing.T) {
		var panics atomic.Int32
		ts := startPanicServer(t, boom, &panics, RequestTimeout(50*time.Millisecond))
		c, br := ts.dial()
		c.Write([]byte("GET /boom HTTP/1.1\r\nHost: x\r\n\r\n"))
		expect(t, br, "GET", 408, "", true)
		c.Close()
		ts.waitConnections(0)
	})
	t.Run("client end", func(t *testing.T) {
		var panics atomic.Int32
		ts := startPanicServer(t, boom, &panics)
		c, br := ts.dial()
		c.Write([]byte("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /boom HTTP/1.1\r\nHost: x\r\n\r\n"))
		expect(t, br, "GET", 200, "/a", false)
		c.(*net.TCPConn).CloseWrite()
		if b, err := io.ReadAll(br); err != nil || len(b) > 0 {
			t.Fatalf("after the end of the client's side: %q, %v; want EOF", b, err)
		}
		ts.waitConnections(0)
	})
	// A response ended before the panic, or by a later callback, goes out keep-alive as in
	// Node (conformance 256); the connection then takes no other request: more bytes get
	// 400, and an idle one is closed by the keep-alive timeout.
	t.Run("ended, then panicked, then more bytes", func(t *testing.T) {
		var panics atomic.Int32
		ts := startPanicServer(t, boom, &panics, RequestTimeout(time.Hour))
		c, br := ts.dial()
		c.Write([]byte("GET /ended HTTP/1.1\r\nHost: x\r\n\r\n"))
		expect(t, br, "GET", 200, "ended", false)
		c.Write([]byte("GET /d HTTP/1.1\r\nHost: x\r\n\r\n"))
		expect(t, br, "GET", 400, "", true)
		c.Close()
		ts.waitConnections(0)
		if st := ts.stats(); st.Requests != 1 {
			t.Errorf("%d requests completed, want 1", st.Requests)
		}
	})
	t.Run("ended later, then idle", func(t *testing.T) {
		var panics atomic.Int32
		ts := startPanicServer(t, boom, &panics, KeepAliveTimeout(50*time.Millisecond))
		c, br := ts.dial()
		c.Write([]byte("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /c HTTP/1.1\r\nHost: x\r\n\r\n"))
		expect(t, br, "GET", 200, "later", false)
		if b, err := io.ReadAll(br); err != nil || len(b) > 0 { // /c was dropped; the idle timeout closes
			t.Fatalf("after the response: %q, %v; want EOF", b, err)
		}
		c.Close()
		ts.waitConnections(0)
		if st := ts.stats(); st.Requests != 1 {
			t.Errorf("%d requests completed, want 1", st.Requests)
		}
	})
}

// waitConnections waits until the server has n connections open (at most 10 s).
func (ts *testServer) waitConnections(n int) {
	ts.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ts.stats().Connections != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			ts.t.Fatalf("%d connections open after 10 s, want %d", ts.stats().Connections, n)
		}
	}
}
