package http1

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
)

// TestNetHTTPPanicAfterWriteHeaderRev11n: a handler that set fields (a Content-Length
// among them) and a status, then panicked before writing, gets uvgo's 500 with none of its
// fields, and the connection closes. (net/http sends nothing and closes; uvgo's 500 is
// pinned by TestFromNetHTTP.)
func TestNetHTTPPanicAfterWriteHeaderRev11n(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Secret", "1")
		w.Header().Set("Content-Length", "10")
		w.WriteHeader(201)
		panic("boom")
	})
	for _, m := range looptest.Modes {
		for _, blocking := range []bool{false, true} {
			name := m.Name + "/loop"
			if blocking {
				name = m.Name + "/blocking"
			}
			t.Run(name, func(t *testing.T) {
				a := FromNetHTTP(h)
				if blocking {
					a = FromNetHTTPBlocking(h, 1)
				}
				ts := startServerOn(t, m.Opts, a)
				raw, end := exchangeRaw(t, ts.addr, "GET /x HTTP/1.1\r\nHost: h\r\n\r\n", false)
				got := describeResponses(raw, []string{"GET"}, end)
				want := "500 Internal Server Error\n  Content-Length: [\"0\"]\n  [cl=0 te=[] close=true] body \"\"\n<EOF>"
				if got != want {
					t.Errorf("got\n%s\nwant\n%s", got, want)
				}
			})
		}
	}
}

// TestNetHTTPBlockingContextCanceledRev11n: FromNetHTTPBlocking's request Context ends when
// the client goes away while the handler runs, as with net/http's server.
func TestNetHTTPBlockingContextCanceledRev11n(t *testing.T) {
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			started := make(chan struct{})
			ended := make(chan error, 1)
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				close(started)
				select {
				case <-r.Context().Done():
					ended <- context.Cause(r.Context())
				case <-time.After(20 * time.Second): // a deadlock guard
					ended <- nil
				}
			})
			ts := startServerOn(t, m.Opts, FromNetHTTPBlocking(h, 1))
			c, err := net.Dial("tcp", ts.addr)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(c, "GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
			<-started
			c.Close()
			if err := <-ended; err != context.Canceled {
				t.Fatalf("context: %v", err)
			}
		})
	}
}
