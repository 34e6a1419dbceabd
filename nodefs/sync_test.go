package nodefs_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// jsShow prints a value as testdata/sync.js's show does: JSON, or undefined.
func jsShow(v any) string {
	if v == nil {
		return "undefined"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

func strOrUndef(s string, has bool) any {
	if !has {
		return nil
	}
	return s
}

// TestSyncAgainstNode runs testdata/sync.js's calls with the synchronous API and compares
// the lines with testdata/sync.txt, what Node v20 printed (its temporary directory was
// /tmp/rec).
func TestSyncAgainstNode(t *testing.T) {
	want, err := os.ReadFile("testdata/sync.txt")
	if err != nil {
		t.Fatal(err)
	}
	inTempDir(t)
	wd, _ := os.Getwd()
	var got []string
	run(t, func(l *uvloop.Loop, fs *nodefs.FS) {
		line := func(name string, v any, err error) {
			if err == nil {
				got = append(got, name+" ok "+jsShow(v))
				return
			}
			var e *nodefs.Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: %v is not a *nodefs.Error", name, err)
			}
			var errno any
			if e.Errno != 0 {
				errno = e.Errno
			}
			got = append(got, strings.Join([]string{name, e.Code, jsShow(errno), jsShow(strOrUndef(e.Syscall, e.Syscall != "")),
				jsShow(strOrUndef(e.Path, e.HasPath())), jsShow(strOrUndef(e.Dest, e.Dest != "")), "|", e.Message}, " "))
		}
		t1 := func(name string, err error) { line(name, nil, err) }
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(fs.WriteFileStringSync("f", "hi\n", "utf8", nil))
		_, err := fs.MkdirSync("d", nil)
		must(err)
		s, err := fs.ReadFileStringSync("f", "utf8")
		line("readFileSync", s, err)
		s, err = fs.ReadFileStringSync("f", "hex")
		line("readFileSync hex", s, err)
		_, err = fs.ReadFileSync("nope")
		t1("readFileSync missing", err)
		_, err = fs.ReadFileSync("d")
		t1("readFileSync dir", err)
		_, err = fs.ReadFileSync("")
		t1("readFileSync empty path", err)
		_, err = fs.ReadFileStringSync("f", "klingon")
		t1("readFileSync bad encoding", err)
		t1("writeFileSync base64", fs.WriteFileStringSync("g", "aGk=", "base64", nil))
		s, err = fs.ReadFileStringSync("g", "latin1")
		line("readFileSync g", s, err)
		t1("appendFileSync", fs.AppendFileSync("g", []byte("!"), nil))
		s, err = fs.ReadFileStringSync("g", "utf8")
		line("readFileSync g again", s, err)
		t1("writeFileSync dir", fs.WriteFileSync(".", []byte("x"), nil))
		t1("writeFileSync no parent", fs.WriteFileSync("zz/y", []byte("x"), nil))
		t1("writeFileSync wx existing", fs.WriteFileSync("g", []byte("x"), &nodefs.WriteOptions{Flag: "wx"}))
		line("existsSync", []bool{fs.ExistsSync("f"), fs.ExistsSync("nope"), fs.ExistsSync(""), fs.ExistsSync("f\x00x")}, nil)
		st, err := fs.StatSync("f")
		line("statSync size", st.Size, err)
		st, err = fs.StatSync("d")
		line("statSync isDirectory", st.IsDirectory(), err)
		_, err = fs.StatSync("nope")
		t1("statSync missing", err)
		st, err = fs.StatSyncNoThrow("nope")
		if st != nil {
			t.Error("StatSyncNoThrow of a missing path")
		}
		t1("statSync no throw", err)
		_, err = fs.StatSync("f/x")
		t1("statSync through a file", err)
		_, err = fs.LstatSync("nope")
		t1("lstatSync missing", err)
		_, err = fs.FstatSync(99999)
		t1("fstatSync bad fd", err)
		_, err = fs.FstatSync(-1)
		t1("fstatSync negative fd", err)
		_, err = fs.MkdirSync("d", nil)
		t1("mkdirSync exists", err)
		first, err := fs.MkdirSync("d/a/b", &nodefs.MkdirOptions{Recursive: true})
		line("mkdirSync recursive", first, err)
		first, err = fs.MkdirSync("d/a/b", &nodefs.MkdirOptions{Recursive: true})
		line("mkdirSync recursive again", strOrUndef(first, first != ""), err)
		_, err = fs.MkdirSync("f/a", &nodefs.MkdirOptions{Recursive: true})
		t1("mkdirSync recursive through a file", err)
		names, err := fs.ReaddirSync(".")
		line("readdirSync", names, err)
		_, err = fs.ReaddirSync("f")
		t1("readdirSync file", err)
		ents, err := fs.ReaddirWithFileTypesSync("d")
		var pairs [][]any
		for _, e := range ents {
			pairs = append(pairs, []any{e.Name, e.IsDirectory()})
		}
		line("readdirSync types", pairs, err)
		t1("unlinkSync missing", fs.UnlinkSync("nope"))
		t1("unlinkSync dir", fs.UnlinkSync("d"))
		t1("rmdirSync not empty", fs.RmdirSync("d"))
		t1("rmSync missing", fs.RmSync("nope", nil))
		t1("rmSync dir", fs.RmSync("d", nil))
		t1("rmSync force", fs.RmSync("nope", &nodefs.RmOptions{Force: true}))
		t1("rmSync recursive", fs.RmSync("d", &nodefs.RmOptions{Recursive: true}))
		t1("renameSync missing", fs.RenameSync("nope", "other"))
		t1("renameSync", fs.RenameSync("g", "h"))
		t1("copyFileSync excl", fs.CopyFileSync("f", "h", nodefs.COPYFILE_EXCL))
		t1("copyFileSync bad mode", fs.CopyFileSync("f", "h", 99))
		t1("accessSync missing", fs.AccessSync("nope", nodefs.F_OK))
		t1("accessSync bad mode", fs.AccessSync("f", 99))
		_, err = fs.OpenSync("f", "zz", 0o666)
		t1("openSync bad flags", err)
		_, err = fs.OpenSync("nope", "r", 0o666)
		t1("openSync missing", err)
		_, err = fs.ReadSync(99999, make([]byte, 4), 0, 4, 0)
		t1("readSync closed fd", err)
		_, err = fs.ReadSync(0, make([]byte, 4), 0, 8, 0)
		t1("readSync too long", err)
		_, err = fs.ReadSync(0, make([]byte, 4), 0, 4, -5)
		t1("readSync negative position", err)
		_, err = fs.ReadSync(0, make([]byte, 4), -1, 4, 0)
		t1("readSync negative offset", err)
		_, err = fs.ReadSync(0, nil, 0, 4, 0)
		t1("readSync empty buffer", err)
		_, err = fs.WriteSync(99999, []byte("x"), 0, 1, 0)
		t1("writeSync closed fd", err)
		_, err = fs.WriteSync(1, make([]byte, 4), 5, 1, 0)
		t1("writeSync offset past the end", err)
		t1("closeSync closed fd", fs.CloseSync(99999))
		_, err = fs.ReadlinkSync("nope")
		t1("readlinkSync missing", err)
		_, err = fs.RealpathSync("nope/x")
		t1("realpathSync missing", err)
		_, err = fs.MkdtempSync("a\x00b")
		t1("mkdtempSync NUL", err)
		_, err = fs.StatSync("a\x00b")
		t1("stat NUL", err)
	})
	filtered := strings.Split(strings.TrimSpace(string(want)), "\n")
	compareLines(t, strings.ReplaceAll(strings.Join(got, "\n"), wd, "/tmp/rec"), strings.Join(filtered, "\n"))
}
