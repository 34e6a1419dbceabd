package uvloop

import "os"

// This file is file system access on the work pool (libuv's uv_fs_* with a callback, Node's
// fs module): the blocking call runs on a worker, the callback on the loop in the poll phase.

// ReadFile reads the whole file at path on the work pool (os.ReadFile) and calls cb on the
// loop goroutine in the poll phase, followed by the nextTick/microtask drain, as Node's
// fs.readFile calls back. cb gets the contents, or nil and the error; the bytes belong to cb
// and stay valid after it returns. The read in flight keeps the loop alive and makes Close
// fail with ErrBusy until cb has run. ReadFile is for the loop goroutine only; it returns
// ErrNilCallback if cb is nil and ErrClosed after Close.
func (l *Loop) ReadFile(path string, cb func(data []byte, err error)) error {
	if cb == nil {
		return ErrNilCallback
	}
	var data []byte
	var rerr error // written by the worker, read by after: the pool orders them
	_, err := l.QueueWork(func() { data, rerr = os.ReadFile(path) }, func(err error) {
		if err == nil {
			err = rerr
		}
		if err != nil {
			data = nil
		}
		cb(data, err)
	})
	return err
}
