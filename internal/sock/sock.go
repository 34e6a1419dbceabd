// Package sock holds every socket system call that uvgo's loop makes: creating and accepting
// non-blocking, close-on-exec sockets, binding, connecting and listening, socket options,
// the conversions between netip addresses and the kernel's socket addresses, and the raw
// read, write, writev, recvfrom and sendto of the loop's hot paths.
//
// # Conventions
//
// A function here fails with nil or a bare [syscall.Errno], never wrapped: the caller compares
// it (err == syscall.EAGAIN) without an allocation, and wraps it with [os.NewSyscallError]
// and the name of the system call it made. The one exception is [ErrUnsupported], which every
// function returns on a system with no implementation. EINTR never leaves this package: a
// call that the kernel interrupts is retried inside the shim, once per interruption.
//
// # Mechanisms
//
// Each mechanism is one file with one //go:build list:
//
//	sock_unix.go       the portable calls: bind, connect, listen, options, addresses (the six systems below)
//	socket_cloexec.go  socket and accept4 with SOCK_NONBLOCK|SOCK_CLOEXEC (linux, freebsd, dragonfly)
//	socket_forklock.go socket and accept under syscall.ForkLock, then fcntl (darwin, netbsd, openbsd)
//	rw_raw.go          read, write, writev as raw system calls, iovecs kept by the caller (linux, freebsd, netbsd, dragonfly)
//	rw_libc.go         read, write, writev through libc (darwin, openbsd)
//	dgram_linux.go     recvfrom and sendto as raw system calls with an in-place address (linux)
//	dgram_bsd.go       recvfrom and sendto through x/sys/unix (darwin, dragonfly, freebsd, netbsd, openbsd)
//	keepalive_*.go     the keep-alive probe timing: TCP_KEEPIDLE, darwin's TCP_KEEPALIVE, or none (openbsd)
//	sock_other.go      every function fails with ErrUnsupported (windows and the rest)
//
// The package imports nothing of uvgo. Its functions are safe for concurrent use as the
// system calls they make are; a [Sockaddr] or an [IOVecs] belongs to one goroutine at a time.
package sock

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"runtime"
	"strconv"
	"syscall"
)

// Address families and socket types, with the system's values.
const (
	IPv4 = syscall.AF_INET  // AF_INET
	IPv6 = syscall.AF_INET6 // AF_INET6
	Unix = syscall.AF_UNIX  // AF_UNIX

	Stream   = syscall.SOCK_STREAM // SOCK_STREAM
	Datagram = syscall.SOCK_DGRAM  // SOCK_DGRAM
)

// ErrUnsupported is what every function returns where this package has no implementation.
var ErrUnsupported = fmt.Errorf("sock: no socket support on %s: %w", runtime.GOOS, errors.ErrUnsupported)

// FamilyOf is the socket family for a: IPv4 for an IPv4 address, IPv6 for any other valid one
// (an IPv4-mapped IPv6 address stays IPv6), 0 for the zero Addr.
func FamilyOf(a netip.Addr) int {
	switch {
	case a.Is4():
		return IPv4
	case a.IsValid():
		return IPv6
	}
	return 0
}

// ZoneIndex resolves an IPv6 zone, a number or an interface name, to an interface index; ""
// is 0. An unknown interface name fails with ENXIO.
func ZoneIndex(zone string) (uint32, error) {
	if zone == "" {
		return 0, nil
	}
	if n, err := strconv.ParseUint(zone, 10, 32); err == nil {
		return uint32(n), nil
	}
	ifi, err := net.InterfaceByName(zone)
	if err != nil {
		return 0, syscall.ENXIO
	}
	return uint32(ifi.Index), nil
}

// ZoneName is the name of the interface with index idx, or the index as a number if there is
// no such interface.
func ZoneName(idx uint32) string {
	if ifi, err := net.InterfaceByIndex(int(idx)); err == nil {
		return ifi.Name
	}
	return strconv.FormatUint(uint64(idx), 10)
}

// IsLinkLocal6 reports whether a is an IPv6 link-local address (fe80::/16, the test of
// libuv's uv__is_ipv6_link_local).
func IsLinkLocal6(a netip.Addr) bool {
	if !a.Is6() || a.Is4In6() {
		return false
	}
	b := a.As16()
	return b[0] == 0xfe && b[1] == 0x80
}

// LinkLocalScope is the index of the first interface that has an IPv6 link-local address,
// or 0 if none has: the scope libuv gives a link-local address that names none
// (uv__ipv6_link_local_scope_id), for it does not route without one.
func LinkLocalScope() uint32 {
	ifs, err := net.Interfaces()
	if err != nil {
		return 0
	}
	for _, ifi := range ifs {
		addrs, err := ifi.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(ipn.IP); ok && IsLinkLocal6(ip) {
					return uint32(ifi.Index)
				}
			}
		}
	}
	return 0
}

// boolInt is a boolean socket option's value.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
