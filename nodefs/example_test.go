package nodefs_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// fs.writeFile, then fs.readFile, then an error as Node prints it; inside an fs callback an
// immediate runs before a 0 ms timeout, as in Node.
func Example() {
	dir, _ := os.MkdirTemp("", "nodefs-example")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "greeting.txt")

	l, _ := uvloop.New()
	fs := nodefs.New(l)
	fs.WriteFile(p, []byte("hello from nodefs"), nil, func(err error) {
		fs.ReadFileString(p, "utf8", func(err error, s string) {
			fmt.Println(s)
			l.SetTimeout(func() {
				fmt.Println("timeout")
				fs.Open("missing.txt", "r", 0o666, func(err error, fd int) { fmt.Println(err) })
			}, 0)
			l.SetImmediate(func() { fmt.Println("immediate") })
			l.NextTick(func() { fmt.Println("nextTick") })
		})
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// hello from nodefs
	// nextTick
	// immediate
	// timeout
	// ENOENT: no such file or directory, open 'missing.txt'
}

// fs/promises with async/await: a FileHandle read at a position.
func ExamplePromises() {
	dir, _ := os.MkdirTemp("", "nodefs-example")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "data.txt")
	os.WriteFile(p, []byte("0123456789"), 0o644)

	l, _ := uvloop.New()
	fsp := nodefs.New(l).Promises()
	promise.Async(l, func() (nodefs.Void, error) {
		fh, err := promise.Await(fsp.Open(p, "r", 0o666))
		if err != nil {
			return nodefs.Void{}, err
		}
		res, _ := promise.Await(fh.Read(make([]byte, 4), 0, 4, 3))
		fmt.Printf("%d bytes: %s\n", res.BytesRead, res.Buffer)
		_, err = promise.Await(fh.Close())
		return nodefs.Void{}, err
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// 4 bytes: 3456
}
