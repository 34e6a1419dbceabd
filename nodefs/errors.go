package nodefs

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/uvgo/uvgo/internal/uverr"
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

// uvException is Node's uvException: the error object of a failed fs call. A path or dest
// of "" is left out, as Node's JavaScript-made exceptions leave out a falsy path.
func uvException(errno syscall.Errno, sysc, path, dest string, cause error) *Error {
	return uvExceptionPaths(errno, sysc, path, dest, path != "", dest != "", cause)
}

// uvExceptionPaths is uvException with the paths present however empty, as the binding's
// C++ exceptions (ENOENT: no such file or directory, open ”).
func uvExceptionPaths(errno syscall.Errno, sysc, path, dest string, hasPath, hasDest bool, cause error) *Error {
	name, desc := uverr.Name(errno), uverr.Desc(errno)
	msg := name + ": " + desc + ", " + sysc
	if hasPath {
		msg += " '" + path + "'"
	}
	if hasDest {
		msg += " -> '" + dest + "'"
	}
	if cause == nil {
		cause = errno
	}
	return &Error{Code: name, Errno: -int(errno), Syscall: sysc, Path: path, Dest: dest, Message: msg, Err: cause, hasPath: hasPath}
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
