package http1

import (
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// TestPipelinedBadAfterHeldBurstRev9h: 2200 pipelined GETs (72 KiB: reading pauses
// behind the 64 KiB held, and the ring's 16 KiB reads wait while paused) answered from the
// next loop iteration, then a malformed request and one more GET, in one write; then the
// client ends its side. Every GET before the bad one is answered, in order, then 400, then
// the end, in every mode. The same with the last request cut short by the client's end
// (the 400 of ErrIncomplete comes once the held requests are answered).
func TestPipelinedBadAfterHeldBurstRev9h(t *testing.T) {
	for _, tail := range []string{"BAD\x01 / HTTP/1.1\r\n\r\nGET /after HTTP/1.1\r\nHost: x\r\n\r\n", "GET /cut HTTP/1.1\r\nHo"} {
		t.Run(strings.Fields(tail)[0], func(t *testing.T) { pipelinedBadAfterHeldBurst(t, tail) })
	}
}

func pipelinedBadAfterHeldBurst(t *testing.T, tail string) {
	const n = 2200 // about 72 KiB: past the 64 KiB held
	modesRun(t, func(t *testing.T, lopts []uvloop.Option) string {
		h := HandlerFunc(func(w *Response, r *Request) {
			target := string(r.Target)
			w.Server().Loop().SetImmediate(func() { w.EndString(target) })
		})
		ts := startServerOn(t, lopts, h, KeepAliveTimeout(300*time.Millisecond))
		c, _ := ts.dial()
		var b strings.Builder
		for i := range n {
			b.WriteString("GET /" + itoa(i) + " HTTP/1.1\r\nHost: x\r\n\r\n")
		}
		b.WriteString(tail)
		go func() {
			c.Write([]byte(b.String()))
			c.(interface{ CloseWrite() error }).CloseWrite()
		}()
		got := readAllRaw(c)
		parts := strings.Split(got, "HTTP/1.1 ")[1:]
		if len(parts) != n+1 {
			t.Fatalf("%d responses, want %d", len(parts), n+1)
		}
		for i, p := range parts[:n] {
			if !strings.HasPrefix(p, "200 ") || !strings.HasSuffix(p, "\r\n\r\n/"+itoa(i)) {
				t.Fatalf("response %d: %q", i, p)
			}
		}
		if last := parts[n]; !strings.HasPrefix(last, "400 ") || !strings.HasSuffix(last, "\n<EOF>") {
			t.Fatalf("last: %q, want 400 then EOF", last)
		}
		return parts[n]
	})
}
