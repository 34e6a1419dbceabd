// Command uvhttp1 is the hello server written directly on package http1 (no example
// program around it): a HandlerFunc that sets the status line's fields and ends with the
// body, on one loop. It is the "http1" row of bench/net.sh and the http1 peer of the
// http-hello workload.
package main

import (
	"flag"
	"log"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	runtime.LockOSThread()
	loop, err := uvloop.New()
	if err != nil {
		log.Fatal(err)
	}
	body := []byte("Hello, World!")
	srv := http1.NewServer(loop, http1.HandlerFunc(func(w *http1.Response, r *http1.Request) {
		w.AddHeader("Content-Type", "text/plain")
		w.End(body)
	}))
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
