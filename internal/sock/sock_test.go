package sock

import (
	"errors"
	"net"
	"net/netip"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestFamilyOf(t *testing.T) {
	tests := []struct {
		name string
		addr netip.Addr
		want int
	}{
		{name: "ipv4", addr: netip.MustParseAddr("127.0.0.1"), want: IPv4},
		{name: "ipv6", addr: netip.MustParseAddr("::1"), want: IPv6},
		{name: "ipv4-mapped stays ipv6", addr: netip.MustParseAddr("::ffff:127.0.0.1"), want: IPv6},
		{name: "zoned ipv6", addr: netip.MustParseAddr("fe80::1%1"), want: IPv6},
		{name: "zero", addr: netip.Addr{}, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FamilyOf(tt.addr); got != tt.want {
				t.Errorf("FamilyOf(%v) = %d, want %d", tt.addr, got, tt.want)
			}
		})
	}
}

// loopbackInterface is the machine's loopback interface, or skips the test.
func loopbackInterface(t *testing.T) net.Interface {
	t.Helper()
	ifs, err := net.Interfaces()
	if err != nil {
		t.Skipf("no interface list: %v", err)
	}
	for _, ifi := range ifs {
		if ifi.Flags&net.FlagLoopback != 0 {
			return ifi
		}
	}
	t.Skip("no loopback interface")
	return net.Interface{}
}

func TestZoneIndex(t *testing.T) {
	lo := loopbackInterface(t)
	tests := []struct {
		name    string
		zone    string
		want    uint32
		wantErr error
	}{
		{name: "none", zone: "", want: 0},
		{name: "number", zone: "7", want: 7},
		{name: "interface name", zone: lo.Name, want: uint32(lo.Index)},
		{name: "unknown name", zone: "no-such-interface0", wantErr: syscall.ENXIO},
		{name: "number too large", zone: "4294967296", wantErr: syscall.ENXIO},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ZoneIndex(tt.zone)
			if err != tt.wantErr || got != tt.want {
				t.Errorf("ZoneIndex(%q) = %d, %v; want %d, %v", tt.zone, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestZoneName(t *testing.T) {
	lo := loopbackInterface(t)
	if got := ZoneName(uint32(lo.Index)); got != lo.Name {
		t.Errorf("ZoneName(%d) = %q, want %q", lo.Index, got, lo.Name)
	}
	const absent = 1<<31 - 1
	if got := ZoneName(absent); got != strconv.Itoa(absent) {
		t.Errorf("ZoneName(%d) = %q, want the number", absent, got)
	}
}

func TestUnixPathOK(t *testing.T) {
	tests := []struct {
		name string
		path string
		want bool
	}{
		{name: "empty", path: "", want: false},
		{name: "short", path: "/tmp/x.sock", want: true},
		{name: "longest", path: strings.Repeat("a", UnixPathMax-1), want: true},
		{name: "no room for the NUL", path: strings.Repeat("a", UnixPathMax), want: false},
		{name: "a NUL inside", path: "bad\x00path", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnixPathOK(tt.path); got != tt.want {
				t.Errorf("UnixPathOK(%d bytes) = %v, want %v", len(tt.path), got, tt.want)
			}
		})
	}
}

// TestUnsupportedIsErrUnsupported pins what the stub of other systems returns.
func TestUnsupportedIsErrUnsupported(t *testing.T) {
	if !errors.Is(ErrUnsupported, errors.ErrUnsupported) {
		t.Errorf("ErrUnsupported does not wrap errors.ErrUnsupported")
	}
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd", "netbsd", "openbsd", "dragonfly":
		return
	}
	if _, err := Socket(IPv4, Stream); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Socket: %v, want ErrUnsupported", err)
	}
}
