package nodefs

import (
	"errors"
	"os"
	"strings"
	"syscall"

	"github.com/uvgo/uvgo/uvloop"
)

// FS is Node's fs module bound to one loop. Create it with New; the zero value is not usable.
// Its methods are for the loop goroutine only.
type FS struct {
	loop         *uvloop.Loop
	statWatchers map[string]*StatWatcher // WatchFile's, by filename
}

// New returns the fs module of loop l.
func New(l *uvloop.Loop) *FS { return &FS{loop: l} }

// Loop returns the loop the module runs on.
func (f *FS) Loop() *uvloop.Loop { return f.loop }

// Node's defaults.
const (
	defaultFileMode = 0o666
	defaultDirMode  = 0o777
	// readFileChunk is Node's kReadFileUnknownBufferLength: readFile reads a file whose size
	// fstat does not tell (not a regular file) in chunks of this size.
	readFileChunk = 64 << 10
	// readFileBufferLength is Node's kReadFileBufferLength: readFile reads a regular file in
	// reads of at most this size, so that a big file does not hold a pool thread for long.
	readFileBufferLength = 512 << 10
	// readFileMax is Node's kIoMaxLength: larger files fail with ERR_FS_FILE_TOO_LARGE.
	readFileMax = 1<<31 - 1
	// Constants of fs.constants that ports use.
	F_OK = uvloop.AccessExists
	R_OK = uvloop.AccessRead
	W_OK = uvloop.AccessWrite
	X_OK = uvloop.AccessExecute
	// COPYFILE_EXCL makes CopyFile fail if the destination exists.
	COPYFILE_EXCL = uvloop.CopyfileExcl
	// COPYFILE_FICLONE tries a copy-on-write clone.
	COPYFILE_FICLONE = uvloop.CopyfileFicloneTry
	// COPYFILE_FICLONE_FORCE requires a copy-on-write clone.
	COPYFILE_FICLONE_FORCE = uvloop.CopyfileFicloneForce
)

// Flags converts Node's string flags ("r", "r+", "w", "wx", "a+", ...) to os.O_* flags.
// Unknown flags give ERR_INVALID_ARG_VALUE, as Node's stringToFlags throws.
func Flags(flags string) (int, error) {
	switch flags {
	case "r", "":
		return os.O_RDONLY, nil
	case "rs", "sr":
		return os.O_RDONLY | os.O_SYNC, nil
	case "r+":
		return os.O_RDWR, nil
	case "rs+", "sr+":
		return os.O_RDWR | os.O_SYNC, nil
	case "w":
		return os.O_TRUNC | os.O_CREATE | os.O_WRONLY, nil
	case "wx", "xw":
		return os.O_TRUNC | os.O_CREATE | os.O_WRONLY | os.O_EXCL, nil
	case "w+":
		return os.O_TRUNC | os.O_CREATE | os.O_RDWR, nil
	case "wx+", "xw+":
		return os.O_TRUNC | os.O_CREATE | os.O_RDWR | os.O_EXCL, nil
	case "a":
		return os.O_APPEND | os.O_CREATE | os.O_WRONLY, nil
	case "ax", "xa":
		return os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_EXCL, nil
	case "as", "sa":
		return os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_SYNC, nil
	case "a+":
		return os.O_APPEND | os.O_CREATE | os.O_RDWR, nil
	case "ax+", "xa+":
		return os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_EXCL, nil
	case "as+", "sa+":
		return os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_SYNC, nil
	}
	return 0, argError("ERR_INVALID_ARG_VALUE", "The argument 'flags' is invalid. Received '"+flags+"'")
}

// checkPath is Node's path validation: a path with a NUL byte is refused before any call.
func checkPath(name, p string) error {
	if strings.IndexByte(p, 0) >= 0 {
		return argError("ERR_INVALID_ARG_VALUE", "The argument '"+name+"' must be a string, Uint8Array, or URL without null bytes. Received '"+strings.ReplaceAll(p, "\x00", "\\x00")+"'")
	}
	return nil
}

// done adapts a uvloop request callback to Node's cb(err).
func done(cb func(err error)) func(*uvloop.FSReq) {
	return func(r *uvloop.FSReq) { cb(fromErr(r.Err())) }
}

// start reports a request that could not start (a closed loop) as Node would an exception.
func start(err error) error {
	if err != nil {
		return fromErr(err)
	}
	return nil
}

// Open is fs.open(path, flags, mode, cb): cb gets the descriptor. mode is used when the file
// is created (Node's default 0o666: pass 0o666).
func (f *FS) Open(p, flags string, mode uint32, cb func(err error, fd int)) error {
	if cb == nil {
		return errNoCallback
	}
	fl, err := Flags(flags)
	if err != nil {
		return err
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSOpen(nil, p, fl, mode, func(r *uvloop.FSReq) { cb(fromErr(r.Err()), int(r.Result())) }))
}

// Close is fs.close(fd, cb).
func (f *FS) Close(fd int, cb func(err error)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	return start(f.loop.FSClose(nil, fd, done(cb)))
}

// Read is fs.read(fd, buffer, offset, length, position, cb): it reads up to length bytes
// into buf[offset:] at position, or at the file's position if position is -1 (Node's null).
// buf must not be touched until cb runs; cb gets it back, as Node does. The arguments are
// checked as Node checks them (ERR_OUT_OF_RANGE for an offset, length or position outside
// the buffer or below -1, ERR_INVALID_ARG_VALUE for an empty buffer); a zero length calls
// back on a nextTick without reading.
func (f *FS) Read(fd int, buf []byte, offset, length int, position int64, cb func(err error, bytesRead int, buf []byte)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	if err := checkReadArgs(len(buf), offset, length, position); err != nil {
		return err
	}
	if length == 0 { // Node calls back on a nextTick without reading
		f.loop.NextTick(func() { cb(nil, 0, buf) })
		return nil
	}
	return start(f.loop.FSRead(nil, fd, buf[offset:offset+length], position, func(r *uvloop.FSReq) {
		cb(fromErr(r.Err()), int(max(r.Result(), 0)), buf)
	}))
}

// Write is fs.write(fd, buffer, offset, length, position, cb): it writes buf[offset:
// offset+length] at position, or at the file's position if position is negative (Node's
// null). buf must not be touched until cb runs. offset and length outside the buffer give
// Node's ERR_OUT_OF_RANGE.
func (f *FS) Write(fd int, buf []byte, offset, length int, position int64, cb func(err error, written int, buf []byte)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	if err := checkWriteArgs(len(buf), offset, length); err != nil {
		return err
	}
	if position < 0 {
		position = -1
	}
	return start(f.loop.FSWrite(nil, fd, buf[offset:offset+length], position, func(r *uvloop.FSReq) {
		cb(fromErr(r.Err()), int(max(r.Result(), 0)), buf)
	}))
}

// WriteString is fs.write(fd, string, position, encoding, cb). An encoding Node does not
// know is utf8 here, as in Node's binding.
func (f *FS) WriteString(fd int, s string, position int64, encoding string, cb func(err error, written int, s string)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	enc, ok := normEncoding(encoding)
	if !ok {
		enc = "utf8"
	}
	b := decodeNorm(s, enc)
	return f.Write(fd, b, 0, len(b), position, func(err error, n int, _ []byte) { cb(err, n, s) })
}

// Stat is fs.stat(path, cb).
func (f *FS) Stat(p string, cb func(err error, st *Stats)) error {
	return f.statPath((*uvloop.Loop).FSStat, p, cb)
}

// Lstat is fs.lstat(path, cb).
func (f *FS) Lstat(p string, cb func(err error, st *Stats)) error {
	return f.statPath((*uvloop.Loop).FSLstat, p, cb)
}

// statPath is Stat and Lstat: op is the loop's FSStat or FSLstat.
func (f *FS) statPath(op func(*uvloop.Loop, *uvloop.FSReq, string, func(*uvloop.FSReq)) error, p string, cb func(error, *Stats)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(op(f.loop, nil, p, statDone(cb)))
}

// Fstat is fs.fstat(fd, cb).
func (f *FS) Fstat(fd int, cb func(err error, st *Stats)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkFd(fd); err != nil {
		return err
	}
	return start(f.loop.FSFstat(nil, fd, statDone(cb)))
}

func statDone(cb func(error, *Stats)) func(*uvloop.FSReq) {
	return func(r *uvloop.FSReq) {
		if err := r.Err(); err != nil {
			cb(fromErr(err), nil)
			return
		}
		cb(nil, statsOf(r.Stat()))
	}
}

// Readdir is fs.readdir(path, cb): the names, sorted as libuv's scandir sorts.
func (f *FS) Readdir(p string, cb func(err error, names []string)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSScandir(nil, p, func(r *uvloop.FSReq) {
		if err := r.Err(); err != nil {
			cb(fromErr(err), nil)
			return
		}
		ents := r.Dirents()
		names := make([]string, len(ents))
		for i, e := range ents {
			names[i] = e.Name
		}
		cb(nil, names)
	}))
}

// ReaddirWithFileTypes is fs.readdir(path, {withFileTypes: true}, cb).
func (f *FS) ReaddirWithFileTypes(p string, cb func(err error, ents []*Dirent)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	return start(f.loop.FSScandir(nil, p, func(r *uvloop.FSReq) {
		if err := r.Err(); err != nil {
			cb(fromErr(err), nil)
			return
		}
		src := r.Dirents()
		ents := make([]*Dirent, len(src))
		for i, e := range src {
			ents[i] = &Dirent{Name: e.Name, ParentPath: p, Type: e.Type}
		}
		cb(nil, ents)
	}))
}

// MkdirOptions are fs.mkdir's options. A nil *MkdirOptions is Node's default (not
// recursive, mode 0o777).
type MkdirOptions struct {
	Recursive bool
	Mode      uint32 // 0: 0o777
}

// Mkdir is fs.mkdir(path, options, cb). With Recursive, the missing parents are made too
// and cb gets the first directory made ("" if none was: Node's undefined); an existing
// directory is not an error then.
func (f *FS) Mkdir(p string, opts *MkdirOptions, cb func(err error, first string)) error {
	if cb == nil {
		return errNoCallback
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	mode := uint32(defaultDirMode)
	recursive := false
	if opts != nil {
		recursive = opts.Recursive
		if opts.Mode != 0 {
			mode = opts.Mode
		}
	}
	if !recursive {
		return start(f.loop.FSMkdir(nil, p, mode, func(r *uvloop.FSReq) { cb(fromErr(r.Err()), "") }))
	}
	var first string
	var merr error
	_, err := f.loop.QueueWork(func() { first, merr = mkdirp(p, mode) }, func(err error) {
		if err == nil {
			err = merr
		}
		if err != nil {
			first = ""
		}
		cb(fromErr(err), first)
	})
	return start(err)
}

// mkdirp makes p and its missing parents as Node's MKDirp does, on the path's text: a
// parent is the text before the last '/' (so './r/s' makes './r', 'p//q' makes 'p/', and
// 'c/../d' makes 'c' and then 'c/..'), and the first directory it made is reported as
// spelled ("" if none was made).
func mkdirp(p string, mode uint32) (string, error) {
	fail := func(err error) (string, error) { return "", &os.PathError{Op: "mkdir", Path: p, Err: err} }
	first := ""
	stack := []string{p} // the paths still to make, the next one last
	for len(stack) > 0 {
		next := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		err := mkdirOne(next, mode)
		if err == syscall.ENOENT {
			dir := next
			if i := strings.LastIndexByte(next, '/'); i >= 0 {
				dir = next[:i]
			}
			if dir != next {
				stack = append(stack, next, dir)
				continue
			}
			if len(stack) > 0 {
				continue
			}
			err = syscall.EEXIST
		}
		switch err {
		case nil:
			if first == "" {
				first = next
			}
		case syscall.EACCES, syscall.ENOSPC, syscall.ENOTDIR, syscall.EPERM:
			return fail(err)
		default:
			st, serr := os.Stat(next)
			if serr != nil {
				return fail(errnoOf(serr))
			}
			if !st.IsDir() {
				if err == syscall.EEXIST && len(stack) > 0 {
					return fail(syscall.ENOTDIR)
				}
				return fail(syscall.EEXIST)
			}
		}
	}
	return first, nil
}

// mkdirOne is mkdir(2) with all of mode (the sticky and set-id bits too, as libuv's
// mkdir), reporting the bare errno.
func mkdirOne(p string, mode uint32) error {
	if err := syscall.Mkdir(p, mode); err != nil {
		return errnoOf(err)
	}
	return nil
}

// errnoOf is the errno inside err, or err itself if there is none.
func errnoOf(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return err
}
