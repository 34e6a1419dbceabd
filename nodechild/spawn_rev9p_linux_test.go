package nodechild_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/uvloop"
)

// A program named without a slash is looked up, as execvp does in libuv's child, after the
// chdir to cwd: a relative PATH entry ("." or "bin") is relative to the child's working
// directory, not the parent's. Node runs the program; before the fix uvgo looked in the
// parent's directory and emitted "error" ENOENT.
func TestRev9SpawnRelativePathEntryUsesCwd(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"myprog", "bin/myprog"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte("#!/bin/sh\necho ran "+p+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	js := `const {spawn} = require('child_process');
const dir = ` + "`" + dir + "`" + `;
const paths = ['.', 'bin', 'nosuch:bin'];
(function next() {
  const PATH = paths.shift();
  if (PATH === undefined) return;
  const c = spawn('myprog', [], {cwd: dir, env: {PATH}});
  let out = '';
  c.on('error', e => console.log(PATH, 'error', e.code));
  c.stdout.on('data', d => out += d);
  c.on('close', code => { console.log(PATH, 'close', code, JSON.stringify(out)); next(); });
})();
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		paths := []string{".", "bin", "nosuch:bin"}
		var next func()
		next = func() {
			if len(paths) == 0 {
				return
			}
			path := paths[0]
			paths = paths[1:]
			c, err := nodechild.Spawn(l, "myprog", nil, &nodechild.SpawnOptions{Cwd: dir, Env: []string{"PATH=" + path}})
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			c.OnError(func(err error) { out("%s error %s", path, err.(*nodechild.Error).Code) })
			c.Stdout.OnData(func(b []byte) { got.Write(b) })
			c.OnClose(func(code *int, _ string) { out("%s close %d %q", path, *code, got.String()); next() })
		}
		next()
	})
}

// A program that cannot start (ENOENT, a missing cwd, EACCES): libuv opens the stdio pipes
// all the same, on socket pairs whose child ends are closed, so Node's flushStdio reads
// EOF: stdout and stderr emit 'end' (in the poll phase, before an immediate queued by the
// 'error' listener), then the sockets close, last-destroyed first, and 'close' comes
// between them. Before the fix uvgo destroyed the sockets unopened: no 'end' at all.
func TestRev9SpawnFailedStdioEnds(t *testing.T) {
	noexec := filepath.Join(t.TempDir(), "noexec")
	if err := os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := [][3]string{{"enoent", "nosuchbinary-xyz", ""}, {"badcwd", "/bin/true", "/nonexistent-dir-rev9"}, {"eacces", noexec, ""}}
	js := `const {spawn} = require('child_process');
const cases = ` + "[['enoent', 'nosuchbinary-xyz', ''], ['badcwd', '/bin/true', '/nonexistent-dir-rev9'], ['eacces', `" + noexec + "`, '']]" + `;
(function next() {
  const k = cases.shift();
  if (!k) return;
  const [name, file, cwd] = k;
  const out = (...a) => console.log(name, ...a);
  const c = spawn(file, ['a'], cwd ? {cwd} : {});
  c.on('error', e => {
    out('error', e.message, e.errno, e.code, e.syscall, e.path, JSON.stringify(e.spawnargs));
    process.nextTick(() => out('tick after error'));
    setImmediate(() => out('immediate after error'));
  });
  c.on('spawn', () => out('spawn'));
  c.on('exit', () => out('exit'));
  c.on('close', (code, sig) => { out('close', code, sig); setImmediate(next); });
  c.stdout.on('end', () => out('stdout end'));
  c.stdout.on('close', () => out('stdout close'));
  c.stderr.on('end', () => out('stderr end'));
  c.stderr.on('close', () => out('stderr close'));
  c.stdin.on('close', () => out('stdin close'));
})();
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		todo := cases
		var next func()
		next = func() {
			if len(todo) == 0 {
				return
			}
			k := todo[0]
			todo = todo[1:]
			out := func(f string, a ...any) { log(k[0]+" "+f, a...) }
			c, err := nodechild.Spawn(l, k[1], []string{"a"}, &nodechild.SpawnOptions{Cwd: k[2]})
			if err != nil {
				t.Fatal(err)
			}
			c.OnError(func(err error) {
				e := err.(*nodechild.Error)
				out("error %s %d %s %s %s %s", e.Message, e.Errno, e.Code, e.Syscall, e.Path, jsonStrings(e.Spawnargs))
				l.NextTick(func() { out("tick after error") })
				l.SetImmediate(func() { out("immediate after error") })
			})
			c.On("spawn", func(...any) { out("spawn") })
			c.On("exit", func(...any) { out("exit") })
			c.On("close", func(a ...any) { out("close %s %s", str(a[0]), str(a[1])); l.SetImmediate(next) })
			c.Stdout.OnEnd(func() { out("stdout end") })
			c.Stdout.OnClose(func(bool) { out("stdout close") })
			c.Stderr.OnEnd(func() { out("stderr end") })
			c.Stderr.OnClose(func(bool) { out("stderr close") })
			c.Stdin.OnClose(func(bool) { out("stdin close") })
		}
		next()
	})
}

// jsonStrings is JSON.stringify of an array of strings without escapes.
func jsonStrings(s []string) string {
	if len(s) == 0 {
		return "[]"
	}
	return `["` + strings.Join(s, `","`) + `"]`
}
