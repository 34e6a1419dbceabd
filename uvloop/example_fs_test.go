package uvloop_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/uvgo/uvgo/uvloop"
)

// Stat a file on the work pool, then open and read it, reusing one request; the callbacks
// run on the loop in the poll phase.
func ExampleLoop_FSStat() {
	dir, _ := os.MkdirTemp("", "uvloop-example")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "hello.txt")
	os.WriteFile(p, []byte("hello, file\n"), 0o644)

	l, _ := uvloop.New()
	var req uvloop.FSReq
	buf := make([]byte, 64) // the request's until the read callback starts
	l.FSStat(&req, p, func(r *uvloop.FSReq) {
		fmt.Println("size", r.Stat().Size, "regular", r.Stat().IsRegular())
		l.FSOpen(r, p, os.O_RDONLY, 0, func(r *uvloop.FSReq) {
			fd := int(r.Result())
			l.FSRead(r, fd, buf, 0, func(r *uvloop.FSReq) {
				fmt.Printf("read %d: %q\n", r.Result(), buf[:r.Result()])
				l.FSClose(r, fd, func(*uvloop.FSReq) {})
			})
		})
	})
	l.FSStat(nil, filepath.Join(dir, "missing"), func(r *uvloop.FSReq) {
		fmt.Println(errors.Is(r.Err(), fs.ErrNotExist), r.Op())
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Unordered output:
	// size 12 regular true
	// read 12: "hello, file\n"
	// true stat
}
