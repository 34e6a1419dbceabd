package nodedns_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/uvloop"
)

// nodedns on both backends, plain and own thread (review rev8-pollsig): the lookups' order
// against ticks and immediates, as node v20 prints the same script (each lookup starts from
// the last one's callback, so that the work pool's timing orders nothing):
//
//	dns.lookup('127.0.0.1', (e, a, f) => console.log('lookup ip', e, a, f));
//	dns.lookup('localhost', { family: 4 }, (e, a, f) => {
//	  console.log('lookup localhost', e, a, f);
//	  setImmediate(() => {
//	    console.log('immediate');
//	    dns.lookupService('127.0.0.1', 22, (e, h, s) => {
//	      console.log('lookupService', e, h, s);
//	      dns.lookup('nonexistent.invalid', (e) => console.log('lookup invalid', e.code, e.syscall, e.hostname));
//	      process.nextTick(() => console.log('tick 2'));
//	    });
//	  });
//	});
//	process.nextTick(() => console.log('tick'));
//	console.log('main');
func TestRev8LookupChainModes(t *testing.T) {
	want := []string{"main", "lookup ip <nil> 127.0.0.1 4", "tick", "lookup localhost <nil> 127.0.0.1 4",
		"immediate", "lookupService <nil> localhost ssh", "tick 2",
		"lookup invalid ENOTFOUND getaddrinfo nonexistent.invalid"}
	var ref []string
	for _, m := range looptest.Modes {
		t.Run(m.Name, func(t *testing.T) {
			l, ok := m.New(t)
			if !ok {
				t.Skip(m.Name + ": not available")
			}
			var got []string
			log := func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) }
			nodedns.Lookup(l, "127.0.0.1", nil, func(e error, a string, f int) { log("lookup ip %v %s %d", e, a, f) })
			nodedns.Lookup(l, "localhost", &nodedns.LookupOptions{Family: 4}, func(e error, a string, f int) {
				log("lookup localhost %v %s %d", e, a, f)
				l.SetImmediate(func() {
					log("immediate")
					nodedns.LookupService(l, "127.0.0.1", 22, func(e error, h, s string) {
						log("lookupService %v %s %s", e, h, s)
						nodedns.Lookup(l, "nonexistent.invalid", nil, func(e error, _ string, _ int) {
							var de *nodedns.Error
							if errors.As(e, &de) {
								log("lookup invalid %s %s %s", de.Code, de.Syscall, de.Hostname)
							} else {
								log("lookup invalid %v", e)
							}
						})
						l.NextTick(func() { log("tick 2") })
					})
				})
			})
			l.NextTick(func() { log("tick") })
			log("main")
			if _, err := l.Run(uvloop.RunDefault); err != nil {
				t.Fatal(err)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			looptest.Compare(t, m, got, want, &ref)
		})
	}
}
