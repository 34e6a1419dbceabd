// Command echoclient drives a TCP echo server for bench/net.sh: -c connections, each
// sending a -size byte message and waiting for its echo, over and over for -d; it prints
// the round trips per second of all connections together:
//
//	echoclient -addr 127.0.0.1:7000 -c 50 -size 64 -d 5s
//	rtt_per_s=123456 round_trips=617280 conns=50 size=64
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7000", "echo server")
	conns := flag.Int("c", 50, "connections")
	size := flag.Int("size", 64, "message size in bytes")
	d := flag.Duration("d", 5*time.Second, "duration")
	flag.Parse()

	cs := make([]net.Conn, *conns)
	for i := range cs {
		c, err := net.Dial("tcp", *addr)
		if err != nil {
			log.Fatal(err)
		}
		cs[i] = c
	}
	var total atomic.Int64
	var failed atomic.Value
	deadline := time.Now().Add(*d)
	start := time.Now()
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			defer c.Close()
			msg := bytes.Repeat([]byte{byte('a' + i%26)}, *size)
			got := make([]byte, *size)
			n := int64(0)
			for ; n&63 != 0 || time.Now().Before(deadline); n++ {
				if _, err := c.Write(msg); err != nil {
					failed.Store(err)
					break
				}
				if _, err := io.ReadFull(c, got); err != nil {
					failed.Store(err)
					break
				}
				if got[0] != msg[0] || got[*size-1] != msg[*size-1] {
					failed.Store(fmt.Errorf("connection %d: wrong echo", i))
					break
				}
			}
			total.Add(n)
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := failed.Load(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("rtt_per_s=%.0f round_trips=%d conns=%d size=%d\n",
		float64(total.Load())/elapsed.Seconds(), total.Load(), *conns, *size)
}
