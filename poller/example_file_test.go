//go:build linux || darwin || freebsd || netbsd || openbsd

package poller_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/uvgo/uvgo/poller"
)

// A read at an offset as a submission to the io_uring backend's ring: SubmitFile queues it,
// a Wait submits it and reaps its completion, FileDone hands the request back. Where the
// ring cannot (another backend, an old kernel), the caller makes the call itself.
func ExamplePoller_SubmitFile() {
	path := filepath.Join(os.TempDir(), fmt.Sprintf("uvgo-example-%d", os.Getpid()))
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		fmt.Println(err)
		return
	}
	defer os.Remove(path)
	f, err := os.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	buf := make([]byte, 4)

	p, err := poller.Open(poller.BackendIOURing)
	if err != nil || !p.CanFile(poller.FileRead) {
		if p != nil {
			p.Close()
		}
		n, _ := f.ReadAt(buf, 3) // no ring here: read on this goroutine
		fmt.Printf("read %d bytes: %s\n", n, buf[:n])
		return
	}
	defer p.Close()
	req := &poller.FileReq{Op: poller.FileRead, Fd: int(f.Fd()), Buf: buf, Off: 3}
	if err := p.SubmitFile(req); err != nil {
		fmt.Println(err)
		return
	}
	for p.FileDone() == nil { // buf belongs to the ring until then
		if _, _, err := p.Wait(-1); err != nil {
			fmt.Println(err)
			return
		}
	}
	if req.Res < 0 {
		fmt.Println(req.Errno())
		return
	}
	fmt.Printf("read %d bytes: %s\n", req.Res, buf[:req.Res])
	// Output: read 4 bytes: 3456
}
