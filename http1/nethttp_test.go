package http1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// service is an ordinary net/http service with its httptest-style tests below; served on
// the loop, it must answer as it does in the recorder.
func service() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /hello/{name}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello, %s (%s)", r.PathValue("name"), r.URL.Query().Get("lang"))
	})
	mux.HandleFunc("POST /json", func(w http.ResponseWriter, r *http.Request) {
		var v map[string]any
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		v["seen"] = r.Header.Get("X-Trace")
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	})
	mux.HandleFunc("GET /teapot", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Tea", "earl grey")
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte(strings.Repeat("t", 10000)))
	})
	mux.HandleFunc("GET /panic", func(w http.ResponseWriter, r *http.Request) { panic("boom") })
	return mux
}

type call struct {
	method, path, body string
	header             http.Header
}

var calls = []call{
	{method: "GET", path: "/hello/uv?lang=go"},
	{method: "POST", path: "/json", body: `{"a":1}`, header: http.Header{"X-Trace": {"t1"}}},
	{method: "POST", path: "/json", body: `{bad`},
	{method: "GET", path: "/teapot"},
	{method: "GET", path: "/nowhere"},
}

// recorded runs c through httptest, as the service's own tests do.
func recorded(h http.Handler, c call) (int, http.Header, string) {
	req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
	for k, v := range c.header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Result().Header, rec.Body.String()
}

// served runs c against the service on net/http's own server: the reference for the
// response's header.
func served(t *testing.T, client *http.Client, base string, c call) (int, http.Header, string) {
	req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
	for k, v := range c.header {
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header, string(b)
}

func checkBridge(t *testing.T, ts *testServer) {
	h := service()
	ref := httptest.NewServer(h)
	defer ref.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	for _, c := range calls {
		wantCode, _, wantBody := recorded(h, c)
		_, wantHdr, _ := served(t, client, ref.URL, c)
		code, hdr, body := served(t, client, "http://"+ts.addr, c)
		if code != wantCode || body != wantBody {
			t.Fatalf("%s %s: %d %q; httptest %d %q", c.method, c.path, code, body, wantCode, wantBody)
		}
		for _, k := range []string{"Content-Type", "X-Tea", "X-Content-Type-Options"} {
			if hdr.Get(k) != wantHdr.Get(k) {
				t.Fatalf("%s %s: %s %q; net/http %q", c.method, c.path, k, hdr.Get(k), wantHdr.Get(k))
			}
		}
	}
	resp, err := client.Get("http://" + ts.addr + "/panic")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 500 {
		t.Fatalf("panic: %d", resp.StatusCode)
	}
}

func TestFromNetHTTP(t *testing.T) {
	checkBridge(t, startServer(t, FromNetHTTP(service())))
}

func TestFromNetHTTPBlocking(t *testing.T) {
	checkBridge(t, startServer(t, FromNetHTTPBlocking(service(), 2)))
}

// TestFromNetHTTPBlockingStreams: a blocking handler streams a large body back as it
// reads it, several clients at once on two workers; and a Flush reaches the client while
// the handler blocks.
func TestFromNetHTTPBlockingStreams(t *testing.T) {
	proceed := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 7000)
		for {
			n, err := r.Body.Read(buf)
			w.Write(buf[:n])
			if err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/flush", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "first;")
		w.(http.Flusher).Flush()
		<-proceed // blocks until the client has read "first;"
		io.WriteString(w, "second")
	})
	ts := startServer(t, FromNetHTTPBlocking(mux, 2), MaxBodySize(-1))
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	body := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Post("http://"+ts.addr+"/echo", "application/octet-stream", bytes.NewReader(body))
			if err != nil {
				errs <- err
				return
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || !bytes.Equal(got, body) {
				errs <- fmt.Errorf("echo: %d bytes, %v", len(got), err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	resp, err := client.Get("http://" + ts.addr + "/flush")
	if err != nil {
		t.Fatal(err)
	}
	first := make([]byte, len("first;"))
	if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != "first;" {
		t.Fatalf("%q %v", first, err)
	}
	close(proceed)
	rest, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(rest) != "second" {
		t.Fatalf("%q", rest)
	}
}
