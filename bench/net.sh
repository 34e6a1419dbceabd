#!/usr/bin/env bash
# net.sh — uvgo's network examples beside their peers on loopback, interleaved rounds:
#
#   HTTP hello    examples/http (1 loop, 2 loops) vs Node's http (node/http-hello.js) vs Go's
#                 net/http (peers/nethttp, GOMAXPROCS=1 and unrestricted), under wrk; the same
#                 net/http handler on one uvgo loop through http1.FromNetHTTP (peers/uvnethttp);
#                 the hello handler on package http1 directly (peers/uvhttp1) and Node's
#                 http-hello.js ported to package nodehttp (peers/uvnodehttp); each server's CPU
#                 time per request (utime+stime from /proc/PID/stat over the wrk run);
#                 BASELINE=path/to/binary adds another build of examples/http (an older commit,
#                 say) to the interleaved rounds, for A/B comparisons
#   TCP echo      examples/echo vs Node's net (node/tcp-echo-server.js) vs libuv in C
#                 (libuv/bin/echo_server, if libuv builds), driven by cmd/echoclient
#                 (C connections, SIZE-byte messages, round trips/s)
#   idle conns    IDLE connections held open to each echo server: RSS growth per connection
#                 over the last IDLE-1000 (cmd/idleconns reads /proc/PID/status)
#
# go run ./cmd/uvbench -only tcp-echo,http-hello,idle-connections runs the same servers and
# clients inside the workload table; this script keeps uvgo's 2-loop HTTP server and its own report.
#
# Prints a Markdown table and saves it to bench/results/latest/net.md. About 3 minutes.
#   ROUNDS=3 DURATION=5s CONNS=50 SIZE=64 IDLE=10000 [BASELINE=bin] [HTTP_ONLY=1] ./net.sh
set -euo pipefail

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNS=${CONNS:-50}
SIZE=${SIZE:-64}
IDLE=${IDLE:-10000}
BASELINE=${BASELINE:-}
HTTP_ONLY=${HTTP_ONLY:-}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out="$here/results/latest/net.md"
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

for tool in wrk node go; do
	command -v "$tool" >/dev/null || { echo "net.sh: $tool is not installed" >&2; exit 1; }
done

echo "building..." >&2
(cd "$root" && go build -o "$tmp/uvhttp" ./examples/http && go build -o "$tmp/uvecho" ./examples/echo)
(cd "$here" && go build -o "$tmp/nethttp" ./peers/nethttp && go build -o "$tmp/uvnethttp" ./peers/uvnethttp &&
	go build -o "$tmp/uvhttp1" ./peers/uvhttp1 && go build -o "$tmp/uvnodehttp" ./peers/uvnodehttp &&
	go build -o "$tmp/echoclient" ./cmd/echoclient &&
	go build -o "$tmp/idleconns" ./cmd/idleconns)
have_libuv=""
if make -s -C "$here/libuv" bin/echo_server >/dev/null 2>&1; then have_libuv=1; else echo "net.sh: libuv echo_server does not build; skipping it" >&2; fi

# freeport prints a TCP port nobody listens on.
freeport() {
	local p
	while :; do
		p=$((20000 + RANDOM % 12000)) # below the ephemeral range (32768-60999), which outgoing connections take
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
	done
}

# waitport waits until something accepts on port $1.
waitport() {
	for _ in $(seq 200); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
		sleep 0.05
	done
	echo "net.sh: nothing listens on port $1" >&2
	exit 1
}

# start NAME PORT CMD... starts a server in the background; its pid goes to pid_NAME.
start() {
	local name=$1 port=$2
	shift 2
	"$@" >"$tmp/$name.log" 2>&1 &
	pids+=($!)
	printf -v "pid_$name" %s $!
	waitport "$port"
}

median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

# The servers may hold many connections.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# cputicks PID prints the process's utime+stime in clock ticks (all its threads).
cputicks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# pidof_http NAME prints the pid of the HTTP server NAME.
pidof_http() {
	case $1 in
	uvgo-1) echo "$pid_uvgo1" ;; uvgo-2) echo "$pid_uvgo2" ;; http1) echo "$pid_http1" ;;
	nodehttp) echo "$pid_nodehttp" ;; bridge) echo "$pid_bridge" ;; baseline) echo "$pid_baseline" ;;
	node) echo "$pid_node" ;; nethttp-1) echo "$pid_nethttp1" ;; nethttp) echo "$pid_nethttp" ;;
	esac
}

# ---- HTTP hello ----
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
http_names=(uvgo-1 uvgo-2 http1 nodehttp bridge node nethttp-1 nethttp)
declare -A http_label=(
	[uvgo-1]="uvgo examples/http, 1 loop"
	[uvgo-2]="uvgo examples/http, 2 loops"
	[http1]="uvgo http1 hello (peers/uvhttp1), 1 loop"
	[nodehttp]="uvgo nodehttp, http-hello.js ported (peers/uvnodehttp), 1 loop"
	[bridge]="net/http handler on uvgo (http1.FromNetHTTP), 1 loop"
	[node]="Node http ($(node --version))"
	[nethttp-1]="Go net/http, GOMAXPROCS=1"
	[nethttp]="Go net/http, GOMAXPROCS=$(nproc)"
	[baseline]="BASELINE $BASELINE, 1 loop"
)
if [ -n "$BASELINE" ]; then http_names=(baseline "${http_names[@]}"); fi
declare -A port
for n in "${http_names[@]}"; do port[$n]=$(freeport); done
start uvgo1 "${port[uvgo-1]}" "$tmp/uvhttp" -addr "127.0.0.1:${port[uvgo-1]}" -loops 1
start uvgo2 "${port[uvgo-2]}" "$tmp/uvhttp" -addr "127.0.0.1:${port[uvgo-2]}" -loops 2
start bridge "${port[bridge]}" "$tmp/uvnethttp" -addr "127.0.0.1:${port[bridge]}"
start http1 "${port[http1]}" "$tmp/uvhttp1" -addr "127.0.0.1:${port[http1]}"
start nodehttp "${port[nodehttp]}" "$tmp/uvnodehttp" -addr "127.0.0.1:${port[nodehttp]}"
pid_baseline=""
if [ -n "$BASELINE" ]; then start baseline "${port[baseline]}" "$BASELINE" -addr "127.0.0.1:${port[baseline]}" -loops 1; fi
start node "${port[node]}" node "$here/node/http-hello.js" "${port[node]}"
start nethttp1 "${port[nethttp-1]}" env GOMAXPROCS=1 "$tmp/nethttp" -addr "127.0.0.1:${port[nethttp-1]}"
start nethttp "${port[nethttp]}" "$tmp/nethttp" -addr "127.0.0.1:${port[nethttp]}"

for n in "${http_names[@]}"; do # the same bytes from everyone, and a warm-up
	curl -s "http://127.0.0.1:${port[$n]}/" | grep -q '^Hello, World!$' || { echo "net.sh: $n answers wrongly" >&2; exit 1; }
	wrk -t1 -c"$CONNS" -d1s "http://127.0.0.1:${port[$n]}/" >/dev/null
done
for r in $(seq "$ROUNDS"); do
	for n in "${http_names[@]}"; do
		pid=$(pidof_http "$n")
		t0=$(cputicks "$pid")
		wrk -t1 -c"$CONNS" -d"$DURATION" "http://127.0.0.1:${port[$n]}/" >"$tmp/wrk-$n"
		t1=$(cputicks "$pid")
		rps=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/wrk-$n")
		reqs=$(awk '/requests in/ {print $1}' "$tmp/wrk-$n")
		# CPU µs per request: clock ticks (CLK_TCK) of utime+stime over the requests served
		cpu=$(awk -v d=$((t1 - t0)) -v n="$reqs" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (n > 0 ? d / hz * 1e6 / n : 0) }')
		echo "round $r http $n: $rps req/s, $cpu µs CPU/request" >&2
		echo "$rps" >>"$tmp/http-$n"
		echo "$cpu" >>"$tmp/cpu-$n"
	done
done
declare -A rps cpu
for n in "${http_names[@]}"; do rps[$n]=$(median <"$tmp/http-$n"); cpu[$n]=$(median <"$tmp/cpu-$n"); done
for p in "$pid_uvgo1" "$pid_uvgo2" "$pid_http1" "$pid_nodehttp" "$pid_bridge" $pid_baseline "$pid_node" "$pid_nethttp1" "$pid_nethttp"; do kill "$p"; done

# ---- TCP echo ----
if [ -z "$HTTP_ONLY" ]; then
echo_names=(uvgo node)
if [ -n "$have_libuv" ]; then echo_names+=(libuv); fi
declare -A echo_label=([uvgo]="uvgo examples/echo" [node]="Node net ($(node --version))" [libuv]="libuv echo_server (C)")
for n in "${echo_names[@]}"; do port[echo-$n]=$(freeport); done
start uvecho "${port[echo-uvgo]}" "$tmp/uvecho" -addr "127.0.0.1:${port[echo-uvgo]}"
start nodeecho "${port[echo-node]}" node "$here/node/tcp-echo-server.js" "${port[echo-node]}"
if [ -n "$have_libuv" ]; then start cecho "${port[echo-libuv]}" "$here/libuv/bin/echo_server" "127.0.0.1:${port[echo-libuv]}"; fi
for n in "${echo_names[@]}"; do
	"$tmp/echoclient" -addr "127.0.0.1:${port[echo-$n]}" -c "$CONNS" -size "$SIZE" -d 1s >/dev/null
done
for r in $(seq "$ROUNDS"); do
	for n in "${echo_names[@]}"; do
		v=$("$tmp/echoclient" -addr "127.0.0.1:${port[echo-$n]}" -c "$CONNS" -size "$SIZE" -d "$DURATION" | sed 's/.*rtt_per_s=\([0-9]*\).*/\1/')
		echo "round $r echo $n: $v round trips/s" >&2
		echo "$v" >>"$tmp/echo-$n"
	done
done
declare -A rtt
for n in "${echo_names[@]}"; do rtt[$n]=$(median <"$tmp/echo-$n"); done
kill "$pid_uvecho" "$pid_nodeecho"
if [ -n "$have_libuv" ]; then kill "$pid_cecho"; fi

# ---- idle connections (fresh servers) ----
declare -A idle
idle_note=""
if [ "$(uname)" != Linux ]; then
	idle_note="skipped: reads /proc/PID/status (Linux only)"
elif [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((IDLE + 100)) ]; then
	idle_note="skipped: RLIMIT_NOFILE is $(ulimit -n) (hard $(ulimit -Hn)), $IDLE connections need $((IDLE + 100))"
else
	for n in "${echo_names[@]}"; do port[idle-$n]=$(freeport); done
	start idleuv "${port[idle-uvgo]}" "$tmp/uvecho" -addr "127.0.0.1:${port[idle-uvgo]}"
	start idlenode "${port[idle-node]}" node "$here/node/tcp-echo-server.js" "${port[idle-node]}"
	idle[uvgo]=$("$tmp/idleconns" -addr "127.0.0.1:${port[idle-uvgo]}" -pid "$pid_idleuv" -n "$IDLE")
	idle[node]=$("$tmp/idleconns" -addr "127.0.0.1:${port[idle-node]}" -pid "$pid_idlenode" -n "$IDLE")
	echo "idle uvgo: ${idle[uvgo]}" >&2
	echo "idle node: ${idle[node]}" >&2
	kill "$pid_idleuv" "$pid_idlenode"
	if [ -n "$have_libuv" ]; then
		start idlec "${port[idle-libuv]}" "$here/libuv/bin/echo_server" "127.0.0.1:${port[idle-libuv]}"
		idle[libuv]=$("$tmp/idleconns" -addr "127.0.0.1:${port[idle-libuv]}" -pid "$pid_idlec" -n "$IDLE")
		echo "idle libuv: ${idle[libuv]}" >&2
		kill "$pid_idlec"
	fi
fi
fi # HTTP_ONLY

# ---- the report ----
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else print "—" }'; }
field() { sed -n "s/.*$2=\([0-9.-]*\).*/\1/p" <<<"$1"; }
{
	echo "# uvgo's network examples beside Node.js and net/http"
	echo
	echo "\`bench/net.sh\` ($(date -u +%Y-%m-%dT%H:%MZ)): $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')),"
	echo "$(uname -sr), $(go version | cut -d' ' -f3), Node $(node --version). Loopback; client and"
	echo "server share the machine. Medians of $ROUNDS interleaved rounds."
	echo
	echo "## HTTP/1.1 hello (wrk -t1 -c$CONNS -d$DURATION, keep-alive, no pipelining)"
	echo
	echo "| server | req/s (median) | vs Node | vs net/http GOMAXPROCS=1 | rounds | CPU µs/request (median) | Node's CPU ÷ this | net/http GOMAXPROCS=1's ÷ this | CPU rounds |"
	echo "|---|---:|---:|---:|---|---:|---:|---:|---|"
	for n in "${http_names[@]}"; do
		echo "| ${http_label[$n]} | ${rps[$n]} | $(ratio "${rps[$n]}" "${rps[node]}") | $(ratio "${rps[$n]}" "${rps[nethttp-1]}") | $(paste -sd' ' "$tmp/http-$n") | ${cpu[$n]} | $(ratio "${cpu[node]}" "${cpu[$n]}") | $(ratio "${cpu[nethttp-1]}" "${cpu[$n]}") | $(paste -sd' ' "$tmp/cpu-$n") |"
	done
	echo
	echo "Goals: one loop ≥ 2× Node and ≥ 2× net/http at GOMAXPROCS=1; nodehttp (1 loop) ≥ 2× Node;"
	echo "the net/http handler on uvgo (FromNetHTTP, 1 loop) ≥ 1.5× net/http at GOMAXPROCS=1; http1's"
	echo "hello at least as fast as examples/http."
	echo "CPU per request is the server's utime+stime (all its threads) over the requests wrk counted;"
	echo "the ÷ columns compare it (higher is better for this server). On a busy machine it is steadier"
	echo "than req/s, which moves with the CPU share each server gets."
	echo
	echo "Load average at the start: $load_start; at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	if [ -z "$HTTP_ONLY" ]; then
	echo "## TCP echo (cmd/echoclient: $CONNS connections, $SIZE-byte messages, one in flight each, $DURATION)"
	echo
	echo "| server | round trips/s (median) | vs Node | rounds |"
	echo "|---|---:|---:|---|"
	for n in "${echo_names[@]}"; do
		echo "| ${echo_label[$n]} | ${rtt[$n]} | $(ratio "${rtt[$n]}" "${rtt[node]}") | $(paste -sd' ' "$tmp/echo-$n") |"
	done
	echo
	echo "## $IDLE idle connections (cmd/idleconns: server RSS growth / connections)"
	echo
	if [ -n "$idle_note" ]; then
		echo "$idle_note"
	else
		echo "| server | bytes per connection | vs Node | RSS before → after |"
		echo "|---|---:|---:|---|"
		for n in "${echo_names[@]}"; do
			b=$(field "${idle[$n]}" bytes_per_conn)
			echo "| ${echo_label[$n]} | $b | $(ratio "$b" "$(field "${idle[node]}" bytes_per_conn)") | $(field "${idle[$n]}" rss_before_kb) kB → $(field "${idle[$n]}" rss_after_kb) kB |"
		done
	fi
	fi # HTTP_ONLY
} >"$tmp/net.md"
mkdir -p "$(dirname "$out")"
cp "$tmp/net.md" "$out"
cat "$out"
