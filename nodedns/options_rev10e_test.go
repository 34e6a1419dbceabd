package nodedns

import "testing"

// Node's lookup reads options.verbatim, then options.order, each setting the result order:
// with both, order wins (node v20.20's lib/dns.js; this machine's /etc/hosts has no name
// with both families to show it on a lookup). The hints are checked before the family.
func TestRev10eLookupOptionsPrecedence(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name  string
		opts  *LookupOptions
		order string
		code  string
	}{
		{"none", nil, DefaultResultOrder, ""},
		{"verbatim false", &LookupOptions{Verbatim: &no}, OrderIPv4First, ""},
		{"order over verbatim", &LookupOptions{Verbatim: &yes, Order: OrderIPv6First}, OrderIPv6First, ""},
		{"order over verbatim false", &LookupOptions{Verbatim: &no, Order: OrderVerbatim}, OrderVerbatim, ""},
		{"bad hints before bad family", &LookupOptions{Family: 5, Hints: 1}, "", "ERR_INVALID_ARG_VALUE hints"},
	}
	for _, tt := range tests {
		_, order, err := lookupOptions(tt.opts)
		switch {
		case tt.code != "":
			if e, ok := err.(*Error); !ok || e.Code+" hints" != tt.code || e.Message != "The argument 'hints' is invalid. Received 1" {
				t.Errorf("%s: %v, want %s", tt.name, err, tt.code)
			}
		case err != nil || order != tt.order:
			t.Errorf("%s: %q %v, want %q", tt.name, order, err, tt.order)
		}
	}
}
