// Command nethttp is the net/http peer of examples/http for bench/net.sh: the same
// response ("Hello, World!", text/plain, Content-Length, Date) from Go's net/http server.
// Run it with GOMAXPROCS=1 to compare one core with one loop.
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	body := []byte("Hello, World!")
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd["Content-Type"] = []string{"text/plain"}
		hd["Content-Length"] = []string{"13"}
		w.Write(body)
	})
	log.Fatal(http.ListenAndServe(*addr, h))
}
