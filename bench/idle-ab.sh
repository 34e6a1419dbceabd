#!/usr/bin/env bash
# idle-ab.sh — RSS per idle connection of examples/echo built from two revisions, on each
# backend, beside libuv's echo_server, interleaved: a fresh server per measure, pinned to CPU
# 0, and cmd/idleconns (N connections, growth over the last N-1000) on CPU 1.
#   ./idle-ab.sh BASE [HEAD] [ROUNDS] [N]      (HEAD defaults to the working tree)
#   ./idle-ab.sh 7f40b44 HEAD 4 5000
set -euo pipefail
base=${1:?usage: idle-ab.sh BASE [HEAD] [ROUNDS] [N]}
head=${2:-}
rounds=${3:-4}
n=${4:-5000}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
build() { # rev name: examples/echo of rev (the working tree for an empty rev)
	local src=$root
	if [ -n "$1" ]; then
		src=$tmp/wt-$2
		git -C "$root" worktree add -q --detach "$src" "$1"
	fi
	(cd "$src" && go build -o "$tmp/echo-$2" ./examples/echo)
}
build "$base" base
build "$head" head
(cd "$here" && go build -o "$tmp/idleconns" ./cmd/idleconns)
servers=(base:epoll head:epoll base:io_uring head:io_uring)
if ${CC:-gcc} -O2 -std=gnu11 -o "$tmp/cecho" "$here/libuv/echo_server.c" -luv 2>/dev/null; then
	servers+=(libuv)
else
	echo "idle-ab.sh: libuv/echo_server.c does not build (apt-get install -y libuv1-dev): no libuv column"
fi
srv=() cli=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then srv=(taskset -c 0) cli=(taskset -c 1); fi
echo "| round | server | bytes per idle connection (last $((n - 1000)) of $n) |"
echo "|---|---|--:|"
port=19700
for r in $(seq "$rounds"); do
	for s in "${servers[@]}"; do
		port=$((port + 1))
		if [ "$s" = libuv ]; then
			"${srv[@]}" "$tmp/cecho" "127.0.0.1:$port" >/dev/null 2>&1 &
		else
			UVGO_BACKEND=${s#*:} "${srv[@]}" "$tmp/echo-${s%:*}" -addr "127.0.0.1:$port" >/dev/null 2>&1 &
		fi
		pid=$!
		for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
		b=$("${cli[@]}" "$tmp/idleconns" -addr "127.0.0.1:$port" -pid "$pid" -n "$n" | sed -n 's/.*bytes_per_conn=\([0-9-]*\).*/\1/p')
		kill "$pid"
		wait "$pid" 2>/dev/null || true
		pid=""
		echo "| $r | $s | $b |"
	done
done
