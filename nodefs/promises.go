package nodefs

import (
	"syscall"
	"time"

	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// Promises is Node's fs/promises: the same calls as FS, each returning a
// *promise.Promise that the call's completion settles from the poll phase (reactions then
// run in the microtask drain after it, as Node's FSReqPromise). Argument errors reject the
// promise rather than fail the call, as an async function's throw does. A call that returns
// no value resolves to struct{}{} (Node's undefined). Loop goroutine only.
type Promises struct{ fs *FS }

// Promises returns the promise API of the module (require('fs').promises).
func (f *FS) Promises() *Promises { return &Promises{fs: f} }

// Void is the value of a promise that resolves to Node's undefined.
type Void = struct{}

// settle makes a promise and settles it with what call reports.
func settle[T any](l *uvloop.Loop, call func(cb func(err error, v T)) error) *promise.Promise[T] {
	p, r := promise.WithResolvers[T](l)
	if err := call(func(err error, v T) {
		if err != nil {
			r.Reject(err)
			return
		}
		r.Resolve(v)
	}); err != nil {
		r.Reject(err)
	}
	return p
}

func settleVoid(l *uvloop.Loop, call func(cb func(err error)) error) *promise.Promise[Void] {
	return settle(l, func(cb func(error, Void)) error { return call(func(err error) { cb(err, Void{}) }) })
}

// ReadFile is fsPromises.readFile(path).
func (p *Promises) ReadFile(path string) *promise.Promise[[]byte] {
	return settle(p.fs.loop, func(cb func(error, []byte)) error { return p.fs.ReadFile(path, cb) })
}

// ReadFileWith is fsPromises.readFile(path, {flag, signal}): an aborted signal rejects the
// promise with a *nodeevents.AbortError (see ReadFileOptions).
func (p *Promises) ReadFileWith(path string, opts *ReadFileOptions) *promise.Promise[[]byte] {
	return settle(p.fs.loop, func(cb func(error, []byte)) error { return p.fs.ReadFileWith(path, opts, cb) })
}

// ReadFileString is fsPromises.readFile(path, encoding).
func (p *Promises) ReadFileString(path, encoding string) *promise.Promise[string] {
	return settle(p.fs.loop, func(cb func(error, string)) error { return p.fs.ReadFileString(path, encoding, cb) })
}

// WriteFile is fsPromises.writeFile(path, data, options).
func (p *Promises) WriteFile(path string, data []byte, opts *WriteOptions) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.WriteFile(path, data, opts, cb) })
}

// WriteFileString is fsPromises.writeFile(path, string, {encoding}).
func (p *Promises) WriteFileString(path, data, encoding string, opts *WriteOptions) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.WriteFileString(path, data, encoding, opts, cb) })
}

// AppendFileString is fsPromises.appendFile(path, string, {encoding}).
func (p *Promises) AppendFileString(path, data, encoding string, opts *WriteOptions) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.AppendFileString(path, data, encoding, opts, cb) })
}

// AppendFile is fsPromises.appendFile(path, data, options).
func (p *Promises) AppendFile(path string, data []byte, opts *WriteOptions) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.AppendFile(path, data, opts, cb) })
}

// Stat is fsPromises.stat(path).
func (p *Promises) Stat(path string) *promise.Promise[*Stats] {
	return settle(p.fs.loop, func(cb func(error, *Stats)) error { return p.fs.Stat(path, cb) })
}

// Lstat is fsPromises.lstat(path).
func (p *Promises) Lstat(path string) *promise.Promise[*Stats] {
	return settle(p.fs.loop, func(cb func(error, *Stats)) error { return p.fs.Lstat(path, cb) })
}

// Readdir is fsPromises.readdir(path).
func (p *Promises) Readdir(path string) *promise.Promise[[]string] {
	return settle(p.fs.loop, func(cb func(error, []string)) error { return p.fs.Readdir(path, cb) })
}

// ReaddirWithFileTypes is fsPromises.readdir(path, {withFileTypes: true}).
func (p *Promises) ReaddirWithFileTypes(path string) *promise.Promise[[]*Dirent] {
	return settle(p.fs.loop, func(cb func(error, []*Dirent)) error { return p.fs.ReaddirWithFileTypes(path, cb) })
}

// Mkdir is fsPromises.mkdir(path, options): the first directory made with Recursive.
func (p *Promises) Mkdir(path string, opts *MkdirOptions) *promise.Promise[string] {
	return settle(p.fs.loop, func(cb func(error, string)) error { return p.fs.Mkdir(path, opts, cb) })
}

// Rm is fsPromises.rm(path, options).
func (p *Promises) Rm(path string, opts *RmOptions) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Rm(path, opts, cb) })
}

// Rmdir is fsPromises.rmdir(path).
func (p *Promises) Rmdir(path string) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Rmdir(path, cb) })
}

// Rename is fsPromises.rename(oldPath, newPath).
func (p *Promises) Rename(oldPath, newPath string) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Rename(oldPath, newPath, cb) })
}

// Unlink is fsPromises.unlink(path).
func (p *Promises) Unlink(path string) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Unlink(path, cb) })
}

// CopyFile is fsPromises.copyFile(src, dest, mode).
func (p *Promises) CopyFile(src, dest string, mode int) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.CopyFile(src, dest, mode, cb) })
}

// Access is fsPromises.access(path, mode).
func (p *Promises) Access(path string, mode int) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Access(path, mode, cb) })
}

// Realpath is fsPromises.realpath(path): libuv's realpath, as fs.realpath.native and not
// fs.realpath's walk (a missing path fails as "realpath 'path'").
func (p *Promises) Realpath(path string) *promise.Promise[string] {
	return settle(p.fs.loop, func(cb func(error, string)) error { return p.fs.RealpathNative(path, cb) })
}

// Mkdtemp is fsPromises.mkdtemp(prefix).
func (p *Promises) Mkdtemp(prefix string) *promise.Promise[string] {
	return settle(p.fs.loop, func(cb func(error, string)) error { return p.fs.Mkdtemp(prefix, cb) })
}

// Readlink is fsPromises.readlink(path).
func (p *Promises) Readlink(path string) *promise.Promise[string] {
	return settle(p.fs.loop, func(cb func(error, string)) error { return p.fs.Readlink(path, cb) })
}

// Symlink is fsPromises.symlink(target, path).
func (p *Promises) Symlink(target, path string) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Symlink(target, path, cb) })
}

// Link is fsPromises.link(existingPath, newPath).
func (p *Promises) Link(existingPath, newPath string) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Link(existingPath, newPath, cb) })
}

// Chmod is fsPromises.chmod(path, mode).
func (p *Promises) Chmod(path string, mode uint32) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Chmod(path, mode, cb) })
}

// Chown is fsPromises.chown(path, uid, gid).
func (p *Promises) Chown(path string, uid, gid int) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Chown(path, uid, gid, cb) })
}

// Truncate is fsPromises.truncate(path, len).
func (p *Promises) Truncate(path string, n int64) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Truncate(path, n, cb) })
}

// Utimes is fsPromises.utimes(path, atime, mtime).
func (p *Promises) Utimes(path string, atime, mtime time.Time) *promise.Promise[Void] {
	return settleVoid(p.fs.loop, func(cb func(error)) error { return p.fs.Utimes(path, atime, mtime, cb) })
}

// Open is fsPromises.open(path, flags, mode): a FileHandle.
func (p *Promises) Open(path, flags string, mode uint32) *promise.Promise[*FileHandle] {
	return settle(p.fs.loop, func(cb func(error, *FileHandle)) error {
		return p.fs.Open(path, flags, mode, func(err error, fd int) {
			if err != nil {
				cb(err, nil)
				return
			}
			cb(nil, &FileHandle{fs: p.fs, fd: fd})
		})
	})
}

// FileHandle is fs/promises' FileHandle: an open descriptor whose methods return promises.
// Close it when done (Node closes a forgotten one at garbage collection with a warning;
// this one does not). As Node's, Close waits for the calls in flight to end before it
// closes the descriptor (a call started meanwhile is waited for too); once it has, calls
// reject with EBADF ("file closed"). Loop goroutine only.
type FileHandle struct {
	fs     *FS
	fd     int                      // -1 once the descriptor's close has begun
	refs   int                      // calls in flight (Node's kRefs, less the handle's own)
	closeP *promise.Promise[Void]   // a Close waiting for the calls in flight; nil if none
	closeR *promise.Resolvers[Void] // closeP's
}

// Fd is filehandle.fd (-1 once the descriptor's close has begun).
func (h *FileHandle) Fd() int { return h.fd }

// ReadResult is what FileHandle.Read resolves to: { bytesRead, buffer }.
type ReadResult struct {
	BytesRead int
	Buffer    []byte
}

// WriteResult is what FileHandle.Write resolves to: { bytesWritten, buffer }.
type WriteResult struct {
	BytesWritten int
	Buffer       []byte
}

// closedErr is Node's error of a call on a closed FileHandle: code EBADF, the call's
// syscall, message "file closed", no errno.
func (h *FileHandle) closedErr(sysc string) error {
	return &Error{Code: "EBADF", Syscall: sysc, Message: "file closed", Err: syscall.EBADF}
}

// hold is a call of the handle (Node's fsCall): it rejects with closedErr(sysc) once the
// descriptor's close has begun, and otherwise counts as in flight until its callback, so
// that a Close waits for it.
func hold[T any](h *FileHandle, sysc string, call func(fd int, cb func(error, T)) error) *promise.Promise[T] {
	return settle(h.fs.loop, func(cb func(error, T)) error {
		if h.fd < 0 {
			return h.closedErr(sysc)
		}
		h.refs++
		err := call(h.fd, func(err error, v T) {
			h.unref()
			cb(err, v)
		})
		if err != nil {
			h.unref()
		}
		return err
	})
}

// unref ends a call in flight; the last one starts the close that a Close waits for.
func (h *FileHandle) unref() {
	if h.refs--; h.refs > 0 || h.closeP == nil {
		return
	}
	r := h.closeR
	h.closeP, h.closeR = nil, nil
	fd := h.fd
	h.fd = -1
	if err := h.fs.Close(fd, func(err error) {
		if err != nil {
			r.Reject(err)
			return
		}
		r.Resolve(Void{})
	}); err != nil {
		r.Reject(err)
	}
}

// Read is filehandle.read(buffer, offset, length, position); position -1 reads at the
// file's position. buf must not be touched until the promise settles.
func (h *FileHandle) Read(buf []byte, offset, length int, position int64) *promise.Promise[ReadResult] {
	return hold(h, "read", func(fd int, cb func(error, ReadResult)) error {
		return h.fs.Read(fd, buf, offset, length, position, func(err error, n int, b []byte) { cb(err, ReadResult{n, b}) })
	})
}

// Write is filehandle.write(buffer, offset, length, position).
func (h *FileHandle) Write(buf []byte, offset, length int, position int64) *promise.Promise[WriteResult] {
	return hold(h, "write", func(fd int, cb func(error, WriteResult)) error {
		return h.fs.Write(fd, buf, offset, length, position, func(err error, n int, b []byte) { cb(err, WriteResult{n, b}) })
	})
}

// Stat is filehandle.stat().
func (h *FileHandle) Stat() *promise.Promise[*Stats] {
	return hold(h, "fstat", func(fd int, cb func(error, *Stats)) error { return h.fs.Fstat(fd, cb) })
}

// voidCb adapts a callback of Void to an fs call's error callback.
func voidCb(cb func(error, Void)) func(error) { return func(err error) { cb(err, Void{}) } }

// Truncate is filehandle.truncate(len).
func (h *FileHandle) Truncate(n int64) *promise.Promise[Void] {
	return hold(h, "ftruncate", func(fd int, cb func(error, Void)) error { return h.fs.Ftruncate(fd, n, voidCb(cb)) })
}

// Sync is filehandle.sync().
func (h *FileHandle) Sync() *promise.Promise[Void] {
	return hold(h, "fsync", func(fd int, cb func(error, Void)) error { return h.fs.Fsync(fd, voidCb(cb)) })
}

// Datasync is filehandle.datasync().
func (h *FileHandle) Datasync() *promise.Promise[Void] {
	return hold(h, "fdatasync", func(fd int, cb func(error, Void)) error { return h.fs.Fdatasync(fd, voidCb(cb)) })
}

// Chmod is filehandle.chmod(mode).
func (h *FileHandle) Chmod(mode uint32) *promise.Promise[Void] {
	return hold(h, "fchmod", func(fd int, cb func(error, Void)) error { return h.fs.Fchmod(fd, mode, voidCb(cb)) })
}

// Utimes is filehandle.utimes(atime, mtime).
func (h *FileHandle) Utimes(atime, mtime time.Time) *promise.Promise[Void] {
	return hold(h, "futimes", func(fd int, cb func(error, Void)) error { return h.fs.Futimes(fd, atime, mtime, voidCb(cb)) })
}

// ReadFile is filehandle.readFile(): the rest of the file from its position. As Node's, it
// fstats the file first: a regular file larger than 2 GiB fails ERR_FS_FILE_TOO_LARGE.
func (h *FileHandle) ReadFile() *promise.Promise[[]byte] {
	return hold(h, "readFile", func(fd int, cb func(error, []byte)) error {
		var out []byte
		var buf []byte
		var step func()
		step = func() {
			if err := h.fs.Read(fd, buf, 0, len(buf), -1, func(err error, n int, _ []byte) {
				if err != nil {
					cb(err, nil)
					return
				}
				if n == 0 {
					if out == nil {
						out = []byte{}
					}
					cb(nil, out)
					return
				}
				out = append(out, buf[:n]...)
				step()
			}); err != nil {
				cb(err, nil)
			}
		}
		return h.fs.Fstat(fd, func(err error, st *Stats) {
			if err != nil {
				cb(err, nil)
				return
			}
			if st.IsFile() && st.Size > readFileMax {
				cb(errFileTooLarge(st.Size), nil)
				return
			}
			buf = make([]byte, readFileChunk)
			step()
		})
	})
}

// ReadFileString is filehandle.readFile(encoding): on a closed handle EBADF "file closed",
// whatever the encoding; an unknown encoding then is ERR_INVALID_ARG_VALUE, as Node's
// readFileHandle checks it.
func (h *FileHandle) ReadFileString(encoding string) *promise.Promise[string] {
	if h.fd < 0 {
		return promise.Reject[string](h.fs.loop, h.closedErr("readFile"))
	}
	enc, err := checkEncoding(encoding)
	if err != nil {
		return promise.Reject[string](h.fs.loop, err)
	}
	return promise.Then(h.ReadFile(), func(b []byte) (string, error) { return encodeNorm(b, enc), nil }, nil)
}

// WriteFile is filehandle.writeFile(data): all of data at the file's position.
func (h *FileHandle) WriteFile(data []byte) *promise.Promise[Void] {
	return hold(h, "writeFile", func(fd int, cb func(error, Void)) error {
		var step func()
		step = func() {
			if err := h.fs.Write(fd, data, 0, len(data), -1, func(err error, n int, _ []byte) {
				if err != nil {
					cb(err, Void{})
					return
				}
				data = data[n:]
				if len(data) == 0 {
					cb(nil, Void{})
					return
				}
				step()
			}); err != nil {
				cb(err, Void{})
			}
		}
		step()
		return nil
	})
}

// Close is filehandle.close(). As Node's, it waits for the calls in flight to end before it
// closes the descriptor (Fd is -1 from then on); a Close while one waits returns its
// promise, and a Close once the close has begun resolves at once.
func (h *FileHandle) Close() *promise.Promise[Void] {
	if h.fd < 0 {
		return promise.Resolve(h.fs.loop, Void{})
	}
	if h.closeP != nil {
		return h.closeP
	}
	if h.refs > 0 {
		h.closeP, h.closeR = promise.WithResolvers[Void](h.fs.loop)
		return h.closeP
	}
	fd := h.fd
	h.fd = -1
	return settleVoid(h.fs.loop, func(cb func(error)) error { return h.fs.Close(fd, cb) })
}
