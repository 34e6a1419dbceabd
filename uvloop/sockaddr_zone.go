package uvloop

import (
	"net"
	"os"
	"strconv"
	"syscall"
)

// interfaceIndex resolves an IPv6 zone: an interface name or a number.
func interfaceIndex(zone string) (uint32, error) {
	if n, err := strconv.ParseUint(zone, 10, 32); err == nil {
		return uint32(n), nil
	}
	ifi, err := net.InterfaceByName(zone)
	if err != nil {
		return 0, os.NewSyscallError("sockaddr", syscall.ENXIO)
	}
	return uint32(ifi.Index), nil
}

// zoneName is the interface name of an IPv6 zone index, or the number.
func zoneName(idx uint32) string {
	if ifi, err := net.InterfaceByIndex(int(idx)); err == nil {
		return ifi.Name
	}
	return strconv.FormatUint(uint64(idx), 10)
}
