#!/usr/bin/env bash
# uring.sh — uvgo's io_uring backend beside its epoll backend (UVGO_BACKEND), with Go's
# net/http at GOMAXPROCS=1, Node and libuv in C (libuv/echo_server.c) as references, on
# loopback, interleaved rounds:
#   HTTP hello   examples/http under wrk (-t1 -c$CONNS): requests/s and the server's CPU
#                µs per request (utime+stime from /proc/PID/stat over the wrk run), and its
#                user-space part (utime; the rest is the kernel's: TCP over loopback, wake-ups);
#                then, on the same server, under libuv/http_client.c (C, epoll, $CONNS
#                keep-alive connections, one request in flight on each, as wrk): requests/s
#                and CPU µs per request again. On its core wrk itself runs at 96-100%, and
#                it costs more per request than the C client, so with it a fast server waits
#                for its client: the C client's rows say what the servers do
#   syscalls     system calls per HTTP request, counted by strace -c -f attached to the
#                server during a wrk run (futex/nanosleep/tgkill of the Go runtime included)
#   TCP echo     examples/echo, Node's net and libuv's echo_server driven by libuv/echo_client.c
#                (C, epoll; cmd/echoclient where no C compiler builds it):
#                round trips/s, and the server's CPU µs per round trip; then, on the same
#                server, one connection alone: its round trips/s is 1 ÷ the round trip's time
#                (latency, where the 50 connections' rate is throughput)
#   idle conns   RSS growth per idle connection to each echo server (cmd/idleconns: over the
#                last IDLE-1000 of the IDLE connections, so that fixed costs such as io_uring's
#                receive buffers' first pages, 1 MiB by the 256th connection, are not counted)
# With 2 CPUs or more (and taskset), every server (all its threads) runs on CPU 0 and the
# client (wrk, the C clients, idleconns) on CPU 1, so that a server's rate is what one core does
# (PIN=0: no pinning). Prints each round, then the medians side by side and the issue's aims;
# on a busy machine the CPU µs per request is steadier than the rates, so its ratios follow.
#   ROUNDS=3 DURATION=5s CONNS=50 IDLE=5000 PIN=1 ./uring.sh
set -euo pipefail
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-50}
IDLE=${IDLE:-5000}
PIN=${PIN:-1}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true # the idle connections; servers inherit it
(cd "$root" && go build -o "$tmp/uvhttp" ./examples/http && go build -o "$tmp/uvecho" ./examples/echo)
(cd "$here" && go build -o "$tmp/nethttp" ./peers/nethttp && go build -o "$tmp/echoclient" ./cmd/echoclient &&
	go build -o "$tmp/idleconns" ./cmd/idleconns)

# Which columns run: a missing tool skips its column, said once here.
http_servers=(epoll io_uring nethttp-1)
echo_servers=(echo-epoll echo-io_uring)
have_wrk=1
command -v wrk >/dev/null || { have_wrk=""; echo "uring.sh: wrk is not installed: no HTTP rows (apt-get install -y wrk)"; }
if command -v node >/dev/null; then
	http_servers+=(node)
	echo_servers+=(echo-node)
else
	echo "uring.sh: node is not installed: no Node column"
fi
if ${CC:-gcc} -O2 -std=gnu11 -o "$tmp/cecho" "$here/libuv/echo_server.c" -luv 2>"$tmp/cc.log"; then
	echo_servers+=(echo-libuv)
else
	echo "uring.sh: libuv/echo_server.c does not build with ${CC:-gcc} -luv: no libuv column (apt-get install -y libuv1-dev): $(head -1 "$tmp/cc.log")"
fi
secs() { # a duration of one unit (3s, 1.5s, 500ms or 1m) in seconds, for the C clients
	if ! [[ $1 =~ ^[0-9]+(\.[0-9]+)?(ms|s|m)$ ]]; then
		echo "uring.sh: DURATION must be a number of s, ms or m (3s, 500ms, 1m), not $1" >&2
		exit 2
	fi
	case $1 in
	*ms) awk "BEGIN{print ${1%ms}/1000}" ;;
	*m) awk "BEGIN{print ${1%m}*60}" ;;
	*) echo "${1%s}" ;;
	esac
}
secs "$DURATION" >/dev/null # refuse a bad DURATION now, not after minutes of rounds
# The HTTP client beside wrk: libuv/http_client.c (C, epoll, one thread).
have_hclient=""
if [ -n "$have_wrk" ]; then
	if ${CC:-gcc} -O2 -std=gnu11 -o "$tmp/hclient" "$here/libuv/http_client.c" 2>"$tmp/cc3.log"; then
		have_hclient=1
	else
		echo "uring.sh: libuv/http_client.c does not build: no C-client HTTP rows: $(head -1 "$tmp/cc3.log")"
	fi
fi
# The echo client: libuv/echo_client.c (plain epoll, one thread) where a C compiler builds it,
# since cmd/echoclient in Go limits the servers (with it they ran at ~40% of their core);
# cmd/echoclient otherwise.
if ${CC:-gcc} -O2 -std=gnu11 -o "$tmp/cclient" "$here/libuv/echo_client.c" 2>"$tmp/cc2.log"; then
	echo_drive() { # port duration [connections, CONNS by default]
		"${cli[@]}" "$tmp/cclient" "127.0.0.1:$1" "${3:-$CONNS}" 64 "$(secs "$2")"
	}
	echo "echo client: libuv/echo_client.c (C, epoll)"
else
	echo_drive() { "${cli[@]}" "$tmp/echoclient" -addr "127.0.0.1:$1" -c "${3:-$CONNS}" -size 64 -d "$2"; }
	echo "echo client: cmd/echoclient (Go): libuv/echo_client.c does not build: $(head -1 "$tmp/cc2.log")"
fi
have_strace=1
command -v strace >/dev/null || { have_strace=""; echo "uring.sh: strace is not installed: no system call row"; }
srv=() cli=()
if [ "$PIN" = 0 ]; then
	echo "not pinned (PIN=0): servers and clients share the CPUs"
elif [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	srv=(taskset -c 0) cli=(taskset -c 1)
	echo "pinned: every server (all its threads) to CPU 0 with taskset -c 0 (Go's GOMAXPROCS follows, so 1: net/http is run so; examples/echo and examples/http raise it to 2, a spare P for the runtime, README \"One connection, and GOMAXPROCS=1\"); the clients (wrk, the C clients, idleconns) to CPU 1"
else
	echo "not pinned ($(nproc) CPU(s)$(command -v taskset >/dev/null || echo ', no taskset')): servers and clients share the CPUs"
fi
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

tck=$(getconf CLK_TCK)
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
ucpu() { awk '{print $14}' "/proc/$1/stat"; } # user time only: the rest is the kernel's
start() { # name port: starts the server, sets pid
	case $1 in
	epoll | io_uring) UVGO_BACKEND=$1 "${srv[@]}" "$tmp/uvhttp" -addr "127.0.0.1:$2" >/dev/null 2>&1 & ;;
	nethttp-1) GOMAXPROCS=1 "${srv[@]}" "$tmp/nethttp" -addr "127.0.0.1:$2" >/dev/null 2>&1 & ;;
	node) "${srv[@]}" node "$here/node/http-hello.js" "$2" >/dev/null 2>&1 & ;;
	echo-epoll | echo-io_uring) UVGO_BACKEND=${1#echo-} "${srv[@]}" "$tmp/uvecho" -addr "127.0.0.1:$2" >/dev/null 2>&1 & ;;
	echo-node) "${srv[@]}" node "$here/node/tcp-echo-server.js" "$2" >/dev/null 2>&1 & ;;
	echo-libuv) "${srv[@]}" "$tmp/cecho" "127.0.0.1:$2" >/dev/null 2>&1 & ;;
	esac
	pid=$!
	for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null && return; sleep 0.1; done
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
record() { echo "$3" >>"$tmp/$1.$2"; } # row server value
median() { [ -s "$tmp/$1.$2" ] && sort -g "$tmp/$1.$2" | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
port=18600
if [ -n "$have_wrk" ]; then
	echo "| round | server | req/s (wrk) | CPU µs/req | of which user | req/s (C client) | CPU µs/req |"
	echo "|---|---|---|---|---|---|---|"
	for r in $(seq "$ROUNDS"); do
		for s in "${http_servers[@]}"; do
			port=$((port + 1))
			start "$s" "$port"
			"${cli[@]}" wrk -t1 -c"$CONNS" -d1s "http://127.0.0.1:$port/" >/dev/null # warm up
			c0=$(cpu "$pid") u0=$(ucpu "$pid")
			out=$("${cli[@]}" wrk -t1 -c"$CONNS" -d"$DURATION" "http://127.0.0.1:$port/")
			c1=$(cpu "$pid") u1=$(ucpu "$pid")
			n=$(echo "$out" | awk '/requests in/{print $1}')
			rps=$(echo "$out" | awk '/Requests\/sec/{printf "%d", $2}')
			us=$(awk "BEGIN{printf \"%.2f\", ($c1-$c0)/$tck*1e6/$n}")
			uus=$(awk "BEGIN{printf \"%.2f\", ($u1-$u0)/$tck*1e6/$n}")
			record rps "$s" "$rps"
			record cpu "$s" "$us"
			record ucpu "$s" "$uus"
			record kcpu "$s" "$(awk "BEGIN{printf \"%.2f\", $us-$uus}")"
			crps="" cus=""
			if [ -n "$have_hclient" ]; then
				c0=$(cpu "$pid")
				out=$("${cli[@]}" "$tmp/hclient" "127.0.0.1:$port" "$CONNS" "$(secs "$DURATION")") || out="" # its error is on stderr
				c1=$(cpu "$pid")
				n=$(echo "$out" | sed -n 's/.*requests=\([0-9]*\).*/\1/p')
				if [ "${n:-0}" -gt 0 ]; then
					crps=$(echo "$out" | sed -n 's/req_per_s=\([0-9]*\).*/\1/p')
					cus=$(awk "BEGIN{printf \"%.2f\", ($c1-$c0)/$tck*1e6/$n}")
					record crps "$s" "$crps"
					record ccpu "$s" "$cus"
				else
					crps="failed" # a round without it: its medians are of the others
				fi
			fi
			echo "| $r | $s | $rps | $us | $uus | $crps | $cus |"
			stop
		done
	done
	echo
fi
if [ -n "$have_wrk" ] && [ -n "$have_strace" ]; then
	echo "| server | requests | syscalls/request (strace -c -f, all calls) | of which read/write/epoll_pwait/io_uring_enter |"
	echo "|---|---|---|---|"
	for s in epoll io_uring; do
		port=$((port + 1))
		start "$s" "$port"
		timeout -s INT 4 strace -f -c -o "$tmp/strace" -p "$pid" 2>/dev/null &
		sleep 0.5
		n=$("${cli[@]}" wrk -t1 -c"$CONNS" -d3s "http://127.0.0.1:$port/" | awk '/requests in/{print $1}')
		wait %% 2>/dev/null || sleep 1
		total=$(awk '$NF=="total"{print $4}' "$tmp/strace")
		io=$(awk '$NF=="read"||$NF=="write"||$NF=="epoll_pwait"||$NF=="io_uring_enter"{c+=$4} END{print c+0}' "$tmp/strace")
		record sys "$s" "$(awk "BEGIN{printf \"%.2f\", $total/$n}")"
		record sysio "$s" "$(awk "BEGIN{printf \"%.2f\", $io/$n}")"
		echo "| $s | $n | $(median sys "$s") | $(median sysio "$s") |"
		stop
	done
	echo
fi
echo "| round | echo server | round trips/s ($CONNS conns, 64 B) | server CPU µs/round trip | round trips/s (1 conn) | server CPU µs/round trip (1 conn) | RSS per idle connection ($IDLE conns) |"
echo "|---|---|---|---|---|---|---|"
for r in $(seq "$ROUNDS"); do
	for s in "${echo_servers[@]}"; do
		port=$((port + 1))
		start "$s" "$port"
		echo_drive "$port" 1s >/dev/null # warm up
		c0=$(cpu "$pid")
		out=$(echo_drive "$port" "$DURATION") || out="" # its error is on stderr
		c1=$(cpu "$pid")
		v=$(echo "$out" | sed -n 's/.*rtt_per_s=\([0-9]*\).*/\1/p')
		n=$(echo "$out" | sed -n 's/.*round_trips=\([0-9]*\).*/\1/p')
		eus=""
		[ "${n:-0}" -gt 0 ] && eus=$(awk "BEGIN{printf \"%.2f\", ($c1-$c0)/$tck*1e6/$n}")
		c0=$(cpu "$pid")
		out=$(echo_drive "$port" "$DURATION" 1) || out=""
		c1=$(cpu "$pid")
		v1=$(echo "$out" | sed -n 's/.*rtt_per_s=\([0-9]*\).*/\1/p')
		n=$(echo "$out" | sed -n 's/.*round_trips=\([0-9]*\).*/\1/p')
		eus1=""
		[ "${n:-0}" -gt 0 ] && eus1=$(awk "BEGIN{printf \"%.2f\", ($c1-$c0)/$tck*1e6/$n}")
		stop
		port=$((port + 1))
		start "$s" "$port" # a fresh server for the idle connections
		b=$("${cli[@]}" "$tmp/idleconns" -addr "127.0.0.1:$port" -pid "$pid" -n "$IDLE" | sed 's/.*bytes_per_conn=\([0-9-]*\).*/\1/')
		stop
		[ -z "$v" ] || record rtt "${s#echo-}" "$v"
		[ -z "$eus" ] || record ecpu "${s#echo-}" "$eus"
		[ -z "$v1" ] || record rtt1 "${s#echo-}" "$v1"
		[ -z "$eus1" ] || record ecpu1 "${s#echo-}" "$eus1"
		record idle "${s#echo-}" "$b"
		echo "| $r | $s | $v | $eus | $v1 | $eus1 | $b B |"
	done
done
echo

# The medians side by side, and the issue's aims.
cols=(epoll io_uring libuv nethttp-1 node)
declare -A label=([epoll]="uvgo epoll" [io_uring]="uvgo io_uring" [libuv]="libuv C" [nethttp-1]="net/http GOMAXPROCS=1" [node]="Node")
cell() { local v; v=$(median "$1" "$2") && echo "$v$3" || echo; }
row() { # title metric [suffix]
	local line="| $1 |"
	for c in "${cols[@]}"; do line+=" $(cell "$2" "$c" "${3:-}") |"; done
	echo "$line"
}
hdr="| medians of $ROUNDS rounds |" sep="|---|"
for c in "${cols[@]}"; do hdr+=" ${label[$c]} |" sep+="--:|"; done
echo "$hdr"
echo "$sep"
if [ -n "$have_wrk" ]; then
	row "HTTP hello, req/s (wrk -t1 -c$CONNS)" rps
	row "HTTP hello, server CPU µs/request" cpu
	row "of which in user space" ucpu
	row "of which in the kernel" kcpu
fi
if [ -n "$have_wrk" ] && [ -n "$have_hclient" ]; then
	row "HTTP hello, req/s (C client, $CONNS conns)" crps
	row "HTTP hello, server CPU µs/request (C client)" ccpu
fi
if [ -n "$have_wrk" ] && [ -n "$have_strace" ]; then
	row "system calls/request (strace -c -f, all; 1 run)" sys
	row "of which read, write, epoll_pwait, io_uring_enter" sysio
fi
row "TCP echo, round trips/s ($CONNS conns, 64 B)" rtt
row "TCP echo, server CPU µs/round trip" ecpu
row "TCP echo, 1 connection: round trips/s (1 ÷ its latency)" rtt1
row "TCP echo, 1 connection: server CPU µs/round trip" ecpu1
row "RSS per idle echo connection ($IDLE)" idle " B"
echo
ratio() { # label metric a b: a/b of the medians
	local a b
	a=$(median "$2" "$3") && b=$(median "$2" "$4") && awk -v l="$1" -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%s: %.2f×\n", l, a / b }' || true
}
kratio() { # label server: net/http's whole CPU per request over the server's kernel part
	local a b
	a=$(median cpu nethttp-1) && b=$(median kcpu "$2") && awk -v l="$1" -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%s: %.2f×\n", l, a / b }' || true
}
for s in epoll io_uring; do
	[ -z "$have_wrk" ] || ratio "HTTP req/s, $s ÷ net/http GOMAXPROCS=1 (aim ≥ 3)" rps "$s" nethttp-1
	[ -z "$have_wrk" ] || ratio "HTTP req/s, $s ÷ Node (aim ≥ 2.5)" rps "$s" node
	[ -z "$have_hclient" ] || ratio "HTTP req/s (C client), $s ÷ net/http GOMAXPROCS=1 (aim ≥ 3)" crps "$s" nethttp-1
	[ -z "$have_hclient" ] || ratio "HTTP req/s (C client), $s ÷ Node (aim ≥ 2.5)" crps "$s" node
	[ -z "$have_wrk" ] || ratio "HTTP server CPU/request, net/http GOMAXPROCS=1 ÷ $s" cpu nethttp-1 "$s"
	[ -z "$have_wrk" ] || ratio "HTTP server CPU/request, Node ÷ $s" cpu node "$s"
	[ -z "$have_wrk" ] || kratio "HTTP server CPU/request, net/http GOMAXPROCS=1 ÷ $s's kernel part alone (the most req/s ratio any user space could reach)" "$s"
	ratio "echo round trips/s, $s ÷ libuv C (aim ≥ 1.25, i.e. round trip ≤ 0.8×)" rtt "$s" libuv
	ratio "echo server CPU/round trip, $s ÷ libuv C (aim ≤ 0.8)" ecpu "$s" libuv
	ratio "echo, 1 connection: round trips/s, $s ÷ libuv C (its latency is the inverse)" rtt1 "$s" libuv
	ratio "echo, 1 connection: server CPU/round trip, $s ÷ libuv C" ecpu1 "$s" libuv
	ratio "idle bytes/connection, $s ÷ libuv C (aim ≤ 1)" idle "$s" libuv
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
