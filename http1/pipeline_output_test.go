package http1

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPipelinedRequestsWaitForOutput: 2,000 pipelined GETs for a 256 KiB response arrive in
// a few reads, and the client reads nothing for a while. The server answers only while its
// output is under the high-water mark (plus what the socket takes), holding the other
// requests, not all of a read's requests into memory at once (one 64 KiB read holds 1,600 of
// them: 400 MB of copied responses); once the client reads, every one is answered, in order.
func TestPipelinedRequestsWaitForOutput(t *testing.T) {
	big := bytes.Repeat([]byte("z"), 256<<10)
	ts := startServer(t, HandlerFunc(func(w *Response, r *Request) { w.End(big) }))
	c, br := ts.dial()
	const n = 2000
	if _, err := c.Write([]byte(strings.Repeat("GET / HTTP/1.1\r\nHost: x\r\n\r\n", n))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	answered := ts.stats().Requests
	t.Logf("answered %d of %d pipelined requests with nothing read", answered, n)
	if answered > 200 { // the socket buffers take ~16 of these responses; 1,600+ before
		t.Errorf("%d of %d pipelined requests answered into memory for a client that reads nothing", answered, n)
	}
	for i := range n {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		m, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || m != int64(len(big)) || resp.StatusCode != 200 {
			t.Fatalf("response %d: %d, %d bytes, %v", i, resp.StatusCode, m, err)
		}
	}
}

// TestPipelinedRequestsHeldInOrder: 40,001 small pipelined requests (the last asks to
// close) that the client reads only after a while: requests held while output is over the
// high-water mark are answered before the ones read after them, each once, and none is
// refused.
func TestPipelinedRequestsHeldInOrder(t *testing.T) {
	ts := startServer(t, hello)
	c, _ := ts.dial()
	const n = 40000
	werr := make(chan error, 1)
	go func() {
		_, err := c.Write([]byte(strings.Repeat("GET / HTTP/1.1\r\nHost: x\r\n\r\n", n) + "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
		werr <- err
	}()
	time.Sleep(300 * time.Millisecond)
	b, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-werr; err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(b, []byte("HTTP/1.1 200 OK")); got != n+1 || bytes.Contains(b, []byte("HTTP/1.1 400")) {
		t.Fatalf("%d responses of %d (a 400: %v); %+v", got, n+1, bytes.Contains(b, []byte("HTTP/1.1 400")), ts.stats())
	}
	if st := ts.stats(); st.Refused != 0 {
		t.Errorf("%+v: refused", st)
	}
}

// TestPipelinedHalfCloseAnswersHeld: 300 pipelined GETs for a 256 KiB response, then the
// client's end at once. Requests held behind the output are still answered, every one, and
// then the connection closes (the end was read long before the last answer).
func TestPipelinedHalfCloseAnswersHeld(t *testing.T) {
	big := bytes.Repeat([]byte("z"), 256<<10)
	ts := startServer(t, HandlerFunc(func(w *Response, r *Request) { w.End(big) }))
	c, _ := ts.dial()
	const n = 300
	werr := make(chan error, 1)
	go func() {
		_, err := c.Write([]byte(strings.Repeat("GET / HTTP/1.1\r\nHost: x\r\n\r\n", n)))
		if err == nil {
			err = c.(*net.TCPConn).CloseWrite()
		}
		werr <- err
	}()
	br := bufio.NewReader(c)
	for i := range n {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("response %d: %v; %+v", i, err, ts.stats())
		}
		if m, err := io.Copy(io.Discard, resp.Body); err != nil || m != int64(len(big)) {
			t.Fatalf("response %d: %d bytes, %v", i, m, err)
		}
	}
	if err := <-werr; err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if extra, err := io.ReadAll(br); err != nil || len(extra) != 0 {
		t.Fatalf("after the last response: %d bytes, %v; want the end of the connection", len(extra), err)
	}
}
