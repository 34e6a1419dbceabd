package http1_test

import (
	"fmt"
	"io"
	"net/http"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/uvloop"
)

// A request arrives in two pieces, cut inside a header: the parser keeps its place.
func ExampleParser() {
	var p http1.Parser
	pieces := []string{
		"POST /upload HTTP/1.1\r\nHost: example.com\r\nTransfer-Enc",
		"oding: chunked\r\n\r\n5\r\nhello\r\n0\r\nChecksum: 42\r\n\r\n",
	}
	for _, piece := range pieces {
		data := []byte(piece)
		for {
			n, ev, err := p.Parse(data)
			if err != nil {
				fmt.Println("refused:", err.(*http1.Error).Status)
				return
			}
			data = data[n:]
			switch ev {
			case http1.EventHead:
				r := p.Request()
				fmt.Printf("head: %s %s host=%s chunked=%v\n", r.Method, r.Target, r.Host, r.Chunked)
			case http1.EventBody:
				fmt.Printf("body: %q\n", p.Body())
			case http1.EventEnd:
				fmt.Printf("end: trailer %s=%s\n", p.Trailers()[0].Name, p.Trailers()[0].Value)
			}
			if ev == http1.EventNone {
				break
			}
		}
	}
	// The overflow that a parser checking after the multiply would read as 5:
	var q http1.Parser
	_, _, err := q.Parse([]byte("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 18446744073709551621\r\n\r\n"))
	fmt.Println(err, err.(*http1.Error).Status)
	// Output:
	// head: POST /upload host=example.com chunked=true
	// body: "hello"
	// end: trailer Checksum=42
	// http1: invalid Content-Length 400
}

// A server on a loop, asked by net/http's client from another goroutine.
func ExampleServer() {
	loop, _ := uvloop.New()
	srv := http1.NewServer(loop, http1.HandlerFunc(func(w *http1.Response, r *http1.Request) {
		w.AddHeader("Content-Type", "text/plain")
		w.EndString("Hello from " + string(r.Target))
	}))
	addr, err := srv.ListenTCP("127.0.0.1:0", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	go func() {
		resp, err := http.Get("http://" + addr.String() + "/uvgo")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			fmt.Println(resp.Status, string(b))
		}
		http.DefaultClient.CloseIdleConnections()
		loop.Post(func() { srv.Close(nil) })
	}()
	loop.Run(uvloop.RunDefault)
	loop.Close()
	// Output:
	// 200 OK Hello from /uvgo
}

// A net/http handler served by uvgo: only how it is served changes.
func ExampleFromNetHTTP() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /greet/{name}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hi %s", r.PathValue("name"))
	})
	loop, _ := uvloop.New()
	srv := http1.NewServer(loop, http1.FromNetHTTP(mux))
	addr, _ := srv.ListenTCP("127.0.0.1:0", 0)
	go func() {
		resp, err := http.Get("http://" + addr.String() + "/greet/gopher")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), string(b))
		}
		http.DefaultClient.CloseIdleConnections()
		loop.Post(func() { srv.Close(nil) })
	}()
	loop.Run(uvloop.RunDefault)
	loop.Close()
	// Output:
	// 200 text/plain; charset=utf-8 hi gopher
}
