// Package uverr names errnos as libuv does: uv_err_name's code ("ECONNREFUSED") and
// uv_strerror's description ("connection refused"), which Node puts in its error objects
// and messages. It imports nothing of this module.
package uverr

import "syscall"

// Info is an errno's libuv name and description.
type Info struct{ Name, Desc string }

// Lookup returns errno's name and description, and whether libuv knows it.
func Lookup(errno syscall.Errno) (Info, bool) {
	i, ok := table[errno]
	return i, ok
}

// Name is uv_err_name: "EADDRINUSE", or "UNKNOWN" for an errno libuv does not map.
func Name(errno syscall.Errno) string {
	if i, ok := table[errno]; ok {
		return i.Name
	}
	return "UNKNOWN"
}

// Desc is uv_strerror: "address already in use", or "unknown error".
func Desc(errno syscall.Errno) string {
	if i, ok := table[errno]; ok {
		return i.Desc
	}
	return "unknown error"
}

// table holds libuv's names and descriptions (uv.h's UV_ERRNO_MAP) of the errnos a
// program meets.
var table = map[syscall.Errno]Info{
	syscall.EPERM:           {"EPERM", "operation not permitted"},
	syscall.ENOENT:          {"ENOENT", "no such file or directory"},
	syscall.ESRCH:           {"ESRCH", "no such process"},
	syscall.EINTR:           {"EINTR", "interrupted system call"},
	syscall.EIO:             {"EIO", "i/o error"},
	syscall.ENXIO:           {"ENXIO", "no such device or address"},
	syscall.E2BIG:           {"E2BIG", "argument list too long"},
	syscall.EBADF:           {"EBADF", "bad file descriptor"},
	syscall.EAGAIN:          {"EAGAIN", "resource temporarily unavailable"},
	syscall.ENOMEM:          {"ENOMEM", "not enough memory"},
	syscall.EACCES:          {"EACCES", "permission denied"},
	syscall.EFAULT:          {"EFAULT", "bad address in system call argument"},
	syscall.EBUSY:           {"EBUSY", "resource busy or locked"},
	syscall.EEXIST:          {"EEXIST", "file already exists"},
	syscall.EXDEV:           {"EXDEV", "cross-device link not permitted"},
	syscall.ENODEV:          {"ENODEV", "no such device"},
	syscall.ENOTDIR:         {"ENOTDIR", "not a directory"},
	syscall.EISDIR:          {"EISDIR", "illegal operation on a directory"},
	syscall.EINVAL:          {"EINVAL", "invalid argument"},
	syscall.ENFILE:          {"ENFILE", "file table overflow"},
	syscall.EMFILE:          {"EMFILE", "too many open files"},
	syscall.ENOTTY:          {"ENOTTY", "inappropriate ioctl for device"},
	syscall.ETXTBSY:         {"ETXTBSY", "text file is busy"},
	syscall.EFBIG:           {"EFBIG", "file too large"},
	syscall.ENOSPC:          {"ENOSPC", "no space left on device"},
	syscall.ESPIPE:          {"ESPIPE", "invalid seek"},
	syscall.EROFS:           {"EROFS", "read-only file system"},
	syscall.EMLINK:          {"EMLINK", "too many links"},
	syscall.EPIPE:           {"EPIPE", "broken pipe"},
	syscall.ERANGE:          {"ERANGE", "result too large"},
	syscall.ENAMETOOLONG:    {"ENAMETOOLONG", "name too long"},
	syscall.ENOSYS:          {"ENOSYS", "function not implemented"},
	syscall.ENOTEMPTY:       {"ENOTEMPTY", "directory not empty"},
	syscall.ELOOP:           {"ELOOP", "too many symbolic links encountered"},
	syscall.EPROTO:          {"EPROTO", "protocol error"},
	syscall.EOVERFLOW:       {"EOVERFLOW", "value too large for defined data type"},
	syscall.ENOTSOCK:        {"ENOTSOCK", "socket operation on non-socket"},
	syscall.EDESTADDRREQ:    {"EDESTADDRREQ", "destination address required"},
	syscall.EMSGSIZE:        {"EMSGSIZE", "message too long"},
	syscall.EPROTOTYPE:      {"EPROTOTYPE", "protocol wrong type for socket"},
	syscall.ENOPROTOOPT:     {"ENOPROTOOPT", "protocol not available"},
	syscall.EPROTONOSUPPORT: {"EPROTONOSUPPORT", "protocol not supported"},
	syscall.ENOTSUP:         {"ENOTSUP", "operation not supported on socket"},
	syscall.EAFNOSUPPORT:    {"EAFNOSUPPORT", "address family not supported"},
	syscall.EADDRINUSE:      {"EADDRINUSE", "address already in use"},
	syscall.EADDRNOTAVAIL:   {"EADDRNOTAVAIL", "address not available"},
	syscall.ENETDOWN:        {"ENETDOWN", "network is down"},
	syscall.ENETUNREACH:     {"ENETUNREACH", "network is unreachable"},
	syscall.ECONNABORTED:    {"ECONNABORTED", "software caused connection abort"},
	syscall.ECONNRESET:      {"ECONNRESET", "connection reset by peer"},
	syscall.ENOBUFS:         {"ENOBUFS", "no buffer space available"},
	syscall.EISCONN:         {"EISCONN", "socket is already connected"},
	syscall.ENOTCONN:        {"ENOTCONN", "socket is not connected"},
	syscall.ETIMEDOUT:       {"ETIMEDOUT", "connection timed out"},
	syscall.ECONNREFUSED:    {"ECONNREFUSED", "connection refused"},
	syscall.EHOSTUNREACH:    {"EHOSTUNREACH", "host is unreachable"},
	syscall.EALREADY:        {"EALREADY", "connection already in progress"},
	syscall.ECANCELED:       {"ECANCELED", "operation canceled"},
}
