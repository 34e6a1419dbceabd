#!/usr/bin/env bash
# observecost.sh [ROUNDS]: what issue 15's observability costs the loop, in instructions
# (callgrind: repeatable where wall clock on a shared machine is not). It builds uvloop's test
# binary twice: as it is, and a copy with the always-on part taken out (the iteration and
# callback counters, the phase stores and the observation checks, the iteration's late-ticker
# and trace look: the edits below, which
# fail loudly if the code they expect has moved). Then it counts the instructions inside
# (*Loop).Run of BenchmarkImmediateChain on both, and of BenchmarkImmediateChainObserved
# (WithPhaseTiming, WithLongTasks, a DelayMonitor) on the first, ROUNDS times (default 3),
# and prints the medians and the overheads over the build without counters.
#
# Under valgrind the program runs ~50 times slower while the observer's ticker still ticks
# every real millisecond, so "observed" pays ~50 times more slow checks per iteration than it
# does at full speed: its row is an upper bound. The wall-clock view of the same pair is the
# bench runner's observability table (go run ./cmd/uvbench -phases).
#
#   bench/observecost.sh 3
set -euo pipefail
rounds=${1:-3}
n=200000
root=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "observecost.sh: valgrind is not installed (apt-get install valgrind)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go test -c -o "$tmp/with.test" ./uvloop/)
mkdir "$tmp/src"
(cd "$root" && tar cf - --exclude=./bench --exclude=./.git .) | (cd "$tmp/src" && tar xf -)
strip() { # file perl-substitution: apply, or fail if it changed nothing
	local f=$tmp/src/$1
	cp "$f" "$f.orig"
	perl -0pi -e "$2" "$f"
	if cmp -s "$f" "$f.orig"; then
		echo "observecost.sh: the edit of $1 no longer applies: $2" >&2
		exit 1
	fi
}
strip uvloop/metrics.go 's/(func \(l \*Loop\) enter\(p Phase\) \{\n).*?\n\}/$1}/s'
strip uvloop/metrics.go 's/(func \(l \*Loop\) countCallback\(\) )\{.*?\}/$1\{\}/'
strip uvloop/observe.go 's/(func \(l \*Loop\) enterPoll\(\) \{\n).*?\n\}/$1}/s'
strip uvloop/metrics.go 's/(func \(l \*Loop\) observeIteration\(\) \{\n).*?\n\}/$1}/s'
strip uvloop/loop.go 's/\tl\.metrics\.callbacks\[PhaseCheck\] \+= uint64\(n\)/\t_ = n/'
strip uvloop/loop.go 's/\tif atomic\.LoadUint32\(&l\.obs\.due\) != 0 \{ \/\/ enter\(PhaseCheck\)[^\n]*\n\t\tl\.observePhase\(PhaseCheck\)\n\t\}\n\tl\.metrics\.phase = PhaseCheck\n//'
# The check after a callback also runs a requested checkpoint's drain (afterSlow): without
# the counters, the drain's own test takes that request back, as it did before the two shared
# one flag.
strip uvloop/loop.go 's/\tif atomic\.LoadUint32\(&l\.obs\.due\) != 0 \{[^\n]*\n\t\tl\.afterSlow\([^\n]*\n\t\}\n//g'
strip uvloop/loop.go 's/\tif l\.ticks\.Pending\(\) \{\n/\tif l.ticks.Pending() || l.promise.checkpointDue {\n/g'
(cd "$tmp/src" && go test -c -o "$tmp/without.test" ./uvloop/)
count() { # binary benchmark: instructions inside (*Loop).Run
	GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind \
		--callgrind-out-file="$tmp/cg.out" --toggle-collect='*uvloop.(*Loop).Run' \
		"$1" -test.run='^$' -test.bench="^$2\$" -test.benchtime=${n}x >/dev/null 2>&1
	callgrind_annotate "$tmp/cg.out" 2>/dev/null | awk '/PROGRAM TOTALS/{gsub(",","",$1); print $1; exit}'
}
: >"$tmp/rows"
for _ in $(seq "$rounds"); do
	echo "without $(count "$tmp/without.test" BenchmarkImmediateChain)" >>"$tmp/rows"
	echo "counters $(count "$tmp/with.test" BenchmarkImmediateChain)" >>"$tmp/rows"
	echo "observed $(count "$tmp/with.test" BenchmarkImmediateChainObserved)" >>"$tmp/rows"
done
med() { awk -v k="$1" '$1==k{print $2}' "$tmp/rows" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
base=$(med without)
echo "| immediate-chain, $n iterations | instructions in (*Loop).Run (median of $rounds) | per iteration | over no counters |"
echo "|---|--:|--:|--:|"
for k in without counters observed; do
	m=$(med $k)
	awk -v k="$k" -v m="$m" -v b="$base" -v n=$n 'BEGIN{printf "| %s | %d | %.1f | %+.1f%% |\n", k, m, m/n, (m/b-1)*100}'
done
