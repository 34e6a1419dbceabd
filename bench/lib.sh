# lib.sh is sourced by the bench scripts after they set $here (their folder): it sets $root
# (the repository), a temporary directory $tmp, and $pid (the server running, if any), and
# at exit kills that server, waits for the script's other jobs, removes the git worktrees
# checked out as $tmp/wt-* and then $tmp.
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d)
pid=""
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	wait 2>/dev/null || true
	for w in "$tmp"/wt-*; do
		[ -d "$w" ] && git -C "$root" worktree remove --force "$w" >/dev/null 2>&1 || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
