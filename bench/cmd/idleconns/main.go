// Command idleconns measures what idle connections cost a server for bench/net.sh: it
// opens connections to it, sends one byte on each and waits for its echo (so that the server
// has accepted and read every one), and prints the growth of the server's resident set size
// (VmRSS in /proc/PID/status) per connection:
//
//	idleconns -addr 127.0.0.1:7000 -pid 1234 -n 10000
//	rss_start_kb=... rss_before_kb=... rss_after_kb=... bytes_per_conn=... bytes_per_conn_all=... conns=10000 warm=1000
//
// Of the -n connections, it first opens -warm (1,000, or a fifth of -n if less; kept open) and reads the RSS (rss_before_kb),
// then opens the rest and reads it again (rss_after_kb): bytes_per_conn is the growth over
// the rest, what one more idle connection costs. The warm-up takes out what a server pays
// once, at its first connections, whatever their number: the first page of each of
// io_uring's provided receive buffers (the kernel takes a fresh one for each receive, round
// the ring, so 256 buffers cost 256 pages, 1 MiB, by the 256th connection), a shared read
// buffer's first page, the first spans of each size class. bytes_per_conn_all is the growth
// from before the first connection (rss_start_kb) over all -n, fixed costs included: what
// the tool printed as bytes_per_conn before it had a warm-up.
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
	n := flag.Int("n", 10000, "connections, the warm-up's included")
	warm := flag.Int("warm", -1, "of the -n connections, how many are opened (and kept open) before the measured ones (default min(1000, n/5))")
	flag.Parse()
	if *warm == -1 {
		*warm = min(1000, *n/5)
	}
	if *pid == 0 {
		log.Fatal("idleconns: -pid is required")
	}
	if *warm < 0 || *warm >= *n {
		log.Fatalf("idleconns: -warm must be at least 0 and less than -n (%d)", *n)
	}
	if cur := raiseNofile(); cur < uint64(*n)+64 {
		log.Fatalf("idleconns: RLIMIT_NOFILE is %d, need %d", cur, *n+64)
	}
	conns := make([]net.Conn, 0, *n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	// open opens k more connections, each echoing one byte, and returns the RSS after.
	open := func(k int) int64 {
		one := []byte{'x'}
		for range k {
			c, err := net.Dial("tcp", *addr)
			if err != nil {
				log.Fatalf("idleconns: connection %d: %v", len(conns), err)
			}
			conns = append(conns, c)
			if _, err := c.Write(one); err != nil {
				log.Fatal(err)
			}
			var b [1]byte
			if _, err := io.ReadFull(c, b[:]); err != nil {
				log.Fatalf("idleconns: connection %d: %v", len(conns)-1, err)
			}
		}
		time.Sleep(500 * time.Millisecond)
		return rss(*pid)
	}
	start := rss(*pid)
	before := open(*warm)
	after := open(*n - *warm)
	perConn := func(kb int64, k int) float64 { return float64(kb) * 1024 / float64(k) }
	fmt.Printf("rss_start_kb=%d rss_before_kb=%d rss_after_kb=%d bytes_per_conn=%.0f bytes_per_conn_all=%.0f conns=%d warm=%d\n",
		start, before, after, perConn(after-before, *n-*warm), perConn(after-start, *n), *n, *warm)
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
