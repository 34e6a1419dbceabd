//go:build (linux && !386 && !s390x) || freebsd || dragonfly

package sock

import "golang.org/x/sys/unix"

// accept4 is accept4(2) with no address wanted: unix.Accept4 allocates a sockaddr buffer
// and the Sockaddr it decodes for every connection, garbage that only grows the heap of a
// server taking thousands (Accept's callers ask for the peer's address when they need it).
func accept4(fd, flags int) (int, error) {
	nfd, _, e := unix.Syscall6(unix.SYS_ACCEPT4, uintptr(fd), 0, 0, uintptr(flags), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(nfd), nil
}
