#!/usr/bin/env bash
# uring.sh — uvgo's io_uring backend beside its epoll backend (UVGO_BACKEND), with Go's
# net/http at GOMAXPROCS=1 and Node as references, on loopback, interleaved rounds:
#   HTTP hello   examples/http under wrk (-t1 -c$CONNS): requests/s and the server's CPU
#                µs per request (utime+stime from /proc/PID/stat over the wrk run)
#   syscalls     system calls per HTTP request, counted by strace -c -f attached to the
#                server during a wrk run (futex/nanosleep/tgkill of the Go runtime included)
#   TCP echo     examples/echo driven by cmd/echoclient: round trips/s
#   idle conns   RSS growth per idle connection to examples/echo (cmd/idleconns)
#   ROUNDS=3 DURATION=5s CONNS=50 IDLE=5000 ./uring.sh
set -euo pipefail
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-50}
IDLE=${IDLE:-5000}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d)
pid=""
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
(cd "$root" && go build -o "$tmp/uvhttp" ./examples/http && go build -o "$tmp/uvecho" ./examples/echo)
(cd "$here" && go build -o "$tmp/nethttp" ./peers/nethttp && go build -o "$tmp/echoclient" ./cmd/echoclient &&
	go build -o "$tmp/idleconns" ./cmd/idleconns)
tck=$(getconf CLK_TCK)
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
start() { # name port: starts the server, sets pid
	case $1 in
	epoll | io_uring) UVGO_BACKEND=$1 "$tmp/uvhttp" -addr "127.0.0.1:$2" >/dev/null 2>&1 & ;;
	nethttp-1) GOMAXPROCS=1 "$tmp/nethttp" -addr "127.0.0.1:$2" >/dev/null 2>&1 & ;;
	node) node "$here/node/http-hello.js" "$2" >/dev/null 2>&1 & ;;
	echo-epoll | echo-io_uring) UVGO_BACKEND=${1#echo-} "$tmp/uvecho" -addr "127.0.0.1:$2" >/dev/null 2>&1 & ;;
	esac
	pid=$!
	for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null && return; sleep 0.1; done
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
port=18600
echo "| round | server | req/s | CPU µs/req |"
echo "|---|---|---|---|"
for r in $(seq "$ROUNDS"); do
	for s in epoll io_uring nethttp-1 node; do
		port=$((port + 1))
		start "$s" "$port"
		wrk -t1 -c"$CONNS" -d1s "http://127.0.0.1:$port/" >/dev/null # warm up
		c0=$(cpu "$pid")
		out=$(wrk -t1 -c"$CONNS" -d"$DURATION" "http://127.0.0.1:$port/")
		c1=$(cpu "$pid")
		n=$(echo "$out" | awk '/requests in/{print $1}')
		rps=$(echo "$out" | awk '/Requests\/sec/{printf "%d", $2}')
		echo "| $r | $s | $rps | $(awk "BEGIN{printf \"%.2f\", ($c1-$c0)/$tck*1e6/$n}") |"
		stop
	done
done
echo
echo "| server | requests | syscalls/request (strace -c -f, all calls) | of which read/write/epoll_pwait/io_uring_enter |"
echo "|---|---|---|---|"
for s in epoll io_uring; do
	port=$((port + 1))
	start "$s" "$port"
	timeout -s INT 4 strace -f -c -o "$tmp/strace" -p "$pid" 2>/dev/null &
	sleep 0.5
	n=$(wrk -t1 -c"$CONNS" -d3s "http://127.0.0.1:$port/" | awk '/requests in/{print $1}')
	wait %% 2>/dev/null || sleep 1
	total=$(awk '$NF=="total"{print $4}' "$tmp/strace")
	io=$(awk '$NF=="read"||$NF=="write"||$NF=="epoll_pwait"||$NF=="io_uring_enter"{c+=$4} END{print c+0}' "$tmp/strace")
	echo "| $s | $n | $(awk "BEGIN{printf \"%.2f\", $total/$n}") | $(awk "BEGIN{printf \"%.2f\", $io/$n}") |"
	stop
done
echo
echo "| round | echo server | round trips/s ($CONNS conns, 64 B) |"
echo "|---|---|---|"
for r in $(seq "$ROUNDS"); do
	for s in echo-epoll echo-io_uring; do
		port=$((port + 1))
		start "$s" "$port"
		v=$("$tmp/echoclient" -addr "127.0.0.1:$port" -c "$CONNS" -size 64 -d "$DURATION" | sed 's/.*rtt_per_s=\([0-9]*\).*/\1/')
		echo "| $r | $s | $v |"
		stop
	done
done
echo
echo "| echo server | RSS per idle connection ($IDLE conns) |"
echo "|---|---|"
for s in echo-epoll echo-io_uring; do
	port=$((port + 1))
	start "$s" "$port"
	echo "| $s | $("$tmp/idleconns" -addr "127.0.0.1:$port" -pid "$pid" -n "$IDLE") |"
	stop
done
