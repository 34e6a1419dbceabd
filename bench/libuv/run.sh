#!/bin/sh
# Builds every libuv workload and runs each once with its default N,
# printing one result line per workload.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
make -s -C "$dir"
for prog in loop_count check_idle timers_zero timers_spread timers_cancel \
            timer_restart timer_restart_iter async_send async_pingpong queue_work; do
	"$dir/bin/$prog"
done
