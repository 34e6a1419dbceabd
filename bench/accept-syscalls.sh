#!/usr/bin/env bash
# System calls per accepted connection, epoll against io_uring (issue 17): examples/echo
# (accept, TCP_NODELAY, read to the end, close) under `strace -c -f`, one backend at a time,
# while a Python client connects N times (N=2000) in MODE wait (one connection at a time:
# connect, half-close, read until the server closes) or burst (connect and close at once, so
# the server falls behind and takes them in batches). Prints the calls per connection of the
# I/O path; the Go runtime's own (futex, nanosleep, signals) are left out.
#
#   ./accept-syscalls.sh                  # MODE=wait N=2000
#   MODE=burst SETTLE=5 ./accept-syscalls.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-2000} MODE=${MODE:-wait} SETTLE=${SETTLE:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/echo" ./examples/echo
cat >"$tmp/client.py" <<'PY'
import socket, sys
host, port, n, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
for _ in range(n):
    s = socket.create_connection((host, port))
    if mode == "wait":
        s.shutdown(socket.SHUT_WR)
        while s.recv(4096):
            pass
    s.close()
PY
echo "MODE=$MODE N=$N: system calls per connection"
for b in epoll io_uring; do
	UVGO_BACKEND=$b strace -c -f -o "$tmp/strace" "$tmp/echo" -addr 127.0.0.1:0 2>"$tmp/log" &
	spid=$!
	for _ in $(seq 100); do grep -q listening "$tmp/log" && break; sleep 0.1; done
	port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$tmp/log")
	python3 "$tmp/client.py" 127.0.0.1 "$port" "$N" "$MODE"
	sleep "$SETTLE" # burst: let the server catch up before it shuts down
	kill -INT "$(pgrep -P $spid)"
	wait $spid
	printf '%-10s' "$b:"
	awk -v n="$N" 'NR>2 && $NF ~ /^(epoll_pwait|epoll_ctl|io_uring_enter|accept4|getsockopt|setsockopt|read|close)$/ {
		printf "%s %.2f  ", $NF, $4/n; s += $4 } END { printf "| total %.2f\n", s/n }' "$tmp/strace"
done
