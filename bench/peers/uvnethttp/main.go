// Command uvnethttp serves the net/http handler of peers/nethttp (the same bytes as
// examples/http) on one uvgo loop through http1.FromNetHTTP (the handler on the loop
// goroutine), or with -blocking through http1.FromNetHTTPBlocking (worker goroutines). It
// is the "net/http bridge" row of bench/net.sh and the http-hello workload.
package main

import (
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	blocking := flag.Int("blocking", 0, "serve with FromNetHTTPBlocking and this many workers (0: FromNetHTTP, on the loop)")
	flag.Parse()
	body := []byte("Hello, World!")
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd["Content-Type"] = []string{"text/plain"}
		hd["Content-Length"] = []string{"13"}
		w.Write(body)
	})
	runtime.LockOSThread()
	loop, err := uvloop.New()
	if err != nil {
		log.Fatal(err)
	}
	handler := http1.FromNetHTTP(h)
	if *blocking > 0 {
		handler = http1.FromNetHTTPBlocking(h, *blocking)
	}
	srv := http1.NewServer(loop, handler)
	if _, err := srv.ListenTCP(*addr, 0); err != nil {
		log.Fatal(err)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		loop.Post(func() { srv.Close(nil) })
	}()
	if _, err := loop.Run(uvloop.RunDefault); err != nil {
		log.Fatal(err)
	}
	loop.Close()
}
