package nodefs

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// Error is the error value of Node's fs: a system call failure with Node's code ("ENOENT"),
// errno (negative, as Node prints it), syscall, path and dest, or an argument error
// (Code "ERR_INVALID_ARG_VALUE", ...). Error() is Node's err.message, e.g.
// "ENOENT: no such file or directory, open 'missing.txt'". Err is the cause:
// errors.Is(err, syscall.ENOENT) and errors.Is(err, fs.ErrNotExist) work.
type Error struct {
	Code    string
	Errno   int    // -errno for system call failures; 0 for argument errors
	Syscall string // "open", "stat", "rename", ...; "" for argument errors
	Path    string // "" when Node sets none (descriptor calls)
	Dest    string // the second path of rename, link, symlink, copyfile; "" otherwise
	Message string
	Err     error
	hasPath bool // Node's error object has a path property (it can be ""), and the message quotes it
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Is matches another *Error by Code, so errors.Is(err, &nodefs.Error{Code: "ENOENT"}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Err == nil && t.Code == e.Code
}

// HasPath reports whether Node's error object has a path property: a call with a path
// reports it even when it is "" (ENOENT: no such file or directory, stat ”).
func (e *Error) HasPath() bool { return e.hasPath || e.Path != "" }

// errnoInfo is libuv's name and description of an errno, which Node prints.
type errnoInfo struct{ name, desc string }

// errnoTable holds the errnos a file operation can meet, with uv_err_name / uv_strerror.
var errnoTable = map[syscall.Errno]errnoInfo{
	syscall.E2BIG:        {"E2BIG", "argument list too long"},
	syscall.EACCES:       {"EACCES", "permission denied"},
	syscall.EAGAIN:       {"EAGAIN", "resource temporarily unavailable"},
	syscall.EBADF:        {"EBADF", "bad file descriptor"},
	syscall.EBUSY:        {"EBUSY", "resource busy or locked"},
	syscall.ECANCELED:    {"ECANCELED", "operation canceled"},
	syscall.EEXIST:       {"EEXIST", "file already exists"},
	syscall.EFAULT:       {"EFAULT", "bad address in system call argument"},
	syscall.EFBIG:        {"EFBIG", "file too large"},
	syscall.EINTR:        {"EINTR", "interrupted system call"},
	syscall.EINVAL:       {"EINVAL", "invalid argument"},
	syscall.EIO:          {"EIO", "i/o error"},
	syscall.EISDIR:       {"EISDIR", "illegal operation on a directory"},
	syscall.ELOOP:        {"ELOOP", "too many symbolic links encountered"},
	syscall.EMFILE:       {"EMFILE", "too many open files"},
	syscall.EMLINK:       {"EMLINK", "too many links"},
	syscall.ENAMETOOLONG: {"ENAMETOOLONG", "name too long"},
	syscall.ENFILE:       {"ENFILE", "file table overflow"},
	syscall.ENODEV:       {"ENODEV", "no such device"},
	syscall.ENOENT:       {"ENOENT", "no such file or directory"},
	syscall.ENOMEM:       {"ENOMEM", "not enough memory"},
	syscall.ENOSPC:       {"ENOSPC", "no space left on device"},
	syscall.ENOSYS:       {"ENOSYS", "function not implemented"},
	syscall.ENOTDIR:      {"ENOTDIR", "not a directory"},
	syscall.ENOTEMPTY:    {"ENOTEMPTY", "directory not empty"},
	syscall.ENOTSUP:      {"ENOTSUP", "operation not supported on socket"},
	syscall.ENOTTY:       {"ENOTTY", "inappropriate ioctl for device"},
	syscall.ENXIO:        {"ENXIO", "no such device or address"},
	syscall.EOVERFLOW:    {"EOVERFLOW", "value too large for defined data type"},
	syscall.EPERM:        {"EPERM", "operation not permitted"},
	syscall.EPIPE:        {"EPIPE", "broken pipe"},
	syscall.ERANGE:       {"ERANGE", "result too large"},
	syscall.EROFS:        {"EROFS", "read-only file system"},
	syscall.ESPIPE:       {"ESPIPE", "invalid seek"},
	syscall.ETXTBSY:      {"ETXTBSY", "text file is busy"},
	syscall.EXDEV:        {"EXDEV", "cross-device link not permitted"},
}

// uvException is Node's uvException: the error object of a failed fs call. A path or dest
// of "" is left out, as Node's JavaScript-made exceptions leave out a falsy path.
func uvException(errno syscall.Errno, sysc, path, dest string, cause error) *Error {
	return uvExceptionPaths(errno, sysc, path, dest, path != "", dest != "", cause)
}

// uvExceptionPaths is uvException with the paths present however empty, as the binding's
// C++ exceptions (ENOENT: no such file or directory, open ”).
func uvExceptionPaths(errno syscall.Errno, sysc, path, dest string, hasPath, hasDest bool, cause error) *Error {
	info, ok := errnoTable[errno]
	if !ok {
		info = errnoInfo{"UNKNOWN", "unknown error"}
	}
	msg := info.name + ": " + info.desc + ", " + sysc
	if hasPath {
		msg += " '" + path + "'"
	}
	if hasDest {
		msg += " -> '" + dest + "'"
	}
	if cause == nil {
		cause = errno
	}
	return &Error{Code: info.name, Errno: -int(errno), Syscall: sysc, Path: path, Dest: dest, Message: msg, Err: cause, hasPath: hasPath}
}

// fromErr turns what uvloop or package os returned into Node's error: the system call's
// name and path(s) come from the *fs.PathError, *os.LinkError or *os.SyscallError.
func fromErr(err error) error {
	if err == nil {
		return nil
	}
	var ne *Error
	if errors.As(err, &ne) {
		return ne
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err
	}
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(err, &le):
		return uvExceptionPaths(errno, le.Op, le.Old, le.New, true, true, err)
	case errors.As(err, &pe):
		if pe.Op == "watch" { // made in JavaScript by FSWatcher: an empty path is left out
			return uvException(errno, pe.Op, pe.Path, "", err)
		}
		return uvExceptionPaths(errno, pe.Op, pe.Path, "", true, false, err)
	case errors.As(err, &se):
		return uvException(errno, se.Syscall, "", "", err)
	}
	return uvException(errno, "", "", "", err)
}

// withSyscall is fromErr with Node's syscall name and path, for calls Node implements
// differently from the system call uvloop made.
func withSyscall(err error, sysc, path string) error {
	var errno syscall.Errno
	if err == nil || !errors.As(err, &errno) {
		return fromErr(err)
	}
	return uvException(errno, sysc, path, "", err)
}

// argError is Node's ERR_INVALID_ARG_VALUE / ERR_INVALID_ARG_TYPE / ERR_OUT_OF_RANGE: what
// Node throws before it calls into libuv.
func argError(code, msg string) *Error { return &Error{Code: code, Message: msg} }
