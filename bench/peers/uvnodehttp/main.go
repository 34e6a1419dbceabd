// Command uvnodehttp is bench/node/http-hello.js ported to package nodehttp (Node's http
// API on one uvgo loop): the same handler, the same bytes. It is the "nodehttp" row of
// bench/net.sh and the nodehttp peer of the http-hello workload.
package main

import (
	"flag"
	"log"
	"net/netip"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/nodehttp"
	"github.com/uvgo/uvgo/uvloop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	ap, err := netip.ParseAddrPort(*addr)
	if err != nil {
		log.Fatal(err)
	}
	runtime.LockOSThread()
	loop, err := uvloop.New()
	if err != nil {
		log.Fatal(err)
	}
	const body = "Hello, World!"
	hdrs := []string{"Content-Type", "text/plain", "Content-Length", "13"}
	server := nodehttp.CreateServer(loop, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
		res.WriteHead(200, hdrs)
		res.EndString(body)
	})
	server.KeepAliveTimeout = 60 * time.Second
	server.OnError(func(err error) { log.Fatal(err) })
	server.Listen(int(ap.Port()), ap.Addr().String(), nil)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		loop.Post(func() { server.Close(nil); server.CloseAllConnections() })
	}()
	if _, err := loop.Run(uvloop.RunDefault); err != nil {
		log.Fatal(err)
	}
	loop.Close()
}
