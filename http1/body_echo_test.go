package http1

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestBodyEchoHalfDuplexClient: a handler echoes the body as it arrives, heedless of
// NeedDrain (Node's req.on('data', d => res.write(d))), and the client sends the whole body
// before it reads. Output over the high-water mark must not pause reading while the body
// comes in: the handler would wait for the rest of it forever. Node buffers that output too.
func TestBodyEchoHalfDuplexClient(t *testing.T) {
	const size = 24 << 20 // more than the sockets buffer between them
	ts := startServer(t, HandlerFunc(func(w *Response, r *Request) {
		r.OnBody(func(b []byte) { w.Write(b) }, func(err error) { w.End(nil) })
	}), MaxBodySize(1<<30))
	c, _ := ts.dial()
	c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	head := "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(size) + "\r\n\r\n"
	if _, err := c.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	for sent := 0; sent < size; {
		n, err := c.Write(buf[:min(len(buf), size-sent)])
		sent += n
		if err != nil {
			t.Fatalf("sent %d of %d body bytes, then %v (%+v)", sent, size, err, ts.stats())
		}
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v %v %v", resp.Status, resp.Header, resp.TransferEncoding)
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || n != size {
		t.Fatalf("echoed %d, %v", n, err)
	}
}
