package http1

import (
	"bytes"
	"net"
	"testing"
	"time"
)

// TestHalfCloseUnreadResponseTimesOut: a client asks for a big response, reads none of it,
// and half-closes. The connection writes what it can, and the keep-alive timeout (restarted
// by each write that completes) ends it, so that Shutdown completes: the end of the stream
// left it in phaseClosing with no timer at all.
func TestHalfCloseUnreadResponseTimesOut(t *testing.T) {
	big := bytes.Repeat([]byte("y"), 16<<20)
	ts := startServer(t, HandlerFunc(func(w *Response, r *Request) { w.End(big) }),
		HighWaterMark(1<<30), KeepAliveTimeout(300*time.Millisecond), LingerTimeout(10*time.Second),
		HeadersTimeout(10*time.Second), RequestTimeout(10*time.Second))
	c, _ := ts.dial()
	c.Write([]byte(get))
	time.Sleep(50 * time.Millisecond)
	c.(*net.TCPConn).CloseWrite()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if st := ts.stats(); st.Connections == 0 {
			t.Logf("closed after %v: %+v", 2*time.Second-time.Until(deadline), st)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.on(func() {
		for c := ts.srv.conns.next; c != &ts.srv.conns; c = c.next {
			t.Logf("phase %d writing %v eof %v reading %v paused %d queued %d", c.phase, c.writing, c.eof, c.reading, c.paused, c.st.WriteQueueSize())
		}
	})
	done := make(chan struct{})
	ts.on(func() { ts.srv.Shutdown(func() { close(done) }) })
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Errorf("Shutdown's callback not called within 1s")
	}
	t.Fatalf("connection still open 2s after the half-close (keep-alive 300ms): %+v", ts.stats())
}
