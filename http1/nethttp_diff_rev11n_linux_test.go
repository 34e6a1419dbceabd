package http1

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/looptest"
)

// The differential tests of FromNetHTTP and FromNetHTTPBlocking against net/http's own
// server: the same handler, the same bytes sent (whole and byte by byte), the responses
// compared as parsed (status, fields but Date, body, trailers, whether the connection
// ended) together with what the handler observed.

// obsLog is what a handler observed, one line per fact.
type obsLog struct {
	mu    sync.Mutex
	lines []string
}

func (o *obsLog) add(format string, args ...any) {
	o.mu.Lock()
	o.lines = append(o.lines, fmt.Sprintf(format, args...))
	o.mu.Unlock()
}

func (o *obsLog) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.lines, "\n")
}

// diffCase is one scenario: the raw requests (the last one ends the connection, by
// Connection: close or by the server's choice), the methods of the requests in order (for
// HEAD's framing), and a handler that logs what it sees to obs.
type diffCase struct {
	name    string
	raw     string
	methods []string
	handler func(obs *obsLog) http.Handler
	// skipBlocking names why FromNetHTTPBlocking is not compared, if it is not.
	skipBlocking string
	// exactFraming compares FromNetHTTPBlocking's framing too (by default not: it chunks
	// every body whose length the handler did not set, where net/http sets a length on a
	// short one; documented).
	exactFraming bool
	// wholeOnly sends the bytes whole only (too many to send one at a time).
	wholeOnly bool
	// skipLoop names why FromNetHTTP is not compared, if it is not.
	skipLoop string
}

// describeResponses parses the responses in raw, one per method (1xx responses before
// their final one), and returns them in a form to compare.
func describeResponses(raw []byte, methods []string, end string) string {
	var b strings.Builder
	br := bufio.NewReader(strings.NewReader(string(raw)))
	for _, m := range methods {
		for {
			resp, err := http.ReadResponse(br, &http.Request{Method: m})
			if err != nil {
				fmt.Fprintf(&b, "read: %v\n", err)
				goto done
			}
			body, err := io.ReadAll(resp.Body)
			keys := make([]string, 0, len(resp.Header))
			for k := range resp.Header {
				if k != "Date" {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			fmt.Fprintf(&b, "%s\n", resp.Status)
			for _, k := range keys {
				fmt.Fprintf(&b, "  %s: %q\n", k, resp.Header[k])
			}
			fmt.Fprintf(&b, "  [cl=%d te=%v close=%v] body %q", resp.ContentLength, resp.TransferEncoding, resp.Close, body)
			if err != nil {
				fmt.Fprintf(&b, " (body: %v)", err)
			}
			if len(resp.Trailer) > 0 {
				fmt.Fprintf(&b, " trailer %v", resp.Trailer)
			}
			b.WriteString("\n")
			if err != nil {
				goto done
			}
			if resp.StatusCode >= 200 || resp.StatusCode == 101 {
				break
			}
		}
	}
done:
	rest, _ := io.ReadAll(br)
	if len(rest) > 0 {
		fmt.Fprintf(&b, "extra %q\n", rest)
	}
	fmt.Fprintf(&b, "<%s>", end)
	return b.String()
}

var (
	clFieldRe = regexp.MustCompile(`(?m)^  Content-Length: .*\n`)
	framingRe = regexp.MustCompile(`\[cl=-?\d+ te=\[\w*\] `)
)

// unframed is a description without the framing of its bodies.
func unframed(s string) string {
	return framingRe.ReplaceAllString(clFieldRe.ReplaceAllString(s, ""), "[")
}

// exchangeRaw sends raw to addr, whole or a byte at a time, and reads until the server
// ends the connection.
func exchangeRaw(t *testing.T, addr, raw string, bytewise bool) ([]byte, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second)) // a deadlock guard
	go func() {
		if !bytewise {
			c.Write([]byte(raw))
			return
		}
		for i := 0; i < len(raw); i++ {
			if _, err := c.Write([]byte{raw[i]}); err != nil {
				return
			}
		}
	}()
	b, err := io.ReadAll(c)
	end := "EOF"
	if err != nil {
		end = "err:" + errClass(err)
		if end == "err:reset" {
			end = "EOF" // a reset after the response: the server closed with input unread
		}
	}
	return b, end
}

// runDiff compares each case on FromNetHTTP and FromNetHTTPBlocking, in every mode, with
// net/http's server.
func runDiff(t *testing.T, cases []diffCase) {
	for _, dc := range cases {
		t.Run(dc.name, func(t *testing.T) {
			ref := map[bool]string{}
			sends := []bool{false, true}
			if dc.wholeOnly {
				sends = sends[:1]
			}
			for _, bytewise := range sends {
				obs := &obsLog{}
				hs := httptest.NewUnstartedServer(dc.handler(obs))
				hs.Config.ErrorLog = log.New(io.Discard, "", 0)
				hs.Start()
				raw, end := exchangeRaw(t, hs.Listener.Addr().String(), dc.raw, bytewise)
				hs.Close()
				ref[bytewise] = describeResponses(raw, dc.methods, end) + "\n--- observed\n" + obs.String()
			}
			for _, m := range looptest.Modes {
				for _, blocking := range []bool{false, true} {
					name := m.Name + "/loop"
					if blocking {
						name = m.Name + "/blocking"
					}
					if blocking && dc.skipBlocking != "" || !blocking && dc.skipLoop != "" {
						continue
					}
					t.Run(name, func(t *testing.T) {
						obs := &obsLog{}
						h := FromNetHTTP(dc.handler(obs))
						if blocking {
							h = FromNetHTTPBlocking(dc.handler(obs), 2)
						}
						ts := startServerOn(t, m.Opts, h)
						for _, bytewise := range sends {
							raw, end := exchangeRaw(t, ts.addr, dc.raw, bytewise)
							got := describeResponses(raw, dc.methods, end) + "\n--- observed\n" + obs.String()
							want := ref[bytewise]
							if blocking && !dc.exactFraming {
								got, want = unframed(got), unframed(want)
							}
							if got != want {
								t.Errorf("bytewise=%v:\n--- uvgo\n%s\n--- net/http\n%s", bytewise, got, want)
							}
							obs.mu.Lock()
							obs.lines = nil
							obs.mu.Unlock()
						}
					})
				}
			}
		})
	}
}

func hf(f func(obs *obsLog, w http.ResponseWriter, r *http.Request)) func(obs *obsLog) http.Handler {
	return func(obs *obsLog) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f(obs, w, r) })
	}
}

const getClose = "GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"

func TestNetHTTPDiffResponseWriterRev11n(t *testing.T) {
	runDiff(t, []diffCase{
		{name: "implicit200", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<html>hi") })},
		{name: "headerAfterWriteHeader", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Before", "1")
				w.WriteHeader(201)
				w.Header().Set("X-After", "1")
				w.Header().Set("Content-Type", "text/x-late")
				io.WriteString(w, "body")
			})},
		{name: "headerAfterWrite", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "body")
				w.Header().Set("X-After", "1")
			})},
		{name: "writeHeaderTwice", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(202)
				w.WriteHeader(404)
				io.WriteString(w, "x")
			})},
		{name: "earlyHints", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Add("Link", "</s.css>; rel=preload")
				w.WriteHeader(103)
				w.Header().Set("X-Final", "1")
				io.WriteString(w, "x")
			})},
		{name: "badCode", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				defer func() { obs.add("recovered %v", recover()) }()
				w.WriteHeader(99)
			})},
		{name: "badCodeBig", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				defer func() { obs.add("recovered %v", recover()) }()
				w.WriteHeader(1000)
			})},
		{name: "sniffSuppressed", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header()["Content-Type"] = nil
				io.WriteString(w, "<html>hi")
			})},
		{name: "sniffContentEncoding", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Encoding", "identity")
				io.WriteString(w, "<html>hi")
			})},
		{name: "clTooMany", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", "3")
				n, err := io.WriteString(w, "abcdef")
				obs.add("write %d %v", n, err)
			})},
		{name: "clTooFew", raw: "GET /x HTTP/1.1\r\nHost: h\r\n\r\n" + getClose, methods: []string{"GET", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", "10")
				n, err := io.WriteString(w, "abc")
				obs.add("write %d %v", n, err)
			})},
		{name: "headWithBody", raw: "HEAD /x HTTP/1.1\r\nHost: h\r\n\r\n" + getClose, methods: []string{"HEAD", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) { io.WriteString(w, "abc") })},
		{name: "headEmpty", raw: "HEAD /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", methods: []string{"HEAD"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {})},
		{name: "noContentWithBody", raw: "GET /x HTTP/1.1\r\nHost: h\r\n\r\n" + getClose, methods: []string{"GET", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(204)
				n, err := io.WriteString(w, "abc")
				obs.add("write %d %v", n, err)
			})},
		{name: "notModifiedWithBody", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(304)
				n, err := io.WriteString(w, "abc")
				obs.add("write %d %v", n, err)
			})},
		{name: "trailerDeclared", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Trailer", "X-Sum, X-Two")
				io.WriteString(w, "abc")
				w.Header().Set("X-Sum", "s")
				w.Header().Add("X-Two", "1")
				w.Header().Add("X-Two", "2")
			})},
		{name: "trailerNoBody", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Trailer", "X-Sum")
				w.Header().Set("X-Sum", "s")
			})},
		{name: "headBig", raw: "HEAD /x HTTP/1.1\r\nHost: h\r\n\r\n" + getClose, methods: []string{"HEAD", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				n, err := io.WriteString(w, strings.Repeat("h", 5000))
				obs.add("write %d %v", n, err)
			})},
		{name: "headFlush", raw: "HEAD /x HTTP/1.1\r\nHost: h\r\n\r\n" + getClose, methods: []string{"HEAD", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "abc")
				w.(http.Flusher).Flush()
			})},
		{name: "continueInterim", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-C", "1")
				w.WriteHeader(100)
				w.WriteHeader(200)
			})},
		{name: "newlineInValue", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-N", "a\r\nb")
				w.Header().Set("X-Space", " pad ")
				io.WriteString(w, "x")
			})},
		{name: "controllerFlush", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "abc")
				obs.add("flush %v", http.NewResponseController(w).Flush())
				io.WriteString(w, "def")
			})},
		{name: "http10KeepAlive", skipBlocking: "FromNetHTTPBlocking frames a body it did not know the length of at its first write by closing, for HTTP/1.0 (documented: no Content-Length unless the handler sets one)", raw: "GET /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /y HTTP/1.0\r\n\r\n", methods: []string{"GET", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) })},
		{name: "unreadBody", raw: "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789" + getClose, methods: []string{"POST", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) })},
		{name: "unreadChunked", raw: "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + strings.Repeat("400\r\n"+strings.Repeat("c", 1024)+"\r\n", 40) + "0\r\n\r\n" + getClose, methods: []string{"POST", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) })},
		{name: "unreadLarge", wholeOnly: true, raw: "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 204800\r\n\r\n" + strings.Repeat("L", 204800) + getClose, methods: []string{"POST", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) })},
		{name: "expectRead", raw: "POST /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc" + getClose, methods: []string{"POST", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				b, err := io.ReadAll(r.Body)
				obs.add("body %q %v", b, err)
			})},
		{name: "trailerPrefix", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.(http.Flusher).Flush()
				io.WriteString(w, "abc")
				w.Header().Set(http.TrailerPrefix+"X-Late", "l")
			})},
		{name: "flushThenWrite", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "abc")
				w.(http.Flusher).Flush()
				io.WriteString(w, "def")
			})},
		{name: "connectionClose", raw: "GET /x HTTP/1.1\r\nHost: h\r\n\r\n" + getClose, methods: []string{"GET", "GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Connection", "close")
				io.WriteString(w, "abc")
			})},
		{name: "abortHandler", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) })},
		{name: "bigChunked", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, strings.Repeat("a", 5000))
			})},
		{name: "writeHeaderOnly", raw: getClose, methods: []string{"GET"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-A", "1")
				w.WriteHeader(404)
			})},
	})
}

func TestNetHTTPDiffRequestRev11n(t *testing.T) {
	dump := hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
		obs.add("%s host=%q uri=%q url=%q urlhost=%q path=%q proto=%s %d.%d close=%v cl=%d te=%q getbody=%v",
			r.Method, r.Host, r.RequestURI, r.URL.String(), r.URL.Host, r.URL.Path, r.Proto, r.ProtoMajor, r.ProtoMinor,
			r.Close, r.ContentLength, r.TransferEncoding, r.GetBody != nil)
		obs.add("remote ok=%v", strings.HasPrefix(r.RemoteAddr, "127.0.0.1:"))
		keys := make([]string, 0, len(r.Header))
		for k := range r.Header {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			obs.add("  %s: %q", k, r.Header[k])
		}
		obs.add("trailer before %v", r.Trailer)
		if r.Header.Get("Content-Type") == "application/x-www-form-urlencoded" {
			err := r.ParseForm()
			obs.add("form %v %v", r.PostForm, err)
		} else {
			b, err := io.ReadAll(r.Body)
			obs.add("body %q %v", b, err)
			n, err := r.Body.Read(make([]byte, 1))
			obs.add("again %d %v", n, err)
		}
		obs.add("trailer after %v", r.Trailer)
	})
	runDiff(t, []diffCase{
		{name: "origin", raw: "GET /a/b?c=d&e HTTP/1.1\r\nHost: example.com\r\nX-Rep: 1\r\nx-rep: 2\r\nuser-agent: u\r\nConnection: close\r\n\r\n", methods: []string{"GET"}, handler: dump},
		{name: "absolute", raw: "GET http://example.com:8080/p%20q?x=1 HTTP/1.1\r\nHost: other\r\nConnection: close\r\n\r\n", methods: []string{"GET"}, handler: dump},
		{name: "emptyChunkedTrailer", raw: "POST /c HTTP/1.1\r\nHost: h\r\nTrailer: X-T\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\nX-T: tv\r\n\r\n", methods: []string{"POST"}, handler: dump},
		{name: "undeclaredTrailer", raw: "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\nx-u: 1\r\nX-U: 2\r\n\r\n", methods: []string{"POST"}, handler: dump},
		{name: "readAfterClose", raw: "PUT /l HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello", methods: []string{"PUT"},
			handler: hf(func(obs *obsLog, w http.ResponseWriter, r *http.Request) {
				b := make([]byte, 2)
				n, err := io.ReadFull(r.Body, b) // (a streamed body's Read may return 1)
				obs.add("read %d %v", n, err)
				obs.add("close %v", r.Body.Close())
				n, err = r.Body.Read(b)
				obs.add("read after close %d %v", n, err)
			})},
		{name: "absoluteNoHost", raw: "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n", methods: []string{"GET"}, handler: dump},
		{name: "pipelined", raw: "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTrailer: X-A\r\n\r\n1\r\nz\r\n0\r\nX-A: a\r\n\r\n" +
			"POST /b HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\ny\r\n0\r\n\r\n" + getClose, methods: []string{"POST", "POST", "GET"}, handler: dump},
		{name: "http10", raw: "GET /z HTTP/1.0\r\n\r\n", methods: []string{"GET"}, handler: dump},
		{name: "chunkedTrailer", raw: "POST /c HTTP/1.1\r\nHost: h\r\nTrailer: X-T\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\nX-T: tv\r\n\r\n", methods: []string{"POST"}, handler: dump},
		{name: "form", raw: "POST /f HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\nConnection: close\r\n\r\na=1&b=2", methods: []string{"POST"}, handler: dump},
		{name: "length", raw: "PUT /l HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello" + getClose, methods: []string{"PUT", "GET"}, handler: dump},
	})
}

// TestNetHTTPBlockingExpectRev11n: a client that sends "Expect: 100-continue" and waits
// gets no 100 (Continue) from a handler that answers without reading the body, as from
// net/http's server; and gets it from one that reads. (FromNetHTTP reads the body before
// the handler runs, and sends the 100 then: documented.)
func TestNetHTTPBlockingExpectRev11n(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/read" {
			b, _ := io.ReadAll(r.Body)
			w.Write(b)
			return
		}
		w.WriteHeader(403)
	})
	first := func(t *testing.T, addr, path string) string {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(20 * time.Second)) // a deadlock guard
		io.WriteString(c, "POST "+path+" HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return err.Error()
		}
		got := resp.Status
		if resp.StatusCode == 100 {
			io.WriteString(c, "abc")
			if resp, err = http.ReadResponse(br, nil); err != nil {
				return got + ", " + err.Error()
			}
			b, _ := io.ReadAll(resp.Body)
			got += ", " + resp.Status + " " + string(b)
		}
		return got
	}
	hs := httptest.NewServer(h)
	want := []string{first(t, hs.Listener.Addr().String(), "/no"), first(t, hs.Listener.Addr().String(), "/read")}
	hs.Close()
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			ts := startServerOn(t, m.Opts, FromNetHTTPBlocking(h, 2))
			for i, path := range []string{"/no", "/read"} {
				if got := first(t, ts.addr, path); got != want[i] {
					t.Errorf("%s: %q; net/http %q", path, got, want[i])
				}
			}
		})
	}
}
