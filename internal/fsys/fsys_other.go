//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package fsys

import "errors"

// Systems without an implementation: every call fails with errors.ErrUnsupported.

var errUnsupported = errors.ErrUnsupported

func Open(path string, flags int, mode uint32) (int, error) { return -1, errUnsupported }
func Close(fd int) error                                    { return errUnsupported }
func Regular(fd int) bool                                   { return false }
func Read(fd int, p []byte, off int64) (int, error)         { return 0, errUnsupported }
func Write(fd int, p []byte, off int64) (int, error)        { return 0, errUnsupported }
func Readv(fd int, bufs [][]byte, off int64) (int, error)   { return 0, errUnsupported }
func Writev(fd int, bufs [][]byte, off int64) (int, error)  { return 0, errUnsupported }
func Stat(path string, st *Statbuf) error                   { return errUnsupported }
func Lstat(path string, st *Statbuf) error                  { return errUnsupported }
func Fstat(fd int, st *Statbuf) error                       { return errUnsupported }
func Rename(from, to string) error                          { return errUnsupported }
func Unlink(path string) error                              { return errUnsupported }
func Rmdir(path string) error                               { return errUnsupported }
func Mkdir(path string, mode uint32) error                  { return errUnsupported }
func Mkdtemp(tpl string) (string, error)                    { return "", errUnsupported }
func Scandir(path string) ([]Dirent, error)                 { return nil, errUnsupported }
func Readlink(path string) (string, error)                  { return "", errUnsupported }
func Realpath(path string) (string, error)                  { return "", errUnsupported }
func Symlink(target, link string) error                     { return errUnsupported }
func Link(oldpath, newpath string) error                    { return errUnsupported }
func Chmod(path string, mode uint32) error                  { return errUnsupported }
func Fchmod(fd int, mode uint32) error                      { return errUnsupported }
func Chown(path string, uid, gid int) error                 { return errUnsupported }
func Fchown(fd, uid, gid int) error                         { return errUnsupported }
func Lchown(path string, uid, gid int) error                { return errUnsupported }
func Utime(path string, atime, mtime Timespec) error        { return errUnsupported }
func Lutime(path string, atime, mtime Timespec) error       { return errUnsupported }
func Futime(fd int, atime, mtime Timespec) error            { return errUnsupported }
func Fsync(fd int) error                                    { return errUnsupported }
func Fdatasync(fd int) error                                { return errUnsupported }
func Ftruncate(fd int, size int64) error                    { return errUnsupported }
func Access(path string, mode uint32) error                 { return errUnsupported }
func Copyfile(src, dst string, flags int) error             { return errUnsupported }
func Sendfile(out, in int, off, n int64) (int64, error)     { return 0, errUnsupported }
