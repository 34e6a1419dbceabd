//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package proc

import "syscall"

func LookPath(file, dir string, env []string) (string, error)   { return "", ErrUnsupported }
func Spawn(path string, argv []string, attr *Attr) (int, error) { return 0, ErrUnsupported }
func Kill(pid, sig int) error                                   { return ErrUnsupported }
func Getpid() int                                               { return 0 }
func Reap(pid int) (st Status, ok bool, err error)              { return Status{}, false, ErrUnsupported }
func WaitExit(pid int) (st Status, reaped bool, err error)      { return Status{}, false, ErrUnsupported }
func Socketpair() (int, int, error)                             { return -1, -1, ErrUnsupported }
func Close(fd int) error                                        { return ErrUnsupported }
func SignalName(n int) string                                   { return "" }
func SignalNum(name string) int                                 { return 0 }
func ErrnoName(errno syscall.Errno) string                      { return "" }
func Catchable(sig int) bool                                    { return false }
