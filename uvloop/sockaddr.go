package uvloop

import (
	"net/netip"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sockaddrOf converts a TCP/UDP address to the system's form and tells its family.
// An IPv4-mapped IPv6 address stays IPv6.
func sockaddrOf(ap netip.AddrPort) (unix.Sockaddr, int, error) {
	a := ap.Addr()
	switch {
	case a.Is4():
		return &unix.SockaddrInet4{Port: int(ap.Port()), Addr: a.As4()}, unix.AF_INET, nil
	case a.Is6():
		sa := &unix.SockaddrInet6{Port: int(ap.Port()), Addr: a.As16()}
		if z := a.Zone(); z != "" {
			ifi, err := interfaceIndex(z)
			if err != nil {
				return nil, 0, err
			}
			sa.ZoneId = ifi
		}
		return sa, unix.AF_INET6, nil
	}
	return nil, 0, os.NewSyscallError("sockaddr", syscall.EAFNOSUPPORT)
}

// addrPortOf converts a system address back; other families give the zero AddrPort.
func addrPortOf(sa unix.Sockaddr) netip.AddrPort {
	switch sa := sa.(type) {
	case *unix.SockaddrInet4:
		return netip.AddrPortFrom(netip.AddrFrom4(sa.Addr), uint16(sa.Port))
	case *unix.SockaddrInet6:
		a := netip.AddrFrom16(sa.Addr)
		if sa.ZoneId != 0 {
			a = a.WithZone(zoneName(sa.ZoneId))
		}
		return netip.AddrPortFrom(a, uint16(sa.Port))
	}
	return netip.AddrPort{}
}
