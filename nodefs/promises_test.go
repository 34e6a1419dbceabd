package nodefs_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// fs/promises with await in a loop: write ten files, read them back, through a FileHandle
// too; errors reject with Node's error objects.
func TestPromisesAwaitLoop(t *testing.T) {
	inTempDir(t)
	var log []string
	run(t, func(l *uvloop.Loop, f *nodefs.FS) {
		fsp := f.Promises()
		promise.Async(l, func() (nodefs.Void, error) {
			dir, err := promise.Await(fsp.Mkdir("p/q", &nodefs.MkdirOptions{Recursive: true}))
			log = append(log, "mkdir "+dir)
			if err != nil {
				return nodefs.Void{}, err
			}
			for i := range 10 {
				if _, err := promise.Await(fsp.WriteFile(fmt.Sprintf("p/q/%d.txt", i), []byte(strings.Repeat("x", i)), nil)); err != nil {
					return nodefs.Void{}, err
				}
			}
			names, _ := promise.Await(fsp.Readdir("p/q"))
			log = append(log, strings.Join(names, ","))
			total := 0
			for _, n := range names {
				b, err := promise.Await(fsp.ReadFile("p/q/" + n))
				if err != nil {
					return nodefs.Void{}, err
				}
				total += len(b)
			}
			log = append(log, fmt.Sprint("total ", total))
			fh, err := promise.Await(fsp.Open("p/q/9.txt", "r+", 0o666))
			if err != nil {
				return nodefs.Void{}, err
			}
			buf := make([]byte, 4)
			res, _ := promise.Await(fh.Read(buf, 0, 4, 2))
			log = append(log, fmt.Sprintf("read %d %s", res.BytesRead, res.Buffer))
			st, _ := promise.Await(fh.Stat())
			log = append(log, fmt.Sprint("size ", st.Size, " file ", st.IsFile()))
			promise.Await(fh.Close())
			if _, err = promise.Await(fh.Close()); err != nil { // node v20 resolves it
				log = append(log, "second close: "+err.Error())
			} else {
				log = append(log, "second close: resolved")
			}
			_, err = promise.Await(fsp.Stat("nope"))
			var ne *nodefs.Error
			if !errors.As(err, &ne) || !errors.Is(err, syscall.ENOENT) || !errors.Is(err, os.ErrNotExist) {
				t.Errorf("stat error %#v", err)
			}
			log = append(log, err.Error())
			_, err = promise.Await(fsp.Rm("p", &nodefs.RmOptions{Recursive: true}))
			return nodefs.Void{}, err
		}).Catch(func(err error) (nodefs.Void, error) {
			t.Errorf("async body: %v", err)
			return nodefs.Void{}, nil
		})
	})
	want := strings.Join([]string{"mkdir p", "0.txt,1.txt,2.txt,3.txt,4.txt,5.txt,6.txt,7.txt,8.txt,9.txt", "total 45",
		"read 4 xxxx", "size 9 file true", "second close: resolved",
		"ENOENT: no such file or directory, stat 'nope'"}, "\n")
	if got := strings.Join(log, "\n"); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := os.Stat("p"); !os.IsNotExist(err) {
		t.Fatalf("rm -r left %v", err)
	}
}
