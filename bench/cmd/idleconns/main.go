// Command idleconns measures what idle connections cost a server for bench/net.sh: it
// reads the server's resident set size (VmRSS in /proc/PID/status), opens -n connections
// to it, sends one byte on each and waits for its echo (so that the server has accepted and
// read every one), waits for the RSS to settle, reads it again and prints the growth per
// connection:
//
//	idleconns -addr 127.0.0.1:7000 -pid 1234 -n 10000
//	rss_before_kb=... rss_after_kb=... bytes_per_conn=... conns=10000
//
// It raises its own RLIMIT_NOFILE to the hard limit first; the server's must be raised by
// whoever starts it (bench/net.sh does with ulimit -n). Linux only.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:7000", "echo server")
	pid := flag.Int("pid", 0, "the server's process id")
	n := flag.Int("n", 10000, "connections")
	flag.Parse()
	if *pid == 0 {
		log.Fatal("idleconns: -pid is required")
	}
	if cur := raiseNofile(); cur < uint64(*n)+64 {
		log.Fatalf("idleconns: RLIMIT_NOFILE is %d, need %d", cur, *n+64)
	}
	before := rss(*pid)
	conns := make([]net.Conn, 0, *n)
	one := []byte{'x'}
	for i := range *n {
		c, err := net.Dial("tcp", *addr)
		if err != nil {
			log.Fatalf("idleconns: connection %d: %v", i, err)
		}
		if _, err := c.Write(one); err != nil {
			log.Fatal(err)
		}
		var b [1]byte
		if _, err := io.ReadFull(c, b[:]); err != nil {
			log.Fatalf("idleconns: connection %d: %v", i, err)
		}
		conns = append(conns, c)
	}
	time.Sleep(500 * time.Millisecond)
	after := rss(*pid)
	fmt.Printf("rss_before_kb=%d rss_after_kb=%d bytes_per_conn=%.0f conns=%d\n",
		before, after, float64(after-before)*1024/float64(*n), *n)
	for _, c := range conns {
		c.Close()
	}
}

// rss returns VmRSS of pid in kB.
func rss(pid int) int64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				log.Fatal(err)
			}
			return kb
		}
	}
	log.Fatalf("idleconns: no VmRSS for pid %d", pid)
	return 0
}
