// Package nodedns is Node.js's dns module for code ported to uvgo: Lookup (dns.lookup, with
// family, all and the result order), LookupService, the resolve family that Go's resolver
// serves (Resolve4, Resolve6, ResolveMx, ResolveTxt, ResolveSrv, ResolveNs, ResolveCname,
// Reverse), Resolver (dns.Resolver: its own servers and timeout, and cancel) and Promises
// (dns.promises; not its Resolver, nor the module's setServers). Lookups run on the loop's
// work pool through uvloop's GetAddrInfo, GetNameInfo and QueueLookup; callbacks run on the
// loop goroutine as Node's do: from a nextTick for an address literal or an empty name, from
// the poll phase otherwise.
//
//	nodedns.Lookup(loop, "localhost", nil, func(err error, address string, family int) {
//		fmt.Println(address, family) // 127.0.0.1 4
//	})
//
// Errors are *Error values with Node's fields: Code "ENOTFOUND" for a name that does not
// exist, Errno (-3008 for getaddrinfo's ENOTFOUND, 0 where Node has none), Syscall
// ("getaddrinfo", "getnameinfo", "queryA", ...) and Hostname, and Node's message
// ("getaddrinfo ENOTFOUND nosuch.invalid"). Names under .invalid fail without a query (RFC
// 6761). Everything in this package belongs to the loop goroutine.
package nodedns

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Error is a dns error as Node reports it.
type Error struct {
	Errno    int    // libuv's negative errno (-3008 for ENOTFOUND from getaddrinfo); 0 if Node sets none
	Code     string // "ENOTFOUND", "EAI_AGAIN", "ECANCELLED", "ERR_INVALID_ARG_VALUE", ...
	Syscall  string // "getaddrinfo", "getnameinfo", "queryA", ...; "" for argument errors
	Hostname string // the name (or address) looked up
	Message  string
	Err      error // the cause, or nil
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Is matches another *Error by Code, so that errors.Is(err, nodedns.ErrNotFound) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Err == nil && t.Code == e.Code
}

// ErrNotFound matches (errors.Is) every error with code ENOTFOUND.
var ErrNotFound = &Error{Code: "ENOTFOUND", Message: "not found"}

// libuv's UV_EAI_* values, Node's errno for getaddrinfo and getnameinfo failures.
var eaiErrno = map[uvloop.EAI]int{
	uvloop.EAIAddrFamily: -3000,
	uvloop.EAIAgain:      -3001,
	uvloop.EAIBadFlags:   -3002,
	uvloop.EAICanceled:   -3003,
	uvloop.EAIFail:       -3004,
	uvloop.EAIFamily:     -3005,
	uvloop.EAINoName:     -3008,
	uvloop.EAIService:    -3010,
}

// dnsException is Node's dnsException(err, syscall, hostname).
func dnsException(err error, syscall, hostname string) *Error {
	code, errno := "EAI_FAIL", -3004
	var eai uvloop.EAI
	if errors.As(err, &eai) {
		code, errno = eai.Code(), eaiErrno[eai]
		if eai == uvloop.EAINoName {
			code = "ENOTFOUND"
		}
	}
	msg := syscall + " " + code
	if hostname != "" {
		msg += " " + hostname
	}
	return &Error{Errno: errno, Code: code, Syscall: syscall, Hostname: hostname, Message: msg, Err: err}
}

func invalidArg(format string, args ...any) *Error {
	return &Error{Code: "ERR_INVALID_ARG_VALUE", Message: fmt.Sprintf(format, args...)}
}

// Result orders of Lookup (dns.setDefaultResultOrder).
const (
	OrderVerbatim  = "verbatim"  // the resolver's order (Node 20's default)
	OrderIPv4First = "ipv4first" // IPv4 addresses before IPv6 ones
	OrderIPv6First = "ipv6first" // IPv6 addresses before IPv4 ones
)

// LookupOptions are dns.lookup's options. The zero value (or nil) is Node's default.
type LookupOptions struct {
	Family int  // 0 (either), 4 or 6
	All    bool // LookupAll's: every address (Lookup ignores it)
	// Verbatim false puts IPv4 first, true keeps the resolver's order; nil is the default.
	Verbatim *bool
	// Order is "", OrderVerbatim, OrderIPv4First or OrderIPv6First; it wins over
	// Verbatim, as in Node.
	Order string
	// Hints are AIAddrConfig, AIV4Mapped and AIAll only (Node's dns.ADDRCONFIG, V4MAPPED,
	// ALL).
	Hints uvloop.AIFlags
}

// lookupHints are the hints dns.lookup accepts (Node's validateHints).
const lookupHints = uvloop.AIAddrConfig | uvloop.AIV4Mapped | uvloop.AIAll

// LookupAddress is one result of LookupAll.
type LookupAddress struct {
	Address string
	Family  int // 4 or 6
}

// Lookup is dns.lookup(hostname, options, callback): the first address of hostname as the
// system's resolver would give it (/etc/hosts, then DNS), and its family. An address
// literal is answered from a nextTick, as an empty hostname is (address "", family 4 or 6);
// a name from the poll phase after the lookup on the work pool. It returns an error with
// code ERR_INVALID_ARG_VALUE (and calls nothing) for hints other than AIAddrConfig,
// AIV4Mapped and AIAll, a family other than 0, 4 or 6, or an unknown order, checked in
// Node's order.
func Lookup(l *uvloop.Loop, hostname string, opts *LookupOptions, cb func(err error, address string, family int)) error {
	return lookup(l, hostname, opts, false, func(err error, addrs []LookupAddress) {
		if err != nil || len(addrs) == 0 {
			fam := 0
			if err == nil { // an empty hostname
				fam = 4
				if opts != nil && opts.Family == 6 {
					fam = 6
				}
			}
			cb(err, "", fam)
			return
		}
		cb(nil, addrs[0].Address, addrs[0].Family)
	})
}

// LookupAll is dns.lookup(hostname, {all: true}, callback): every address, in the order the
// options ask for. Its argument errors are Lookup's.
func LookupAll(l *uvloop.Loop, hostname string, opts *LookupOptions, cb func(err error, addrs []LookupAddress)) error {
	return lookup(l, hostname, opts, true, cb)
}

func lookup(l *uvloop.Loop, hostname string, opts *LookupOptions, all bool, cb func(error, []LookupAddress)) error {
	if cb == nil {
		return &Error{Code: "ERR_INVALID_ARG_TYPE", Message: `The "callback" argument must be of type function. Received undefined`}
	}
	o, order, err := lookupOptions(opts)
	if err != nil {
		return err
	}
	if res, ok := literal(hostname); ok {
		l.NextTick(func() { cb(nil, res) })
		return nil
	}
	hints := &uvloop.AddrInfoHints{SockType: uvloop.SockStream, Flags: o.Hints}
	switch o.Family {
	case 4:
		hints.Family = uvloop.AFInet
	case 6:
		hints.Family = uvloop.AFInet6
	}
	_, err = l.GetAddrInfo(hostname, "", hints, func(res []uvloop.AddrInfo, err error) {
		if err != nil {
			cb(dnsException(err, "getaddrinfo", hostname), nil)
			return
		}
		addrs := make([]LookupAddress, 0, len(res))
		for _, r := range res {
			a := r.Addr.Addr()
			fam := familyOf(a)
			if o.Family != 0 {
				fam = o.Family
			}
			addrs = append(addrs, LookupAddress{Address: a.String(), Family: fam})
		}
		sortByOrder(addrs, order)
		if !all {
			addrs = addrs[:1]
		}
		cb(nil, addrs)
	})
	if err != nil {
		l.NextTick(func() { cb(dnsException(err, "getaddrinfo", hostname), nil) })
	}
	return nil
}

// lookupOptions checks opts as Node's lookup does (hints, then family, then order) and
// returns them with the result order they ask for: Order if set, else Verbatim's, else
// DefaultResultOrder.
func lookupOptions(opts *LookupOptions) (LookupOptions, string, error) {
	var o LookupOptions
	if opts != nil {
		o = *opts
	}
	if o.Hints&^lookupHints != 0 {
		return o, "", invalidArg("The argument 'hints' is invalid. Received %d", o.Hints)
	}
	if o.Family != 0 && o.Family != 4 && o.Family != 6 {
		return o, "", invalidArg("The property 'options.family' must be one of: 0, 4, 6. Received %d", o.Family)
	}
	order := DefaultResultOrder
	if o.Verbatim != nil {
		order = OrderIPv4First
		if *o.Verbatim {
			order = OrderVerbatim
		}
	}
	switch o.Order {
	case "":
	case OrderVerbatim, OrderIPv4First, OrderIPv6First:
		order = o.Order
	default:
		return o, "", invalidArg("The property 'options.order' must be one of: 'verbatim', 'ipv4first', 'ipv6first'. Received '%s'", o.Order)
	}
	return o, order, nil
}

// literal answers a lookup that needs no resolver: an empty hostname (no addresses) or an
// address literal as Node's isIP takes it (itself, with its family, whatever family was
// asked for); an IPv6 one may have a zone of letters, digits, '-', '.' and ':'.
func literal(hostname string) ([]LookupAddress, bool) {
	if hostname == "" {
		return nil, true
	}
	if a, err := netip.ParseAddr(hostname); err == nil && isIPZone(a.Zone()) {
		return []LookupAddress{{Address: hostname, Family: familyOf(a)}}, true
	}
	return nil, false
}

// isIPZone reports whether zone is one that Node's isIPv6 accepts (or none).
func isIPZone(zone string) bool {
	for _, c := range zone {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}

// DefaultResultOrder is the order of Lookup's results when the options name none
// (dns.setDefaultResultOrder): OrderVerbatim, as in Node 20. Loop goroutine only.
var DefaultResultOrder = OrderVerbatim

func familyOf(a netip.Addr) int {
	if a.Is4() {
		return 4
	}
	return 6
}

// sortByOrder puts one family first, keeping the order within each (a stable partition).
func sortByOrder(addrs []LookupAddress, order string) {
	first := 0
	switch order {
	case OrderIPv4First:
		first = 4
	case OrderIPv6First:
		first = 6
	default:
		return
	}
	out := make([]LookupAddress, 0, len(addrs))
	for _, a := range addrs {
		if a.Family == first {
			out = append(out, a)
		}
	}
	for _, a := range addrs {
		if a.Family != first {
			out = append(out, a)
		}
	}
	copy(addrs, out)
}

// LookupService is dns.lookupService(address, port, callback): the host name of address and
// the service name of port (getnameinfo). An address that is not an IP address literal, or a
// port out of range, returns an ERR_INVALID_ARG_VALUE / ERR_SOCKET_BAD_PORT error at once.
func LookupService(l *uvloop.Loop, address string, port int, cb func(err error, hostname, service string)) error {
	a, err := netip.ParseAddr(address)
	if err != nil {
		return invalidArg("The argument 'address' is invalid. Received '%s'", address)
	}
	if port < 0 || port > 65535 {
		return &Error{Code: "ERR_SOCKET_BAD_PORT", Message: fmt.Sprintf("Port should be >= 0 and < 65536. Received type number (%d).", port)}
	}
	_, err = l.GetNameInfo(netip.AddrPortFrom(a, uint16(port)), uvloop.NINameReqd, func(host, service string, err error) {
		if err != nil {
			cb(dnsException(err, "getnameinfo", address), "", "")
			return
		}
		cb(nil, host, service)
	})
	if err != nil {
		l.NextTick(func() { cb(dnsException(err, "getnameinfo", address), "", "") })
	}
	return nil
}

// MxRecord is one answer of ResolveMx.
type MxRecord struct {
	Exchange string
	Priority int
}

// SrvRecord is one answer of ResolveSrv.
type SrvRecord struct {
	Name     string
	Port     int
	Priority int
	Weight   int
}

// queryError is the error of a resolve: Node's c-ares codes, which carry no errno.
func queryError(err error, call, hostname string) *Error {
	code := "ESERVFAIL"
	var de *net.DNSError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, errCancelled):
		code = "ECANCELLED"
	case errors.Is(err, context.DeadlineExceeded):
		code = "ETIMEOUT"
	case errors.Is(err, syscall.ECONNREFUSED):
		code = "ECONNREFUSED"
	case errors.As(err, &de) && de.IsNotFound:
		code = "ENOTFOUND"
	case errors.As(err, &de) && de.IsTimeout:
		code = "ETIMEOUT"
	case errors.Is(err, errNotFound):
		code = "ENOTFOUND"
	}
	return &Error{Code: code, Syscall: call, Hostname: hostname, Message: call + " " + code + " " + hostname, Err: err}
}

var errNotFound = errors.New("no such host")

// resolve runs fn as a lookup with r's settings (nil: Go's default resolver) and reports its
// outcome with Node's query error; r tracks it for Cancel.
func resolve[T any](l *uvloop.Loop, r *Resolver, call, name string, fn func(ctx context.Context, r *net.Resolver) (T, error), cb func(error, T)) {
	var v T
	var zero T
	invalid := isInvalidName(name)
	nr, timeout := net.DefaultResolver, time.Duration(0)
	var q *query
	if r != nil {
		nr, timeout = r.net, r.timeout
		q = r.track(func(err error) { cb(queryError(err, call, name), zero) })
	}
	req, err := l.QueueLookup(func(ctx context.Context) (err error) {
		if invalid {
			return errNotFound
		}
		if timeout > 0 {
			var stop context.CancelFunc
			ctx, stop = context.WithTimeout(ctx, timeout)
			defer stop()
		}
		v, err = fn(ctx, nr)
		return err
	}, func(err error) {
		if q != nil && !r.done(q) {
			return // cancelled: Cancel called back already
		}
		if err != nil {
			cb(queryError(err, call, name), zero)
			return
		}
		cb(nil, v)
	})
	if err != nil {
		if q != nil {
			r.done(q)
		}
		l.NextTick(func() { cb(queryError(err, call, name), zero) })
		return
	}
	if q != nil {
		q.req = req
	}
}

func isInvalidName(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "invalid" || strings.HasSuffix(h, ".invalid")
}

func ips(ctx context.Context, r *net.Resolver, network, host string) ([]string, error) {
	addrs, err := r.LookupNetIP(ctx, network, host)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = a.Unmap().String()
	}
	return out, nil
}

// Resolve4 is dns.resolve4: the IPv4 addresses of hostname.
func Resolve4(l *uvloop.Loop, hostname string, cb func(err error, addrs []string)) {
	resolve4(l, nil, hostname, cb)
}

// Resolve4 is Resolve4 on r.
func (r *Resolver) Resolve4(hostname string, cb func(err error, addrs []string)) {
	resolve4(r.l, r, hostname, cb)
}

func resolve4(l *uvloop.Loop, r *Resolver, hostname string, cb func(err error, addrs []string)) {
	resolve(l, r, "queryA", hostname, func(ctx context.Context, r *net.Resolver) ([]string, error) {
		return ips(ctx, r, "ip4", hostname)
	}, cb)
}

// Resolve6 is dns.resolve6: the IPv6 addresses of hostname.
func Resolve6(l *uvloop.Loop, hostname string, cb func(err error, addrs []string)) {
	resolve6(l, nil, hostname, cb)
}

// Resolve6 is Resolve6 on r.
func (r *Resolver) Resolve6(hostname string, cb func(err error, addrs []string)) {
	resolve6(r.l, r, hostname, cb)
}

func resolve6(l *uvloop.Loop, r *Resolver, hostname string, cb func(err error, addrs []string)) {
	resolve(l, r, "queryAaaa", hostname, func(ctx context.Context, r *net.Resolver) ([]string, error) {
		return ips(ctx, r, "ip6", hostname)
	}, cb)
}

// ResolveMx is dns.resolveMx: the mail exchangers of hostname.
func ResolveMx(l *uvloop.Loop, hostname string, cb func(err error, records []MxRecord)) {
	resolveMx(l, nil, hostname, cb)
}

// ResolveMx is ResolveMx on r.
func (r *Resolver) ResolveMx(hostname string, cb func(err error, records []MxRecord)) {
	resolveMx(r.l, r, hostname, cb)
}

func resolveMx(l *uvloop.Loop, r *Resolver, hostname string, cb func(err error, records []MxRecord)) {
	resolve(l, r, "queryMx", hostname, func(ctx context.Context, r *net.Resolver) ([]MxRecord, error) {
		mx, err := r.LookupMX(ctx, hostname)
		out := make([]MxRecord, len(mx))
		for i, m := range mx {
			out[i] = MxRecord{Exchange: strings.TrimSuffix(m.Host, "."), Priority: int(m.Pref)}
		}
		return out, err
	}, cb)
}

// ResolveTxt is dns.resolveTxt: the text records of hostname, each as its chunks (Go's
// resolver joins a record's strings, so each record is one chunk).
func ResolveTxt(l *uvloop.Loop, hostname string, cb func(err error, records [][]string)) {
	resolveTxt(l, nil, hostname, cb)
}

// ResolveTxt is ResolveTxt on r.
func (r *Resolver) ResolveTxt(hostname string, cb func(err error, records [][]string)) {
	resolveTxt(r.l, r, hostname, cb)
}

func resolveTxt(l *uvloop.Loop, r *Resolver, hostname string, cb func(err error, records [][]string)) {
	resolve(l, r, "queryTxt", hostname, func(ctx context.Context, r *net.Resolver) ([][]string, error) {
		txt, err := r.LookupTXT(ctx, hostname)
		out := make([][]string, len(txt))
		for i, t := range txt {
			out[i] = []string{t}
		}
		return out, err
	}, cb)
}

// ResolveSrv is dns.resolveSrv: the service records of hostname (a full name such as
// "_http._tcp.example.com").
func ResolveSrv(l *uvloop.Loop, hostname string, cb func(err error, records []SrvRecord)) {
	resolveSrv(l, nil, hostname, cb)
}

// ResolveSrv is ResolveSrv on r.
func (r *Resolver) ResolveSrv(hostname string, cb func(err error, records []SrvRecord)) {
	resolveSrv(r.l, r, hostname, cb)
}

func resolveSrv(l *uvloop.Loop, r *Resolver, hostname string, cb func(err error, records []SrvRecord)) {
	resolve(l, r, "querySrv", hostname, func(ctx context.Context, r *net.Resolver) ([]SrvRecord, error) {
		_, srv, err := r.LookupSRV(ctx, "", "", hostname)
		out := make([]SrvRecord, len(srv))
		for i, s := range srv {
			out[i] = SrvRecord{Name: strings.TrimSuffix(s.Target, "."), Port: int(s.Port), Priority: int(s.Priority), Weight: int(s.Weight)}
		}
		return out, err
	}, cb)
}

// ResolveNs is dns.resolveNs: the name servers of hostname.
func ResolveNs(l *uvloop.Loop, hostname string, cb func(err error, names []string)) {
	resolveNs(l, nil, hostname, cb)
}

// ResolveNs is ResolveNs on r.
func (r *Resolver) ResolveNs(hostname string, cb func(err error, names []string)) {
	resolveNs(r.l, r, hostname, cb)
}

func resolveNs(l *uvloop.Loop, r *Resolver, hostname string, cb func(err error, names []string)) {
	resolve(l, r, "queryNs", hostname, func(ctx context.Context, r *net.Resolver) ([]string, error) {
		ns, err := r.LookupNS(ctx, hostname)
		out := make([]string, len(ns))
		for i, n := range ns {
			out[i] = strings.TrimSuffix(n.Host, ".")
		}
		return out, err
	}, cb)
}

// ResolveCname is dns.resolveCname: the canonical name of hostname.
func ResolveCname(l *uvloop.Loop, hostname string, cb func(err error, names []string)) {
	resolveCname(l, nil, hostname, cb)
}

// ResolveCname is ResolveCname on r.
func (r *Resolver) ResolveCname(hostname string, cb func(err error, names []string)) {
	resolveCname(r.l, r, hostname, cb)
}

func resolveCname(l *uvloop.Loop, r *Resolver, hostname string, cb func(err error, names []string)) {
	resolve(l, r, "queryCname", hostname, func(ctx context.Context, r *net.Resolver) ([]string, error) {
		c, err := r.LookupCNAME(ctx, hostname)
		if err != nil {
			return nil, err
		}
		return []string{strings.TrimSuffix(c, ".")}, nil
	}, cb)
}

// Reverse is dns.reverse: the host names of ip. An ip that is not an address literal returns
// an EINVAL error at once (errno -22 on Linux, as Node's).
func Reverse(l *uvloop.Loop, ip string, cb func(err error, hostnames []string)) error {
	return reverse(l, nil, ip, cb)
}

// Reverse is Reverse on r.
func (r *Resolver) Reverse(ip string, cb func(err error, hostnames []string)) error {
	return reverse(r.l, r, ip, cb)
}

func reverse(l *uvloop.Loop, r *Resolver, ip string, cb func(err error, hostnames []string)) error {
	if _, err := netip.ParseAddr(ip); err != nil {
		return &Error{Errno: -int(syscall.EINVAL), Code: "EINVAL", Syscall: "getHostByAddr", Hostname: ip,
			Message: "getHostByAddr EINVAL " + ip, Err: syscall.EINVAL}
	}
	resolve(l, r, "getHostByAddr", ip, func(ctx context.Context, r *net.Resolver) ([]string, error) {
		names, err := r.LookupAddr(ctx, ip)
		for i, n := range names {
			names[i] = strings.TrimSuffix(n, ".")
		}
		return names, err
	}, cb)
	return nil
}
