//go:build linux || freebsd || netbsd || openbsd

package poller_test

import "golang.org/x/sys/unix"

func pipe2(p []int) error { return unix.Pipe2(p, unix.O_NONBLOCK|unix.O_CLOEXEC) }
