package nodefs_test

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// abortLine is what Node prints for an AbortError e: e.name, e.code, e.message, and the
// cause's message.
func abortLine(tag string, err error) string {
	var ae *nodeevents.AbortError
	if !errors.As(err, &ae) {
		return tag + " not an AbortError: " + errors.Join(err).Error()
	}
	return tag + " " + ae.WarningName() + " " + ae.Code() + " " + ae.Error() + " / " + ae.Cause.Error()
}

// The signal option of readFile, writeFile and appendFile, callback and promise forms, and
// of fs.watch, in Node's order (checked against node v20): a signal aborted already fails
// the callback synchronously; one aborted after the call fails it once the file is closed.
func TestAbortSignalFS(t *testing.T) {
	inTempDir(t)
	if err := os.WriteFile("f.txt", []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log []string
	run(t, func(l *uvloop.Loop, f *nodefs.FS) {
		pre := nodeevents.AbortSignalAbort()
		f.ReadFileWith("f.txt", &nodefs.ReadFileOptions{Signal: pre}, func(err error, _ []byte) {
			log = append(log, abortLine("pre readFile", err))
		})
		l.NextTick(func() { log = append(log, "tick") })
		ac2 := nodeevents.NewAbortController()
		f.ReadFileWith("f.txt", &nodefs.ReadFileOptions{Signal: ac2.Signal()}, func(err error, _ []byte) {
			log = append(log, abortLine("mid readFile", err))
		})
		ac2.Abort(errors.New("why"))
		ac3 := nodeevents.NewAbortController()
		f.WriteFileString("g.txt", "x", "utf8", &nodefs.WriteOptions{Signal: ac3.Signal()}, func(err error) {
			log = append(log, abortLine("mid writeFile", err))
		})
		ac3.Abort()
		f.AppendFileString("g.txt", "x", "utf8", &nodefs.WriteOptions{Signal: pre}, func(err error) {
			log = append(log, abortLine("pre appendFile", err))
		})
		fsp := f.Promises()
		fsp.ReadFileWith("f.txt", &nodefs.ReadFileOptions{Signal: pre}).Catch(func(err error) ([]byte, error) {
			log = append(log, abortLine("promises pre readFile", err))
			return nil, nil
		})
		ac5 := nodeevents.NewAbortController()
		fsp.WriteFile("h.txt", []byte("y"), &nodefs.WriteOptions{Signal: ac5.Signal()}).Catch(func(err error) (nodefs.Void, error) {
			log = append(log, abortLine("promises mid writeFile", err))
			return nodefs.Void{}, nil
		})
		ac5.Abort()
		ac6 := nodeevents.NewAbortController()
		w, err := f.WatchWith(".", &nodefs.WatchOptions{Signal: ac6.Signal()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.On("close", func(...any) { log = append(log, "watch close") })
		ac6.Abort()
		log = append(log, "after abort")
		w2, err := f.WatchWith(".", &nodefs.WatchOptions{Signal: pre}, nil)
		if err != nil {
			t.Fatal(err)
		}
		w2.On("close", func(...any) { log = append(log, "watch2 close") })
	})
	const ae = "AbortError ABORT_ERR The operation was aborted / "
	const dflt = "This operation was aborted"
	head := []string{
		"pre readFile " + ae + dflt,
		"pre appendFile " + ae + dflt,
		"after abort",
		"tick",
		"watch close",
		"watch2 close",
		"promises pre readFile " + ae + dflt,
	}
	if !slices.Equal(log[:len(head)], head) {
		t.Errorf("log\n%q\nwant first\n%q", log, head)
	}
	// The three aborted in flight settle from the poll phase, in the order of their fs
	// round trips (node prints mid writeFile, promises mid writeFile, mid readFile).
	rest := slices.Clone(log[len(head):])
	slices.Sort(rest)
	want := []string{"mid readFile " + ae + "why", "mid writeFile " + ae + dflt, "promises mid writeFile " + ae + dflt}
	if !slices.Equal(rest, want) {
		t.Errorf("in flight\n%q\nwant\n%q", rest, want)
	}
	if b, err := os.ReadFile("h.txt"); err != nil || len(b) != 0 {
		t.Errorf("h.txt %q %v: want created empty, as in node", b, err)
	}
}
