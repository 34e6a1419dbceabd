#!/usr/bin/env bash
# beforeafter.sh REV [ROUNDS] [PATTERN]: the Go benchmarks behind the bench runner's scheduling
# rows, run on REV (a commit) and on the working tree, interleaved round by round (before,
# after, before, ...) so that load from other processes spreads over both, and a table of
# medians with after/before. A change is "no slower" when the ratio stays ≤ 1.03.
#
#   bench/beforeafter.sh 4c00eee 5
#   bench/beforeafter.sh main 5 'PostChain|PostSubmit'
set -euo pipefail
rev=${1:?usage: beforeafter.sh REV [ROUNDS] [PATTERN]}
rounds=${2:-5}
pattern=${3:-'^Benchmark(LoopCount|CheckIdle|ImmediateChain|ImmediateBatch|NextTickChain|MicrotaskBatch|TimersZero|NodeTimersZero|TimerRestart|AsyncSend|AsyncPingPong|QueueWork|PromiseChain|AsyncAwait|All1k)$'}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/before" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$root" worktree add --detach "$tmp/before" "$rev" >/dev/null 2>&1
for side in before after; do
	src=$root
	[ "$side" = before ] && src=$tmp/before
	for pkg in uvloop promise; do
		(cd "$src" && go test -c -o "$tmp/$side-$pkg.test" ./$pkg/)
	done
done
# benchtime per benchmark: the runner's N (1x for the ones that do 1M timers per op)
bt() {
	case $1 in
	TimersZero | NodeTimersZero) echo 1x ;;
	AsyncPingPong | QueueWork) echo 200000x ;;
	All1k) echo 1000x ;;
	*) echo 1000000x ;;
	esac
}
: >"$tmp/raw"
for r in $(seq "$rounds"); do
	for pkg in uvloop promise; do
		names=$("$tmp/after-$pkg.test" -test.list "$pattern" 2>/dev/null | grep '^Benchmark' || true)
		for name in $names; do
			n=${name#Benchmark}
			for side in before after; do
				out=$(cd "$root/$pkg" && "$tmp/$side-$pkg.test" -test.run '^$' -test.bench "^$name\$" -test.benchtime "$(bt "$n")" -test.benchmem 2>&1 | grep "^$name" || true)
				# ns per item: the ns/timer metric where there is one, else ns/op
				v=$(echo "$out" | awk '{for(i=3;i<=NF;i+=2) if($(i+1)=="ns/timer"){print $i; exit}} {for(i=3;i<=NF;i+=2) if($(i+1)=="ns/op"){print $i; exit}}' | head -1)
				a=$(echo "$out" | awk '{for(i=3;i<=NF;i+=2) if($(i+1)=="allocs/op") print $i}')
				echo "$n $side ${v:-NaN} ${a:-?}" >>"$tmp/raw"
			done
		done
	done
	echo "round $r/$rounds done" >&2
done
echo "| benchmark | before ns (median) | after ns (median) | after/before | allocs before → after |"
echo "|---|--:|--:|--:|---|"
awk '
{ key=$1; side=$2; v[key,side]=v[key,side] " " $3; al[key,side]=$4; if (!(key in seen)) { seen[key]=1; order[++n]=key } }
function med(s,   a, k, i, j, t) { k=split(s, a, " "); for(i=1;i<=k;i++) for(j=i+1;j<=k;j++) if (a[j]+0<a[i]+0) {t=a[i];a[i]=a[j];a[j]=t}; return (k%2)? a[(k+1)/2] : (a[k/2]+a[k/2+1])/2 }
END { for (i=1;i<=n;i++) { k=order[i]; b=med(v[k,"before"]); a=med(v[k,"after"]); printf "| %s | %.1f | %.1f | %.3f | %s → %s |\n", k, b, a, (b>0? a/b : 0), al[k,"before"], al[k,"after"] } }' "$tmp/raw"
