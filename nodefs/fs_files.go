package nodefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/uvloop"
)

// ReadFile is fs.readFile(path, cb): as Node does it, open, fstat, read, close — each a
// round trip to the work pool — then cb with the bytes, which cb owns. Reads take at most
// 512 KiB each (Node's kReadFileBufferLength), so a 1 MiB file takes two; a file whose size
// fstat does not tell (not a regular file) is read 64 KiB at a time until a read returns 0.
func (f *FS) ReadFile(p string, cb func(err error, data []byte)) error {
	if cb == nil {
		return errNoCallback
	}
	return f.ReadFileFlag(p, "r", cb)
}

// ReadFileFlag is fs.readFile(path, {flag}, cb).
func (f *FS) ReadFileFlag(p, flag string, cb func(err error, data []byte)) error {
	return f.ReadFileWith(p, &ReadFileOptions{Flag: flag}, cb)
}

// ReadFileOptions are the options of fs.readFile. A nil *ReadFileOptions is Node's
// default: flag "r", no signal.
type ReadFileOptions struct {
	Flag string // "" is "r"
	// Signal, if not nil, aborts the read: cb gets a *nodeevents.AbortError (code
	// ABORT_ERR, "The operation was aborted", Cause the signal's reason). As in Node, a
	// signal aborted already calls cb synchronously, from ReadFileWith; one aborted
	// later is seen before the next read, and cb runs once the file is closed.
	Signal *nodeevents.AbortSignal
}

// ReadFileWith is fs.readFile(path, {flag, signal}, cb).
func (f *FS) ReadFileWith(p string, opts *ReadFileOptions, cb func(err error, data []byte)) error {
	if cb == nil {
		return errNoCallback
	}
	flag := "r"
	var sig *nodeevents.AbortSignal
	if opts != nil {
		if opts.Flag != "" {
			flag = opts.Flag
		}
		sig = opts.Signal
	}
	fl, err := Flags(flag)
	if err != nil {
		return err
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	if err := sig.Err(); err != nil {
		cb(err, nil)
		return nil
	}
	c := &readFileCtx{f: f, cb: cb, signal: sig}
	return start(f.loop.FSOpen(&c.req, p, fl, defaultFileMode, c.opened))
}

// ReadFileString is fs.readFile(path, encoding, cb): the contents decoded as Node's
// buf.toString(encoding) does. An unknown encoding gives ERR_INVALID_ARG_VALUE.
func (f *FS) ReadFileString(p, encoding string, cb func(err error, data string)) error {
	if cb == nil {
		return errNoCallback
	}
	enc, err := checkEncoding(encoding)
	if err != nil {
		return err
	}
	return f.ReadFile(p, func(err error, b []byte) {
		if err != nil {
			cb(err, "")
			return
		}
		cb(nil, encodeNorm(b, enc))
	})
}

// readFileCtx is Node's ReadFileContext: one request reused for every step.
type readFileCtx struct {
	f       *FS
	req     uvloop.FSReq
	cb      func(error, []byte)
	fd      int
	buf     []byte
	size    int // from fstat; 0 when unknown
	pos     int
	readErr error
	signal  *nodeevents.AbortSignal
}

func (c *readFileCtx) opened(r *uvloop.FSReq) {
	if err := r.Err(); err != nil {
		c.cb(fromErr(err), nil)
		return
	}
	c.fd = int(r.Result())
	if err := c.f.loop.FSFstat(&c.req, c.fd, c.statted); err != nil {
		c.closeWith(fromErr(err))
	}
}

func (c *readFileCtx) statted(r *uvloop.FSReq) {
	if err := r.Err(); err != nil {
		c.closeWith(fromErr(err))
		return
	}
	st := r.Stat()
	if st.IsRegular() {
		if st.Size > readFileMax {
			c.closeWith(errFileTooLarge(st.Size))
			return
		}
		c.size = int(st.Size)
	}
	if c.size == 0 {
		c.buf = make([]byte, 0, readFileChunk)
	} else {
		c.buf = make([]byte, c.size)
	}
	c.read()
}

func (c *readFileCtx) read() {
	if err := c.signal.Err(); err != nil {
		c.closeWith(err)
		return
	}
	var dst []byte
	if c.size == 0 {
		if cap(c.buf)-len(c.buf) < readFileChunk {
			c.buf = append(c.buf, make([]byte, readFileChunk)...)[:len(c.buf)]
		}
		dst = c.buf[len(c.buf) : len(c.buf)+readFileChunk]
	} else {
		dst = c.buf[c.pos:min(c.pos+readFileBufferLength, c.size)]
	}
	if err := c.f.loop.FSRead(&c.req, c.fd, dst, -1, c.didRead); err != nil {
		c.closeWith(fromErr(err))
	}
}

func (c *readFileCtx) didRead(r *uvloop.FSReq) {
	if err := r.Err(); err != nil {
		c.closeWith(fromErr(err))
		return
	}
	n := int(r.Result())
	if c.size == 0 {
		c.buf = c.buf[:len(c.buf)+n]
		if n == 0 {
			c.closeWith(nil)
			return
		}
		c.read()
		return
	}
	c.pos += n
	if n == 0 || c.pos == c.size {
		c.buf = c.buf[:c.pos]
		c.closeWith(nil)
		return
	}
	c.read()
}

func (c *readFileCtx) closeWith(err error) {
	c.readErr = err
	if serr := c.f.loop.FSClose(&c.req, c.fd, c.closed); serr != nil {
		c.cb(fromErr(serr), nil)
	}
}

func (c *readFileCtx) closed(r *uvloop.FSReq) {
	err := c.readErr
	if err == nil {
		err = fromErr(r.Err())
	}
	if err != nil {
		c.cb(err, nil)
		return
	}
	c.cb(nil, c.buf)
}

// errFileTooLarge is Node's ERR_FS_FILE_TOO_LARGE, of a regular file that readFile will not
// read (larger than kIoMaxLength).
func errFileTooLarge(size int64) *Error {
	return &Error{Code: "ERR_FS_FILE_TOO_LARGE", Message: "File size (" + itoa(size) + ") is greater than 2 GiB"}
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// WriteOptions are the options of fs.writeFile and fs.appendFile. A nil *WriteOptions is
// Node's default: flag "w" (appendFile: "a"), mode 0o666.
type WriteOptions struct {
	Flag string
	Mode uint32
	// Signal, if not nil, aborts the write: cb gets a *nodeevents.AbortError (code
	// ABORT_ERR, Cause the signal's reason). As in Node, a signal aborted already calls cb
	// synchronously, before the file is opened; one aborted later is seen before the next
	// write (the file is opened, so created or truncated, already), and cb runs once the
	// file is closed.
	Signal *nodeevents.AbortSignal
}

// WriteFile is fs.writeFile(path, data, options, cb): open, write until everything is
// written, close. data must not be touched until cb runs.
func (f *FS) WriteFile(p string, data []byte, opts *WriteOptions, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	return f.writeFile(p, data, opts, "w", cb)
}

// WriteFileString is fs.writeFile(path, string, {encoding}, cb).
func (f *FS) WriteFileString(p, data, encoding string, opts *WriteOptions, cb func(err error)) error {
	return f.writeFileString(p, data, encoding, opts, "w", cb)
}

// AppendFileString is fs.appendFile(path, string, {encoding}, cb).
func (f *FS) AppendFileString(p, data, encoding string, opts *WriteOptions, cb func(err error)) error {
	return f.writeFileString(p, data, encoding, opts, "a", cb)
}

// writeFileString is WriteFileString and AppendFileString: data decoded, then writeFile
// with flag as the default.
func (f *FS) writeFileString(p, data, encoding string, opts *WriteOptions, flag string, cb func(error)) error {
	if cb == nil {
		return errNoCallback
	}
	enc, err := checkEncoding(encoding)
	if err != nil {
		return err
	}
	return f.writeFile(p, decodeNorm(data, enc), opts, flag, cb)
}

// AppendFile is fs.appendFile(path, data, options, cb): WriteFile with flag "a".
func (f *FS) AppendFile(p string, data []byte, opts *WriteOptions, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	return f.writeFile(p, data, opts, "a", cb)
}

func (f *FS) writeFile(p string, data []byte, opts *WriteOptions, flag string, cb func(error)) error {
	if cb == nil {
		return errNoCallback
	}
	mode := uint32(defaultFileMode)
	var sig *nodeevents.AbortSignal
	if opts != nil {
		if opts.Flag != "" {
			flag = opts.Flag
		}
		if opts.Mode != 0 {
			mode = opts.Mode
		}
		sig = opts.Signal
	}
	fl, err := Flags(flag)
	if err != nil {
		return err
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	if err := sig.Err(); err != nil {
		cb(err)
		return nil
	}
	c := &writeFileCtx{f: f, data: data, cb: cb, signal: sig}
	return start(f.loop.FSOpen(&c.req, p, fl, mode, c.opened))
}

// writeFileCtx is Node's writeAll: one request reused for every step.
type writeFileCtx struct {
	f        *FS
	req      uvloop.FSReq
	data     []byte
	cb       func(error)
	fd       int
	writeErr error
	signal   *nodeevents.AbortSignal
}

func (c *writeFileCtx) opened(r *uvloop.FSReq) {
	if err := r.Err(); err != nil {
		c.cb(fromErr(err))
		return
	}
	c.fd = int(r.Result())
	c.write()
}

func (c *writeFileCtx) write() {
	if err := c.signal.Err(); err != nil {
		c.closeWith(err)
		return
	}
	if err := c.f.loop.FSWrite(&c.req, c.fd, c.data, -1, c.wrote); err != nil {
		c.closeWith(fromErr(err))
	}
}

func (c *writeFileCtx) wrote(r *uvloop.FSReq) {
	if err := r.Err(); err != nil {
		c.closeWith(fromErr(err))
		return
	}
	c.data = c.data[r.Result():]
	if len(c.data) > 0 {
		c.write()
		return
	}
	c.closeWith(nil)
}

func (c *writeFileCtx) closeWith(err error) {
	c.writeErr = err
	if serr := c.f.loop.FSClose(&c.req, c.fd, c.closed); serr != nil {
		c.cb(fromErr(serr))
	}
}

func (c *writeFileCtx) closed(r *uvloop.FSReq) {
	err := c.writeErr
	if err == nil {
		err = fromErr(r.Err())
	}
	c.cb(err)
}

// Rename is fs.rename(oldPath, newPath, cb).
func (f *FS) Rename(oldPath, newPath string, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPaths(oldPath, newPath); err != nil {
		return err
	}
	return start(f.loop.FSRename(nil, oldPath, newPath, done(cb)))
}

func checkPaths(a, b string) error {
	if err := checkPath("oldPath", a); err != nil {
		return err
	}
	return checkPath("newPath", b)
}

// Unlink is fs.unlink(path, cb).
func (f *FS) Unlink(p string, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSUnlink(nil, p, done(cb)))
}

// Rmdir is fs.rmdir(path, cb).
func (f *FS) Rmdir(p string, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSRmdir(nil, p, done(cb)))
}

// RmOptions are fs.rm's options; nil is Node's default (neither).
type RmOptions struct {
	Recursive bool // remove directories and their contents
	Force     bool // a missing path is not an error
}

// Rm is fs.rm(path, options, cb): an lstat first (its error is what a missing path gives
// without Force), ERR_FS_EISDIR for a directory without Recursive, then the removal on the
// work pool.
func (f *FS) Rm(p string, opts *RmOptions, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	var o RmOptions
	if opts != nil {
		o = *opts
	}
	return start(f.loop.FSLstat(nil, p, func(r *uvloop.FSReq) {
		if err := r.Err(); err != nil {
			if o.Force && errors.Is(err, syscall.ENOENT) {
				cb(nil)
				return
			}
			cb(fromErr(err))
			return
		}
		if r.Stat().IsDir() && !o.Recursive {
			cb(errRmIsDir(p))
			return
		}
		var rerr error
		if _, err := f.loop.QueueWork(func() { rerr = rimraf(p, false) }, func(err error) {
			if err == nil {
				err = rerr
			}
			cb(fromErr(err))
		}); err != nil {
			cb(fromErr(err))
		}
	}))
}

// errRmIsDir is Node's ERR_FS_EISDIR of rm on a directory without recursive.
func errRmIsDir(p string) *Error {
	return &Error{Code: "ERR_FS_EISDIR", Errno: int(syscall.EISDIR), Syscall: "rm", Path: p,
		Message: "Path is a directory: rm returned EISDIR (is a directory) " + p, Err: syscall.EISDIR}
}

// rimraf removes p as Node's rimraf: a file is unlinked; a directory is rmdir'ed, and only
// if that fails ENOTEMPTY, EEXIST or EPERM are its children (named p + "/" + name, as
// spelled) removed and the rmdir tried again. So 'd/.' fails EINVAL with its contents left
// in place, and 'd/s/..' removes d's children. A path gone meanwhile (ENOENT) is success.
// sync is rmSync's rimrafSync rather than the callback's rimraf (see rmdirTree).
func rimraf(p string, sync bool) error {
	st, err := os.Lstat(p)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) {
			return nil
		}
		return withOp(err, "lstat", p)
	}
	if st.IsDir() {
		return rmdirTree(p, nil, sync)
	}
	switch err := syscall.Unlink(p); err {
	case nil, syscall.ENOENT:
		return nil
	case syscall.EISDIR, syscall.EPERM:
		return rmdirTree(p, err, sync)
	default:
		return &os.PathError{Op: "unlink", Path: p, Err: err}
	}
}

// rmdirTree is Node's _rmdir: rmdir, and on a directory that is not empty, its children
// and rmdir again. unlinkErr is the unlink failure that led here, reported if p turns out
// not to be a directory; if there was none (lstat said directory: a link to one named with
// a trailing slash), Node's callback rimraf reports that absent error, so succeeds having
// removed nothing, and its rimrafSync throws the rmdir's ENOTDIR.
func rmdirTree(p string, unlinkErr error, sync bool) error {
	switch err := syscall.Rmdir(p); err {
	case nil, syscall.ENOENT:
		return nil
	case syscall.ENOTEMPTY, syscall.EEXIST, syscall.EPERM:
	case syscall.ENOTDIR:
		if unlinkErr != nil {
			return &os.PathError{Op: "unlink", Path: p, Err: unlinkErr}
		}
		if !sync {
			return nil
		}
		return &os.PathError{Op: "rmdir", Path: p, Err: err}
	default:
		return &os.PathError{Op: "rmdir", Path: p, Err: err}
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) {
			return nil
		}
		return withOp(err, "scandir", p)
	}
	for _, e := range ents {
		if err := rimraf(p+"/"+e.Name(), sync); err != nil {
			return err
		}
	}
	if err := syscall.Rmdir(p); err != nil && err != syscall.ENOENT {
		return &os.PathError{Op: "rmdir", Path: p, Err: err}
	}
	return nil
}

// withOp renames the system call of an error from package os to the one Node reports.
func withOp(err error, op, p string) error {
	return &os.PathError{Op: op, Path: p, Err: errnoOf(err)}
}

// CopyFile is fs.copyFile(src, dest, mode, cb); mode is 0 or COPYFILE_EXCL,
// COPYFILE_FICLONE, COPYFILE_FICLONE_FORCE.
func (f *FS) CopyFile(src, dest string, mode int, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("src", src); err != nil {
		return err
	}
	if err := checkPath("dest", dest); err != nil {
		return err
	}
	if mode < 0 || mode > 7 {
		return errModeRange
	}
	return start(f.loop.FSCopyfile(nil, src, dest, mode, done(cb)))
}

// Access is fs.access(path, mode, cb); mode is F_OK or R_OK|W_OK|X_OK.
func (f *FS) Access(p string, mode int, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	if mode < 0 || mode > 7 {
		return errModeRange
	}
	return start(f.loop.FSAccess(nil, p, uint32(mode), done(cb)))
}

// Realpath is fs.realpath(path, cb), Node's JavaScript walk: the path is made absolute, and
// each prefix is lstat'ed and its links followed; a missing component fails as that
// prefix's lstat ("ENOENT: no such file or directory, lstat '/missing'"), a dangling link
// as its stat ("stat '/link'"). A link's target is resolved as text ('x/../y' is y, even
// where x is a link).
func (f *FS) Realpath(p string, cb func(err error, resolved string)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	var res string
	var rerr error
	_, err := f.loop.QueueWork(func() { res, rerr = realpathJS(p) }, func(err error) {
		if err == nil {
			err = rerr
		}
		if err != nil {
			cb(fromErr(err), "")
			return
		}
		cb(nil, res)
	})
	return start(err)
}

// realpathJS is the walk of Node's fs.realpath.
func realpathJS(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	resolved := "/"
	rest := abs
	for links := 0; rest != ""; {
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		if comp == "" || comp == "." {
			continue
		}
		if comp == ".." {
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, comp)
		st, err := os.Lstat(next)
		if err != nil {
			return "", withOp(err, "lstat", next)
		}
		if st.Mode()&os.ModeSymlink == 0 {
			if !st.IsDir() && strings.Trim(rest, "/") != "" {
				return "", &os.PathError{Op: "lstat", Path: next + "/" + strings.SplitN(strings.TrimLeft(rest, "/"), "/", 2)[0], Err: syscall.ENOTDIR}
			}
			resolved = next
			continue
		}
		if links++; links > 40 {
			return "", &os.PathError{Op: "stat", Path: next, Err: syscall.ELOOP}
		}
		// As Node's: the link is stat'ed before it is read (a dangling link or a loop fails
		// there, naming the link), and its target and the rest of the path are resolved
		// against its directory as text (path.resolve), then walked again from the root.
		if _, err := os.Stat(next); err != nil {
			return "", withOp(err, "stat", next)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", withOp(err, "readlink", next)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(resolved, target)
		}
		resolved, rest = "/", filepath.Join(target, rest)
	}
	return resolved, nil
}

// RealpathNative is fs.realpath.native(path, cb): libuv's realpath (uv_fs_realpath).
func (f *FS) RealpathNative(p string, cb func(err error, resolved string)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSRealpath(nil, p, func(r *uvloop.FSReq) { cb(fromErr(r.Err()), r.ResultPath()) }))
}

// Mkdtemp is fs.mkdtemp(prefix, cb): a new directory named prefix plus six random
// characters.
func (f *FS) Mkdtemp(prefix string, cb func(err error, dir string)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("prefix", prefix); err != nil {
		return err
	}
	return start(f.loop.FSMkdtemp(nil, prefix+"XXXXXX", func(r *uvloop.FSReq) {
		if err := r.Err(); err != nil {
			cb(fromErr(err), "")
			return
		}
		cb(nil, r.ResultPath())
	}))
}

// Chmod is fs.chmod(path, mode, cb).
func (f *FS) Chmod(p string, mode uint32, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSChmod(nil, p, mode, done(cb)))
}

// Fchmod is fs.fchmod(fd, mode, cb).
func (f *FS) Fchmod(fd int, mode uint32, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	return start(f.loop.FSFchmod(nil, fd, mode, done(cb)))
}

// Symlink is fs.symlink(target, path, cb).
func (f *FS) Symlink(target, p string, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("target", target); err != nil {
		return err
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSSymlink(nil, target, p, done(cb)))
}

// Link is fs.link(existingPath, newPath, cb).
func (f *FS) Link(existingPath, newPath string, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("existingPath", existingPath); err != nil {
		return err
	}
	if err := checkPath("newPath", newPath); err != nil {
		return err
	}
	return start(f.loop.FSLink(nil, existingPath, newPath, done(cb)))
}

// Readlink is fs.readlink(path, cb).
func (f *FS) Readlink(p string, cb func(err error, target string)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("oldPath", p); err != nil { // sic: Node's name for readlink's path
		return err
	}
	return start(f.loop.FSReadlink(nil, p, func(r *uvloop.FSReq) { cb(fromErr(r.Err()), r.ResultPath()) }))
}

// Ftruncate is fs.ftruncate(fd, len, cb).
func (f *FS) Ftruncate(fd int, n int64, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	if n < 0 {
		n = 0 // Node clamps a negative length to 0
	}
	return start(f.loop.FSFtruncate(nil, fd, n, done(cb)))
}

// Truncate is fs.truncate(path, len, cb): open "r+", ftruncate, close.
func (f *FS) Truncate(p string, n int64, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	return f.Open(p, "r+", defaultFileMode, func(err error, fd int) {
		if err != nil {
			cb(err)
			return
		}
		f.Ftruncate(fd, n, func(terr error) {
			f.Close(fd, func(cerr error) {
				if terr != nil {
					cb(terr)
					return
				}
				cb(cerr)
			})
		})
	})
}

// Utimes is fs.utimes(path, atime, mtime, cb).
func (f *FS) Utimes(p string, atime, mtime time.Time, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSUtime(nil, p, atime, mtime, done(cb)))
}

// Futimes is fs.futimes(fd, atime, mtime, cb).
func (f *FS) Futimes(fd int, atime, mtime time.Time, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	return start(f.loop.FSFutime(nil, fd, atime, mtime, done(cb)))
}

// Fsync is fs.fsync(fd, cb).
func (f *FS) Fsync(fd int, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	return start(f.loop.FSFsync(nil, fd, done(cb)))
}

// Fdatasync is fs.fdatasync(fd, cb).
func (f *FS) Fdatasync(fd int, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	return start(f.loop.FSFdatasync(nil, fd, done(cb)))
}

// Chown is fs.chown(path, uid, gid, cb).
func (f *FS) Chown(p string, uid, gid int, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSChown(nil, p, uid, gid, done(cb)))
}
