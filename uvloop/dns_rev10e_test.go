package uvloop

import (
	"net/netip"
	"testing"
)

// getaddrinfo takes a numeric IPv4 host as glibc's does, with inet_aton's forms: node v20's
// dns.lookup on this machine (glibc getaddrinfo, under libuv) answers each of these names
// with the address given, or fails ENOTFOUND for the invalid ones ("" here).
func TestRev10eInetAton(t *testing.T) {
	tests := []struct{ in, want string }{
		{"127.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0X7F.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"127.0.0.01", "127.0.0.1"},
		{"0177.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"127.1.65535", "127.1.255.255"},
		{"127.16777215", "127.255.255.255"},
		{"4294967295", "255.255.255.255"},
		{"1.2.3.0x4", "1.2.3.4"},
		{"00", "0.0.0.0"},
		{"127.16777216", ""},
		{"4294967296", ""},
		{"127.0.0.1.", ""},
		{"1.2.3.4.5", ""},
		{"256.1", ""},
		{"0x100.1", ""},
		{"08.1", ""},
		{"1..1", ""},
		{"0x", ""},
		{"+1", ""},
		{"1_0", ""},
		{"localhost", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got := inetAton(tt.in)
		if tt.want == "" {
			if got.IsValid() {
				t.Errorf("inetAton(%q) = %v, want none", tt.in, got)
			}
			continue
		}
		if got != netip.MustParseAddr(tt.want) {
			t.Errorf("inetAton(%q) = %v, want %s", tt.in, got, tt.want)
		}
	}
}
