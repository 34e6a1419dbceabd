package main

import (
	"bufio"
	"net"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// neverEstablished reports whether the server's kernel has acknowledged nothing written on
// conn but its SYN (tcpi_bytes_acked counts the SYN as 1): the handshake completed on this
// side, but the server's side is still a request in its SYN queue. That is Linux's answer
// to a full accept queue (tcp_abort_on_overflow 0): it drops the handshake's last ACK, and
// the data behind it, and retransmits its SYN-ACK (1 s, 3 s, 7 s...) until the queue takes
// the connection; the client's data waits for its own backed-off retransmission. The
// server's process has not seen the connection, so no server could have answered.
func neverEstablished(conn net.Conn) bool {
	tc, ok := conn.(*net.TCPConn)
	if !ok {
		return false
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return false
	}
	var info *unix.TCPInfo
	raw.Control(func(fd uintptr) {
		info, _ = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
	})
	return info != nil && info.Bytes_acked <= 1 && info.Unacked > 0
}

// listenOverflows returns the host's count of handshakes dropped at a full accept queue
// (TcpExt ListenOverflows in /proc/net/netstat, as `nstat` shows it), or -1.
func listenOverflows() int64 {
	f, err := os.Open("/proc/net/netstat")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		names := strings.Fields(sc.Text())
		if !sc.Scan() {
			break
		}
		values := strings.Fields(sc.Text())
		if len(names) == 0 || names[0] != "TcpExt:" || len(values) != len(names) {
			continue
		}
		for i, n := range names {
			if n == "ListenOverflows" {
				v, err := strconv.ParseInt(values[i], 10, 64)
				if err != nil {
					return -1
				}
				return v
			}
		}
	}
	return -1
}
