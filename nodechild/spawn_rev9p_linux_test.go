package nodechild_test

import (
	"fmt"
	"os"
	"os/exec"
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

// uid and gid: libuv's child clears its supplementary groups (setgroups(0, NULL)) when it
// changes either, then sets the gid, then the uid; node's id(1) shows it. Root only
// (skipped otherwise); the test runs again in a child of its own that has supplementary
// groups (0 and 4, set by a python3 wrapper before the exec), with node beside it. Before
// the fix a gid alone left those groups in uvgo's child ("groups=65534(nogroup),0(root),4(adm)").
func TestRev9SpawnCredentialsClearGroups(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to change credentials")
	}
	if os.Getenv("UVGO_REV9_GROUPS") == "" {
		python, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 is not installed: it sets the child's groups")
		}
		cmd := exec.Command(python, "-c", "import os, sys; os.setgroups([0, 4]); os.execv(sys.argv[1], sys.argv[1:])",
			os.Args[0], "-test.run=^TestRev9SpawnCredentialsClearGroups$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "UVGO_REV9_GROUPS=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestRev9SpawnCredentialsClearGroups") {
			t.Fatalf("the child with groups: %v\n%s", err, out)
		}
		return
	}
	if g, _ := os.Getgroups(); len(g) == 0 {
		t.Fatal("the wrapper did not set the groups")
	}
	js := `const {spawn} = require('child_process');
const opts = [{gid: 65534}, {uid: 65534}, {uid: 65534, gid: 65534}];
(function next() {
  const o = opts.shift();
  if (!o) return;
  const c = spawn('id', [], o);
  let s = '';
  c.stdout.on('data', d => s += d);
  c.on('close', code => { console.log(JSON.stringify(o), code, s.trim()); next(); });
})();
`
	want := nodeLines(t, js)
	nobody := uint32(65534)
	type cred struct{ uid, gid *uint32 }
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		todo := []cred{{nil, &nobody}, {&nobody, nil}, {&nobody, &nobody}}
		var next func()
		next = func() {
			if len(todo) == 0 {
				return
			}
			o := todo[0]
			todo = todo[1:]
			c, err := nodechild.Spawn(l, "id", nil, &nodechild.SpawnOptions{UID: o.uid, GID: o.gid})
			if err != nil {
				t.Fatal(err)
			}
			name := "{"
			if o.uid != nil {
				name += fmt.Sprintf(`"uid":%d`, *o.uid)
			}
			if o.gid != nil {
				if o.uid != nil {
					name += ","
				}
				name += fmt.Sprintf(`"gid":%d`, *o.gid)
			}
			name += "}"
			var s strings.Builder
			c.Stdout.OnData(func(d []byte) { s.Write(d) })
			c.OnClose(func(code *int, _ string) { out("%s %d %s", name, *code, strings.TrimSpace(s.String())); next() })
		}
		next()
	})
}

// An executable file that the kernel cannot exec (a script with no "#!" line: ENOEXEC) is
// run by /bin/sh with the file as its first argument, as glibc's execvp does in libuv's
// child; node prints what the script printed. Before the fix uvgo's Spawn failed with
// ENOEXEC (thrown, as node throws the errors it does not emit).
func TestRev9SpawnScriptWithoutShebang(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "nosb")
	if err := os.WriteFile(script, []byte("echo noshebang \"$0\" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	js := `const {spawn} = require('child_process');
const c = spawn(` + "`" + script + "`" + `, ['a', 'b c']);
let s = '';
c.on('error', e => console.log('error', e.code));
c.stdout.on('data', d => s += d);
c.on('close', code => {
  console.log('close', code, JSON.stringify(s));
  const d = spawn('nosb', ['x'], {env: {PATH: ` + "`" + dir + "`" + `}});
  let t = '';
  d.stdout.on('data', b => t += b);
  d.on('close', code => console.log('close', code, JSON.stringify(t)));
});
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		c, err := nodechild.Spawn(l, script, []string{"a", "b c"}, nil)
		if err != nil {
			out("spawn threw %v", err)
			return
		}
		var s strings.Builder
		c.OnError(func(err error) { out("error %v", err) })
		c.Stdout.OnData(func(d []byte) { s.Write(d) })
		c.OnClose(func(code *int, _ string) {
			out("close %d %s", *code, jsonString(s.String()))
			d, err := nodechild.Spawn(l, "nosb", []string{"x"}, &nodechild.SpawnOptions{Env: []string{"PATH=" + dir}})
			if err != nil {
				out("spawn threw %v", err)
				return
			}
			var u strings.Builder
			d.Stdout.OnData(func(b []byte) { u.Write(b) })
			d.OnClose(func(code *int, _ string) { out("close %d %s", *code, jsonString(u.String())) })
		})
	})
}

// A PATH entry holding a directory of the program's name: execvp tries it, the exec fails
// with EACCES, which it remembers while it searches on; found nowhere else, the spawn fails
// with EACCES, as node reports; found later in PATH, it runs. Before the fix uvgo skipped
// the directory and reported ENOENT.
func TestRev9SpawnPathDirectoryIsEACCES(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "true"), 0o755); err != nil {
		t.Fatal(err)
	}
	js := `const {spawn} = require('child_process');
const paths = [` + "`" + dir + "`" + `, ` + "`" + dir + ":/usr/bin:/bin`" + `];
(function next() {
  const PATH = paths.shift();
  if (PATH === undefined) return;
  const c = spawn('true', [], {env: {PATH}});
  c.on('error', e => console.log('error', e.code, e.errno));
  c.on('close', code => { console.log('close', code); next(); });
})();
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		paths := []string{dir, dir + ":/usr/bin:/bin"}
		var next func()
		next = func() {
			if len(paths) == 0 {
				return
			}
			path := paths[0]
			paths = paths[1:]
			c, err := nodechild.Spawn(l, "true", nil, &nodechild.SpawnOptions{Env: []string{"PATH=" + path}})
			if err != nil {
				t.Fatal(err)
			}
			c.OnError(func(err error) { e := err.(*nodechild.Error); out("error %s %d", e.Code, e.Errno) })
			c.OnClose(func(code *int, _ string) { out("close %d", *code); next() })
		}
		next()
	})
}

// A cwd that is a file: the spawn throws ENOTDIR at once (not an 'error' event), with
// syscall "spawn" and no path, as node v20 throws it; nothing is left open.
func TestRev9SpawnCwdNotDirThrows(t *testing.T) {
	js := `const {spawn} = require('child_process');
try { spawn('/bin/true', [], {cwd: '/etc/passwd'}); console.log('no throw'); }
catch (e) { console.log('throw', e.message, e.errno, e.code, e.syscall, e.path === undefined); }
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		_, err := nodechild.Spawn(l, "/bin/true", nil, &nodechild.SpawnOptions{Cwd: "/etc/passwd"})
		if err == nil {
			out("no throw")
			return
		}
		e := err.(*nodechild.Error)
		out("throw %s %d %s %s %v", e.Message, e.Errno, e.Code, e.Syscall, e.Path == "")
	})
}
