package nodedns_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/uvgo/uvgo/internal/looptest"
	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// errInfo prints a nodedns error as the twins print node's: code, errno, syscall, hostname,
// message (undefined where node sets no property).
func errInfo(err error) string {
	var de *nodedns.Error
	if !errors.As(err, &de) {
		return "not a nodedns.Error: " + err.Error()
	}
	errno, syscall, host := "undefined", "undefined", "undefined"
	if de.Errno != 0 {
		errno = fmt.Sprint(de.Errno)
	}
	if de.Syscall != "" {
		syscall = de.Syscall
	}
	if de.Hostname != "" {
		host = de.Hostname
	}
	return fmt.Sprintf("%s %s %s %s %s", de.Code, errno, syscall, host, de.Message)
}

func addrsJSON(as []nodedns.LookupAddress) string {
	type addr struct {
		Address string `json:"address"`
		Family  int    `json:"family"`
	}
	out := make([]addr, len(as))
	for i, a := range as {
		out[i] = addr{a.Address, a.Family}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// dns.lookup's argument errors, thrown at the call: a family other than 0, 4 or 6, and hints
// other than ADDRCONFIG, V4MAPPED and ALL (1 is AI_PASSIVE in both); lookupService's bad
// address and port; dns.reverse's address that is not one (EINVAL, errno -22).
const argsJS = `
const dns = require('dns');
const log = (...a) => console.log(a.join(' '));
const info = (e) => [e.code, e.errno, e.syscall, e.hostname, e.message].join(' ');
setTimeout(() => {
  for (const f of [() => dns.lookup('localhost', { family: 5 }, () => {}), () => dns.lookup('localhost', { hints: 1 }, () => {}),
    () => dns.lookupService('nope', 80, () => {}), () => dns.lookupService('127.0.0.1', 70000, () => {})]) {
    try { f(); log('no throw'); } catch (e) { log('throws', e.name, e.code, e.message); }
  }
  try { dns.reverse('not-an-ip', () => {}); log('no throw'); } catch (e) { log('reverse throws', info(e)); }
}, 0);
`

func TestRev10eLookupArgs(t *testing.T) {
	want := looptest.NodeLines(t, argsJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		name := func(err error) string {
			var de *nodedns.Error
			if errors.As(err, &de) && de.Code == "ERR_SOCKET_BAD_PORT" {
				return "RangeError"
			}
			return "TypeError"
		}
		nop := func(error, string, int) {}
		for _, f := range []func() error{
			func() error { return nodedns.Lookup(l, "localhost", &nodedns.LookupOptions{Family: 5}, nop) },
			func() error {
				return nodedns.Lookup(l, "localhost", &nodedns.LookupOptions{Hints: uvloop.AIPassive}, nop)
			},
			func() error { return nodedns.LookupService(l, "nope", 80, func(error, string, string) {}) },
			func() error { return nodedns.LookupService(l, "127.0.0.1", 70000, func(error, string, string) {}) },
		} {
			if err := f(); err != nil {
				var de *nodedns.Error
				errors.As(err, &de)
				log("throws", name(err), de.Code, de.Message)
			} else {
				log("no throw")
			}
		}
		if err := nodedns.Reverse(l, "not-an-ip", func(error, []string) {}); err != nil {
			log("reverse throws", errInfo(err))
		} else {
			log("no throw")
		}
	})
}

// dns.lookup on this machine's resolver, one lookup at a time: localhost with each family
// and all, verbatim false, family 6 with V4MAPPED and without (ENOTFOUND: /etc/hosts has no
// ::1 here), an address literal with another family (answered as it is), an empty name, a
// name under .invalid (ENOTFOUND with node's fields), lookupService of 127.0.0.1:80, and the
// numeric forms glibc's getaddrinfo takes (inet_aton's: "127.1", "0x7f.1", ...). The twin
// runs the same chain; both read /etc/hosts.
const lookupJS = `
const dns = require('dns');
const log = (...a) => console.log(a.map(String).join(' '));
const info = (e) => [e.code, e.errno, e.syscall, e.hostname, e.message].join(' ');
const steps = [
  (next) => dns.lookup('localhost', (e, a, f) => { log('localhost', e, a, f); next(); }),
  (next) => dns.lookup('localhost', { family: 4, all: true }, (e, a) => { log('localhost 4 all', e, JSON.stringify(a)); next(); }),
  (next) => dns.lookup('localhost', { all: true, verbatim: false }, (e, a) => { log('localhost v4 first', e, JSON.stringify(a)); next(); }),
  (next) => dns.lookup('localhost', { family: 6, all: true, hints: dns.V4MAPPED }, (e, a) => { log('localhost 6 mapped', e && info(e), JSON.stringify(a)); next(); }),
  (next) => dns.lookup('localhost', { family: 6 }, (e, a, f) => { log('localhost 6', e && info(e), a, f); next(); }),
  (next) => dns.lookup('::1', { family: 4 }, (e, a, f) => { log('literal', e, a, f); next(); }),
  (next) => dns.lookup('127.0.0.1', { all: true, family: 6 }, (e, a) => { log('literal all', e, JSON.stringify(a)); next(); }),
  (next) => dns.lookup('', { family: 6 }, (e, a, f) => { log('empty', e, a, f); next(); }),
  (next) => dns.lookup('', { all: true }, (e, a) => { log('empty all', e, JSON.stringify(a)); next(); }),
  (next) => dns.lookup('nosuch.invalid', { all: true }, (e, a) => { log('invalid', info(e), a); next(); }),
  (next) => dns.lookupService('127.0.0.1', 80, (e, h, s) => { log('service', e, h, s); next(); }),
  (next) => dns.lookupService('127.0.0.1', 0, (e, h, s) => { log('service 0', e, h, s); next(); }),
  (next) => dns.lookupService('127.0.0.1', 65000, (e, h, s) => { log('service 65000', e, h, s); next(); }),
  ...['127.1', '0x7f.1', '2130706433', '127.0.0.01'].map((n) =>
    (next) => dns.lookup(n, { all: true }, (e, a) => { log('inet_aton', n, e, JSON.stringify(a)); next(); })),
];
setTimeout(() => { const run = (i) => { if (i < steps.length) steps[i](() => run(i + 1)); }; run(0); }, 0);
process.removeAllListeners('warning');
`

func TestRev10eLookupChain(t *testing.T) {
	want := looptest.NodeLines(t, lookupJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		errOrNull := func(err error) string {
			if err == nil {
				return "null"
			}
			return errInfo(err)
		}
		addrOrNull := func(a string) string {
			if a == "" {
				return "null"
			}
			return a
		}
		all := func(as []nodedns.LookupAddress, err error) string {
			if err != nil {
				return "undefined"
			}
			return addrsJSON(as)
		}
		f := false
		steps := []func(next func()){
			func(next func()) {
				nodedns.Lookup(l, "localhost", nil, func(e error, a string, f int) { log("localhost", errOrNull(e), a, f); next() })
			},
			func(next func()) {
				nodedns.LookupAll(l, "localhost", &nodedns.LookupOptions{Family: 4}, func(e error, as []nodedns.LookupAddress) {
					log("localhost 4 all", errOrNull(e), all(as, e))
					next()
				})
			},
			func(next func()) {
				nodedns.LookupAll(l, "localhost", &nodedns.LookupOptions{Verbatim: &f}, func(e error, as []nodedns.LookupAddress) {
					log("localhost v4 first", errOrNull(e), all(as, e))
					next()
				})
			},
			func(next func()) {
				nodedns.LookupAll(l, "localhost", &nodedns.LookupOptions{Family: 6, Hints: uvloop.AIV4Mapped}, func(e error, as []nodedns.LookupAddress) {
					log("localhost 6 mapped", errOrNull(e), all(as, e))
					next()
				})
			},
			func(next func()) {
				nodedns.Lookup(l, "localhost", &nodedns.LookupOptions{Family: 6}, func(e error, a string, f int) {
					if e != nil {
						log("localhost 6", errOrNull(e), "undefined", "undefined")
					} else {
						log("localhost 6", "null", a, f)
					}
					next()
				})
			},
			func(next func()) {
				nodedns.Lookup(l, "::1", &nodedns.LookupOptions{Family: 4}, func(e error, a string, f int) { log("literal", errOrNull(e), a, f); next() })
			},
			func(next func()) {
				nodedns.LookupAll(l, "127.0.0.1", &nodedns.LookupOptions{Family: 6}, func(e error, as []nodedns.LookupAddress) {
					log("literal all", errOrNull(e), all(as, e))
					next()
				})
			},
			func(next func()) {
				nodedns.Lookup(l, "", &nodedns.LookupOptions{Family: 6}, func(e error, a string, f int) {
					log("empty", errOrNull(e), addrOrNull(a), f)
					next()
				})
			},
			func(next func()) {
				nodedns.LookupAll(l, "", nil, func(e error, as []nodedns.LookupAddress) { log("empty all", errOrNull(e), all(as, e)); next() })
			},
			func(next func()) {
				nodedns.LookupAll(l, "nosuch.invalid", nil, func(e error, as []nodedns.LookupAddress) {
					log("invalid", errInfo(e), "undefined")
					next()
				})
			},
			func(next func()) {
				nodedns.LookupService(l, "127.0.0.1", 80, func(e error, h, s string) { log("service", errOrNull(e), h, s); next() })
			},
			func(next func()) {
				nodedns.LookupService(l, "127.0.0.1", 0, func(e error, h, s string) { log("service 0", errOrNull(e), h, s); next() })
			},
			func(next func()) {
				nodedns.LookupService(l, "127.0.0.1", 65000, func(e error, h, s string) { log("service 65000", errOrNull(e), h, s); next() })
			},
		}
		for _, n := range []string{"127.1", "0x7f.1", "2130706433", "127.0.0.01"} {
			steps = append(steps, func(next func()) {
				nodedns.LookupAll(l, n, nil, func(e error, as []nodedns.LookupAddress) {
					log("inet_aton", n, errOrNull(e), all(as, e))
					next()
				})
			})
		}
		var run func(i int)
		run = func(i int) {
			if i < len(steps) {
				steps[i](func() { run(i + 1) })
			}
		}
		run(0)
	})
}

// dns.promises.lookup answers an address literal and an empty name with a promise settled
// already (PromiseResolve), not from a nextTick: its handlers run before a microtask queued
// after the call; a name under .invalid rejects with the callback form's error.
const promisesJS = `
const dns = require('dns');
const log = (...a) => console.log(a.join(' '));
const info = (e) => [e.code, e.errno, e.syscall, e.hostname, e.message].join(' ');
process.removeAllListeners('warning');
setTimeout(() => {
  dns.promises.lookup('127.0.0.1').then((r) => log('numeric', JSON.stringify(r)));
  dns.promises.lookup('', { family: 6 }).then((r) => log('empty', JSON.stringify(r)));
  dns.promises.lookup('::1', { all: true }).then((r) => log('numeric all', JSON.stringify(r)));
  dns.promises.lookup('', { all: true }).then((r) => log('empty all', JSON.stringify(r)));
  queueMicrotask(() => log('micro'));
  process.nextTick(() => log('tick'));
  dns.promises.lookup('nosuch.invalid').catch((e) => log('invalid', info(e)));
}, 0);
`

func TestRev10ePromisesLookupTurns(t *testing.T) {
	want := looptest.NodeLines(t, promisesJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		dp := nodedns.Promises(l)
		one := func(a nodedns.LookupAddress) string {
			if a.Address == "" {
				return fmt.Sprintf(`{"address":null,"family":%d}`, a.Family)
			}
			return fmt.Sprintf(`{"address":%q,"family":%d}`, a.Address, a.Family)
		}
		promise.Then(dp.Lookup("127.0.0.1", nil), func(a nodedns.LookupAddress) (any, error) { log("numeric", one(a)); return nil, nil }, nil)
		promise.Then(dp.Lookup("", &nodedns.LookupOptions{Family: 6}), func(a nodedns.LookupAddress) (any, error) { log("empty", one(a)); return nil, nil }, nil)
		promise.Then(dp.LookupAll("::1", nil), func(as []nodedns.LookupAddress) (any, error) { log("numeric all", addrsJSON(as)); return nil, nil }, nil)
		promise.Then(dp.LookupAll("", nil), func(as []nodedns.LookupAddress) (any, error) { log("empty all", addrsJSON(as)); return nil, nil }, nil)
		l.QueueMicrotask(func() { log("micro") })
		l.NextTick(func() { log("tick") })
		dp.Lookup("nosuch.invalid", nil).Catch(func(err error) (nodedns.LookupAddress, error) {
			log("invalid", errInfo(err))
			return nodedns.LookupAddress{}, nil
		})
	})
}

// An IPv6 literal with a zone ("fe80::1%lo") is an address to node's isIP, so dns.lookup
// answers it from a nextTick and dns.promises.lookup with a promise settled already, as any
// literal; uvgo sent it to the work pool, answering in a later poll phase (after the
// immediate, or before it: whichever came first).
const zoneJS = `
const dns = require('dns');
const log = (...a) => console.log(a.map(String).join(' '));
setTimeout(() => {
  dns.lookup('fe80::1%lo', (e, a, f) => log('zone', e, a, f));
  setImmediate(() => log('immediate'));
  process.nextTick(() => log('tick'));
  dns.promises.lookup('fe80::1%eth0').then((r) => log('p zone', JSON.stringify(r)));
  queueMicrotask(() => log('micro'));
}, 0);
`

func TestRev10eZoneLiteral(t *testing.T) {
	want := looptest.NodeLines(t, zoneJS)
	looptest.Scenario(t, want, func(l *uvloop.Loop, log func(...any)) {
		nodedns.Lookup(l, "fe80::1%lo", nil, func(e error, a string, f int) {
			if e != nil {
				log("zone", errInfo(e))
				return
			}
			log("zone", "null", a, f)
		})
		l.SetImmediate(func() { log("immediate") })
		l.NextTick(func() { log("tick") })
		promise.Then(nodedns.Promises(l).Lookup("fe80::1%eth0", nil), func(a nodedns.LookupAddress) (any, error) {
			log("p zone", fmt.Sprintf(`{"address":%q,"family":%d}`, a.Address, a.Family))
			return nil, nil
		}, nil)
		l.QueueMicrotask(func() { log("micro") })
	})
}
