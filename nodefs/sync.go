package nodefs

import (
	"errors"
	"syscall"

	"github.com/uvgo/uvgo/uvloop"
)

// The synchronous calls (fs.readFileSync, fs.statSync, ...): each runs its system calls on
// the calling goroutine, which must be the loop's, and blocks the loop meanwhile, as Node's
// do. They return what Node returns and fail with what Node throws: the same *Error values
// as the callback API (syscall names and paths included). They are uvloop's requests in
// synchronous mode (a nil callback).

// ReadFileSync is fs.readFileSync(path): open, fstat, read until the size is read (or, for a
// file whose size fstat does not tell, until a read returns 0), close.
func (f *FS) ReadFileSync(p string) ([]byte, error) {
	if err := checkPath("path", p); err != nil {
		return nil, err
	}
	var r uvloop.FSReq
	if err := f.loop.FSOpen(&r, p, syscall.O_RDONLY, defaultFileMode, nil); err != nil {
		return nil, fromErr(err)
	}
	fd := int(r.Result())
	data, err := f.readAllSync(&r, fd)
	if cerr := f.loop.FSClose(&r, fd, nil); err == nil && cerr != nil {
		err = fromErr(cerr)
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}

func (f *FS) readAllSync(r *uvloop.FSReq, fd int) ([]byte, error) {
	if err := f.loop.FSFstat(r, fd, nil); err != nil {
		return nil, fromErr(err)
	}
	st := r.Stat()
	size := 0
	if st.IsRegular() {
		if st.Size > readFileMax {
			return nil, errFileTooLarge(st.Size)
		}
		size = int(st.Size)
	}
	if size > 0 {
		buf := make([]byte, size)
		pos := 0
		for pos < size {
			if err := f.loop.FSRead(r, fd, buf[pos:], -1, nil); err != nil {
				return nil, fromErr(err)
			}
			if r.Result() == 0 {
				break
			}
			pos += int(r.Result())
		}
		return buf[:pos], nil
	}
	buf := make([]byte, 0, readFileChunk)
	for {
		if cap(buf)-len(buf) < readFileChunk {
			buf = append(buf, make([]byte, readFileChunk)...)[:len(buf)]
		}
		if err := f.loop.FSRead(r, fd, buf[len(buf):len(buf)+readFileChunk], -1, nil); err != nil {
			return nil, fromErr(err)
		}
		if r.Result() == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+int(r.Result())]
	}
}

// ReadFileStringSync is fs.readFileSync(path, encoding).
func (f *FS) ReadFileStringSync(p, encoding string) (string, error) {
	enc, err := checkEncoding(encoding)
	if err != nil {
		return "", err
	}
	b, err := f.ReadFileSync(p)
	if err != nil {
		return "", err
	}
	return encodeNorm(b, enc), nil
}

// WriteFileSync is fs.writeFileSync(path, data, options): open (flag "w" unless options say
// otherwise), write until all is written, close.
func (f *FS) WriteFileSync(p string, data []byte, opts *WriteOptions) error {
	return f.writeFileSync(p, data, opts, "w")
}

// WriteFileStringSync is fs.writeFileSync(path, string, {encoding}).
func (f *FS) WriteFileStringSync(p, data, encoding string, opts *WriteOptions) error {
	enc, err := checkEncoding(encoding)
	if err != nil {
		return err
	}
	return f.writeFileSync(p, decodeNorm(data, enc), opts, "w")
}

// AppendFileSync is fs.appendFileSync(path, data, options): WriteFileSync with flag "a".
func (f *FS) AppendFileSync(p string, data []byte, opts *WriteOptions) error {
	return f.writeFileSync(p, data, opts, "a")
}

func (f *FS) writeFileSync(p string, data []byte, opts *WriteOptions, flag string) error {
	mode := uint32(defaultFileMode)
	if opts != nil {
		if opts.Flag != "" {
			flag = opts.Flag
		}
		if opts.Mode != 0 {
			mode = opts.Mode
		}
	}
	fl, err := Flags(flag)
	if err != nil {
		return err
	}
	if err := checkPath("path", p); err != nil {
		return err
	}
	var r uvloop.FSReq
	if err := f.loop.FSOpen(&r, p, fl, mode, nil); err != nil {
		return fromErr(err)
	}
	fd := int(r.Result())
	var werr error
	for len(data) > 0 {
		if err := f.loop.FSWrite(&r, fd, data, -1, nil); err != nil {
			werr = fromErr(err)
			break
		}
		data = data[r.Result():]
	}
	if err := f.loop.FSClose(&r, fd, nil); werr == nil && err != nil {
		werr = fromErr(err)
	}
	return werr
}

// ExistsSync is fs.existsSync(path): whether access(path, F_OK) succeeds. An invalid path
// (empty, with a NUL byte) is false, never an error.
func (f *FS) ExistsSync(p string) bool {
	if p == "" || checkPath("path", p) != nil {
		return false
	}
	var r uvloop.FSReq
	return f.loop.FSAccess(&r, p, F_OK, nil) == nil
}

// AccessSync is fs.accessSync(path, mode).
func (f *FS) AccessSync(p string, mode int) error {
	if err := checkPath("path", p); err != nil {
		return err
	}
	if mode < 0 || mode > 7 {
		return errModeRange
	}
	var r uvloop.FSReq
	return fromErr(f.loop.FSAccess(&r, p, uint32(mode), nil))
}

// StatSync is fs.statSync(path).
func (f *FS) StatSync(p string) (*Stats, error) {
	if err := checkPath("path", p); err != nil {
		return nil, err
	}
	var r uvloop.FSReq
	if err := f.loop.FSStat(&r, p, nil); err != nil {
		return nil, fromErr(err)
	}
	return statsOf(r.Stat()), nil
}

// StatSyncNoThrow is fs.statSync(path, {throwIfNoEntry: false}): nil and no error for a
// missing path (ENOENT), as Node's undefined; a file used as a directory (ENOTDIR) still
// fails, as in Node 20.
func (f *FS) StatSyncNoThrow(p string) (*Stats, error) {
	st, err := f.StatSync(p)
	if errors.Is(err, syscall.ENOENT) {
		return nil, nil
	}
	return st, err
}

// LstatSync is fs.lstatSync(path).
func (f *FS) LstatSync(p string) (*Stats, error) {
	if err := checkPath("path", p); err != nil {
		return nil, err
	}
	var r uvloop.FSReq
	if err := f.loop.FSLstat(&r, p, nil); err != nil {
		return nil, fromErr(err)
	}
	return statsOf(r.Stat()), nil
}

// FstatSync is fs.fstatSync(fd).
func (f *FS) FstatSync(fd int) (*Stats, error) {
	if err := checkFd(fd); err != nil {
		return nil, err
	}
	var r uvloop.FSReq
	if err := f.loop.FSFstat(&r, fd, nil); err != nil {
		return nil, fromErr(err)
	}
	return statsOf(r.Stat()), nil
}

// MkdirSync is fs.mkdirSync(path, options): with Recursive, the first directory made ("" if
// none was: Node's undefined).
func (f *FS) MkdirSync(p string, opts *MkdirOptions) (string, error) {
	if err := checkPath("path", p); err != nil {
		return "", err
	}
	mode := uint32(defaultDirMode)
	if opts != nil && opts.Mode != 0 {
		mode = opts.Mode
	}
	if opts != nil && opts.Recursive {
		first, err := mkdirp(p, mode)
		if err != nil {
			return "", fromErr(err)
		}
		return first, nil
	}
	var r uvloop.FSReq
	return "", fromErr(f.loop.FSMkdir(&r, p, mode, nil))
}

// ReaddirSync is fs.readdirSync(path): the names, sorted as libuv's scandir sorts.
func (f *FS) ReaddirSync(p string) ([]string, error) {
	ents, err := f.scandirSync(p)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name
	}
	return names, nil
}

// ReaddirWithFileTypesSync is fs.readdirSync(path, {withFileTypes: true}).
func (f *FS) ReaddirWithFileTypesSync(p string) ([]*Dirent, error) {
	src, err := f.scandirSync(p)
	if err != nil {
		return nil, err
	}
	ents := make([]*Dirent, len(src))
	for i, e := range src {
		ents[i] = &Dirent{Name: e.Name, ParentPath: p, Type: e.Type}
	}
	return ents, nil
}

func (f *FS) scandirSync(p string) ([]uvloop.Dirent, error) {
	if err := checkPath("path", p); err != nil {
		return nil, err
	}
	var r uvloop.FSReq
	if err := f.loop.FSScandir(&r, p, nil); err != nil {
		return nil, fromErr(err)
	}
	return r.Dirents(), nil
}

// UnlinkSync is fs.unlinkSync(path).
func (f *FS) UnlinkSync(p string) error {
	if err := checkPath("path", p); err != nil {
		return err
	}
	var r uvloop.FSReq
	return fromErr(f.loop.FSUnlink(&r, p, nil))
}

// RmdirSync is fs.rmdirSync(path).
func (f *FS) RmdirSync(p string) error {
	if err := checkPath("path", p); err != nil {
		return err
	}
	var r uvloop.FSReq
	return fromErr(f.loop.FSRmdir(&r, p, nil))
}

// RmSync is fs.rmSync(path, options): as Rm, an lstat first (a missing path fails as
// "ENOENT: ..., lstat 'p'" without Force), ERR_FS_EISDIR for a directory without Recursive.
func (f *FS) RmSync(p string, opts *RmOptions) error {
	if err := checkPath("path", p); err != nil {
		return err
	}
	var o RmOptions
	if opts != nil {
		o = *opts
	}
	var r uvloop.FSReq
	if err := f.loop.FSLstat(&r, p, nil); err != nil {
		if o.Force && errors.Is(err, syscall.ENOENT) {
			return nil
		}
		return fromErr(err)
	}
	if r.Stat().IsDir() && !o.Recursive {
		return errRmIsDir(p)
	}
	return fromErr(rimraf(p, true))
}

// RenameSync is fs.renameSync(oldPath, newPath).
func (f *FS) RenameSync(oldPath, newPath string) error {
	if err := checkPaths(oldPath, newPath); err != nil {
		return err
	}
	var r uvloop.FSReq
	return fromErr(f.loop.FSRename(&r, oldPath, newPath, nil))
}

// CopyFileSync is fs.copyFileSync(src, dest, mode).
func (f *FS) CopyFileSync(src, dest string, mode int) error {
	if err := checkPath("src", src); err != nil {
		return err
	}
	if err := checkPath("dest", dest); err != nil {
		return err
	}
	if mode < 0 || mode > 7 {
		return errModeRange
	}
	var r uvloop.FSReq
	return fromErr(f.loop.FSCopyfile(&r, src, dest, mode, nil))
}

// MkdtempSync is fs.mkdtempSync(prefix).
func (f *FS) MkdtempSync(prefix string) (string, error) {
	if err := checkPath("prefix", prefix); err != nil {
		return "", err
	}
	var r uvloop.FSReq
	if err := f.loop.FSMkdtemp(&r, prefix+"XXXXXX", nil); err != nil {
		return "", fromErr(err)
	}
	return r.ResultPath(), nil
}

// RealpathSync is fs.realpathSync(path), Node's JavaScript walk (see Realpath).
func (f *FS) RealpathSync(p string) (string, error) {
	if err := checkPath("path", p); err != nil {
		return "", err
	}
	res, err := realpathJS(p)
	if err != nil {
		return "", fromErr(err)
	}
	return res, nil
}

// ReadlinkSync is fs.readlinkSync(path).
func (f *FS) ReadlinkSync(p string) (string, error) {
	if err := checkPath("oldPath", p); err != nil { // sic: Node's name for readlink's path
		return "", err
	}
	var r uvloop.FSReq
	if err := f.loop.FSReadlink(&r, p, nil); err != nil {
		return "", fromErr(err)
	}
	return r.ResultPath(), nil
}

// OpenSync is fs.openSync(path, flags, mode).
func (f *FS) OpenSync(p, flags string, mode uint32) (int, error) {
	fl, err := Flags(flags)
	if err != nil {
		return -1, err
	}
	if err := checkPath("path", p); err != nil {
		return -1, err
	}
	var r uvloop.FSReq
	if err := f.loop.FSOpen(&r, p, fl, mode, nil); err != nil {
		return -1, fromErr(err)
	}
	return int(r.Result()), nil
}

// CloseSync is fs.closeSync(fd).
func (f *FS) CloseSync(fd int) error {
	if err := checkFd(fd); err != nil {
		return err
	}
	var r uvloop.FSReq
	return fromErr(f.loop.FSClose(&r, fd, nil))
}

// ReadSync is fs.readSync(fd, buffer, offset, length, position): the count read, with the
// checks of Read.
func (f *FS) ReadSync(fd int, buf []byte, offset, length int, position int64) (int, error) {
	if err := checkFd(fd); err != nil {
		return 0, err
	}
	if err := checkReadArgs(len(buf), offset, length, position); err != nil {
		return 0, err
	}
	if length == 0 {
		return 0, nil
	}
	var r uvloop.FSReq
	if err := f.loop.FSRead(&r, fd, buf[offset:offset+length], position, nil); err != nil {
		return 0, fromErr(err)
	}
	return int(r.Result()), nil
}

// WriteSync is fs.writeSync(fd, buffer, offset, length, position): the count written, with
// the checks of Write.
func (f *FS) WriteSync(fd int, buf []byte, offset, length int, position int64) (int, error) {
	if err := checkFd(fd); err != nil {
		return 0, err
	}
	if err := checkWriteArgs(len(buf), offset, length); err != nil {
		return 0, err
	}
	if position < 0 {
		position = -1
	}
	var r uvloop.FSReq
	if err := f.loop.FSWrite(&r, fd, buf[offset:offset+length], position, nil); err != nil {
		return 0, fromErr(err)
	}
	return int(r.Result()), nil
}
