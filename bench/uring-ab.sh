#!/usr/bin/env bash
# uring-ab.sh REV: the server's CPU per TCP echo round trip (examples/echo under
# libuv/echo_client.c, CONNS connections, 64 B) and per HTTP hello request (examples/http under
# libuv/http_client.c, CONNS keep-alive connections), REV (a commit) against the working tree,
# on one backend (BACKEND, io_uring by default), interleaved round by round (before, after,
# before, ...), each server on CPU 0 and its client on CPU 1 (taskset). Prints each round and
# the medians with after/before. CPU µs is utime+stime of the server over the measured run.
#
#   bench/uring-ab.sh main                      # ROUNDS=5 DURATION=3 CONNS=50 BACKEND=io_uring
#   ROUNDS=8 DURATION=5 bench/uring-ab.sh e7e3d79
#   AFTER_ENV=UVGO_OWN_THREAD=1 bench/uring-ab.sh HEAD   # the after side's servers get this environment too
set -euo pipefail
rev=${1:?usage: uring-ab.sh REV}
ROUNDS=${ROUNDS:-5} DURATION=${DURATION:-3} CONNS=${CONNS:-50} BACKEND=${BACKEND:-io_uring} AFTER_ENV=${AFTER_ENV:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
git -C "$root" worktree add --detach "$tmp/wt-before" "$rev" >/dev/null 2>&1
for side in before after; do
	src=$root
	[ "$side" = before ] && src=$tmp/wt-before
	(cd "$src" && go build -o "$tmp/$side-echo" ./examples/echo && go build -o "$tmp/$side-http" ./examples/http)
done
gcc -O2 -std=gnu11 -o "$tmp/eclient" "$here/libuv/echo_client.c"
gcc -O2 -std=gnu11 -o "$tmp/hclient" "$here/libuv/http_client.c"
tck=$(getconf CLK_TCK)
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
port=18900
start() { # binary side
	port=$((port + 1))
	local extra=()
	[ "$2" = after ] && [ -n "$AFTER_ENV" ] && extra=($AFTER_ENV)
	env "${extra[@]}" UVGO_BACKEND=$BACKEND taskset -c 0 "$1" -addr "127.0.0.1:$port" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return; sleep 0.1; done
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
# measure kind side: prints "rate µs"
measure() {
	local n out c0 c1
	start "$tmp/$2-$1" "$2"
	if [ "$1" = echo ]; then
		taskset -c 1 "$tmp/eclient" "127.0.0.1:$port" "$CONNS" 64 1 >/dev/null # warm up
		c0=$(cpu "$pid")
		out=$(taskset -c 1 "$tmp/eclient" "127.0.0.1:$port" "$CONNS" 64 "$DURATION")
		c1=$(cpu "$pid")
		n=$(echo "$out" | sed -n 's/.*round_trips=\([0-9]*\).*/\1/p')
	else
		taskset -c 1 "$tmp/hclient" "127.0.0.1:$port" "$CONNS" 1 >/dev/null
		c0=$(cpu "$pid")
		out=$(taskset -c 1 "$tmp/hclient" "127.0.0.1:$port" "$CONNS" "$DURATION")
		c1=$(cpu "$pid")
		n=$(echo "$out" | sed -n 's/.*requests=\([0-9]*\).*/\1/p')
	fi
	stop
	awk "BEGIN{printf \"%d %.3f\\n\", $n/$DURATION, ($c1-$c0)/$tck*1e6/$n}"
}
echo "before: $rev ($(git -C "$root" rev-parse --short "$rev")); after: the working tree ($(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo ', modified'))${AFTER_ENV:+ with $AFTER_ENV}; backend $BACKEND; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| round | test | side | rate/s | server CPU µs/op |"
echo "|---|---|---|---|---|"
: >"$tmp/raw"
for r in $(seq "$ROUNDS"); do
	for kind in echo http; do
		sides=(before after)
		[ $((r % 2)) = 0 ] && sides=(after before) # alternate which goes first
		for side in "${sides[@]}"; do
			read -r rate us < <(measure "$kind" "$side")
			echo "$kind $side $rate $us" >>"$tmp/raw"
			echo "| $r | $kind | $side | $rate | $us |"
		done
	done
done
med() { awk -v k="$1" -v s="$2" -v f="$3" '$1==k && $2==s {print $f}' "$tmp/raw" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
echo
echo "| medians of $ROUNDS rounds | before | after | after/before |"
echo "|---|--:|--:|--:|"
for kind in echo http; do
	for f in 3 4; do
		b=$(med "$kind" before "$f") a=$(med "$kind" after "$f")
		name="$kind rate/s"
		[ "$f" = 4 ] && name="$kind server CPU µs/op"
		echo "| $name | $b | $a | $(awk "BEGIN{printf \"%.3f\", $a/$b}") |"
	done
done
