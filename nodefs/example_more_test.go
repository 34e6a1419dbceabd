package nodefs_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// The synchronous calls block the loop goroutine and fail with Node's errors.
func ExampleFS_ReadFileSync() {
	dir, _ := os.MkdirTemp("", "nodefs-example")
	defer os.RemoveAll(dir)
	l, _ := uvloop.New()
	defer l.Close()
	fs := nodefs.New(l)

	p := filepath.Join(dir, "config.json")
	fmt.Println(fs.ExistsSync(p))
	fs.WriteFileStringSync(p, `{"port": 8080}`, "utf8", nil)
	b, _ := fs.ReadFileSync(p)
	fmt.Println(string(b), fs.ExistsSync(p))
	_, err := fs.StatSync("missing.txt")
	fmt.Println(err)
	_, err = fs.ReadSync(0, make([]byte, 4), 0, 8, 0)
	fmt.Println(err)
	// Output:
	// false
	// {"port": 8080} true
	// ENOENT: no such file or directory, stat 'missing.txt'
	// The value of "length" is out of range. It must be <= 4. Received 8
}

// A read stream with an encoding never splits a base64 group between "data" events; piped
// into a write stream, the strings are written as UTF-8, as Node's pipe writes them.
func ExampleReadStream_SetEncoding() {
	dir, _ := os.MkdirTemp("", "nodefs-example")
	defer os.RemoveAll(dir)
	l, _ := uvloop.New()
	fs := nodefs.New(l)
	src := filepath.Join(dir, "in.bin")
	fs.WriteFileSync(src, []byte("hello, streams"), nil)

	rs, _ := fs.CreateReadStream(src, &nodefs.ReadStreamOptions{HighWaterMark: 4})
	rs.SetEncoding("base64")
	rs.OnDataString(func(chunk string) { fmt.Printf("%q\n", chunk) })
	rs.On("end", func(...any) { fmt.Println("end") })
	rs.On("close", func(...any) { fmt.Println("close") })
	l.Run(uvloop.RunDefault)
	l.Close()
	// Output:
	// "aGVs"
	// "bG8s"
	// "IHN0cmVh"
	// "bXM="
	// end
	// close
}

// Encode and Decode are Buffer's toString and Buffer.from.
func ExampleEncode() {
	s, _ := nodefs.Encode([]byte{0xff, 'h', 'i'}, "utf8")
	fmt.Printf("%+q\n", s)
	b, _ := nodefs.Decode("aGk=!", "base64")
	fmt.Println(string(b))
	h, _ := nodefs.Encode([]byte("hi"), "hex")
	fmt.Println(h)
	// Output:
	// "\ufffdhi"
	// hi
	// 6869
}
