package nodedns

import (
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// PromisesAPI is dns.promises: the same lookups, settling a promise instead of calling back.
// A lookup that fails rejects with the *Error the callback form would get; bad arguments
// reject too (where Node's dns.promises.lookup throws them). Lookup and LookupAll answer an
// empty name or an address literal with a promise settled already, as Node's do
// (PromiseResolve, not a nextTick).
type PromisesAPI struct{ l *uvloop.Loop }

// Promises returns dns.promises for l.
func Promises(l *uvloop.Loop) PromisesAPI { return PromisesAPI{l} }

// settle returns a promise and the callback that settles it.
func settle[T any](l *uvloop.Loop) (*promise.Promise[T], func(error, T)) {
	p, r := promise.WithResolvers[T](l)
	return p, func(err error, v T) {
		if err != nil {
			r.Reject(err)
			return
		}
		r.Resolve(v)
	}
}

// Lookup is dns.promises.lookup(hostname, options): the first address.
func (p PromisesAPI) Lookup(hostname string, opts *LookupOptions) *promise.Promise[LookupAddress] {
	if o, _, err := lookupOptions(opts); err == nil {
		if res, ok := literal(hostname); ok {
			if len(res) == 0 {
				fam := 4
				if o.Family == 6 {
					fam = 6
				}
				return promise.Resolve(p.l, LookupAddress{Family: fam})
			}
			return promise.Resolve(p.l, res[0])
		}
	}
	pr, done := settle[LookupAddress](p.l)
	if err := Lookup(p.l, hostname, opts, func(err error, address string, family int) {
		done(err, LookupAddress{Address: address, Family: family})
	}); err != nil {
		done(err, LookupAddress{})
	}
	return pr
}

// LookupAll is dns.promises.lookup(hostname, {all: true}).
func (p PromisesAPI) LookupAll(hostname string, opts *LookupOptions) *promise.Promise[[]LookupAddress] {
	if _, _, err := lookupOptions(opts); err == nil {
		if res, ok := literal(hostname); ok {
			return promise.Resolve(p.l, res)
		}
	}
	pr, done := settle[[]LookupAddress](p.l)
	if err := LookupAll(p.l, hostname, opts, done); err != nil {
		done(err, nil)
	}
	return pr
}

// ServiceName is what dns.promises.lookupService resolves to.
type ServiceName struct{ Hostname, Service string }

// LookupService is dns.promises.lookupService(address, port).
func (p PromisesAPI) LookupService(address string, port int) *promise.Promise[ServiceName] {
	pr, done := settle[ServiceName](p.l)
	if err := LookupService(p.l, address, port, func(err error, h, s string) { done(err, ServiceName{h, s}) }); err != nil {
		done(err, ServiceName{})
	}
	return pr
}

// Resolve4 is dns.promises.resolve4.
func (p PromisesAPI) Resolve4(hostname string) *promise.Promise[[]string] {
	pr, done := settle[[]string](p.l)
	Resolve4(p.l, hostname, done)
	return pr
}

// Resolve6 is dns.promises.resolve6.
func (p PromisesAPI) Resolve6(hostname string) *promise.Promise[[]string] {
	pr, done := settle[[]string](p.l)
	Resolve6(p.l, hostname, done)
	return pr
}

// ResolveMx is dns.promises.resolveMx.
func (p PromisesAPI) ResolveMx(hostname string) *promise.Promise[[]MxRecord] {
	pr, done := settle[[]MxRecord](p.l)
	ResolveMx(p.l, hostname, done)
	return pr
}

// ResolveTxt is dns.promises.resolveTxt.
func (p PromisesAPI) ResolveTxt(hostname string) *promise.Promise[[][]string] {
	pr, done := settle[[][]string](p.l)
	ResolveTxt(p.l, hostname, done)
	return pr
}

// ResolveSrv is dns.promises.resolveSrv.
func (p PromisesAPI) ResolveSrv(hostname string) *promise.Promise[[]SrvRecord] {
	pr, done := settle[[]SrvRecord](p.l)
	ResolveSrv(p.l, hostname, done)
	return pr
}

// ResolveNs is dns.promises.resolveNs.
func (p PromisesAPI) ResolveNs(hostname string) *promise.Promise[[]string] {
	pr, done := settle[[]string](p.l)
	ResolveNs(p.l, hostname, done)
	return pr
}

// ResolveCname is dns.promises.resolveCname.
func (p PromisesAPI) ResolveCname(hostname string) *promise.Promise[[]string] {
	pr, done := settle[[]string](p.l)
	ResolveCname(p.l, hostname, done)
	return pr
}

// Reverse is dns.promises.reverse.
func (p PromisesAPI) Reverse(ip string) *promise.Promise[[]string] {
	pr, done := settle[[]string](p.l)
	if err := Reverse(p.l, ip, done); err != nil {
		done(err, nil)
	}
	return pr
}
