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
