package nodedns_test

import (
	"testing"

	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/uvloop"
)

// BenchmarkLookupLocalhost is dns.lookup('localhost') b.N times one after the other
// (bench/node/dns-lookup.js beside it).
func BenchmarkLookupLocalhost(b *testing.B) {
	l, err := uvloop.New()
	if err != nil {
		b.Fatal(err)
	}
	done := 0
	var next func()
	cb := func(err error, address string, family int) {
		if err != nil {
			b.Fatal(err)
		}
		if done++; done < b.N {
			next()
		}
	}
	next = func() { nodedns.Lookup(l, "localhost", nil, cb) }
	b.ReportAllocs()
	b.ResetTimer()
	next()
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
}
