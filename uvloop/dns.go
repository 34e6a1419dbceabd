package uvloop

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// This file is libuv's getaddrinfo.c and getnameinfo.c on Go's resolver: a lookup runs on
// the work pool through a net.Resolver with a context (so that Cancel can stop one that
// runs), and its callback runs on the loop in the poll phase. Lookups are slow work: as
// libuv keeps slow I/O to half its threads, at most half the pool (rounded up) looks names
// up at once, and the rest wait in the loop's queue, so that a stalled name server cannot
// starve file and user work.

// EAI is a getaddrinfo error code (libuv's UV_EAI_*). It is an error; the errors of
// GetAddrInfo and GetNameInfo wrap one, so errors.Is(err, uvloop.EAINoName) works.
type EAI int

// The getaddrinfo error codes.
const (
	EAINoName     EAI = iota + 1 // the name or service is not known (EAI_NONAME; Node's ENOTFOUND)
	EAIAgain                     // a temporary failure: try again (EAI_AGAIN)
	EAIFail                      // a permanent failure of the name server (EAI_FAIL)
	EAICanceled                  // the request was canceled (EAI_CANCELED)
	EAIFamily                    // the address family is not supported (EAI_FAMILY)
	EAIService                   // the service is not known for the socket type (EAI_SERVICE)
	EAIBadFlags                  // bad flags (EAI_BADFLAGS)
	EAIAddrFamily                // the host has no address of the family asked for (EAI_ADDRFAMILY)
)

var eaiNames = [...]struct{ code, msg string }{
	{"EAI_UNKNOWN", "unknown error"},
	{"EAI_NONAME", "unknown node or service"},
	{"EAI_AGAIN", "temporary failure"},
	{"EAI_FAIL", "permanent failure"},
	{"EAI_CANCELED", "request canceled"},
	{"EAI_FAMILY", "ai_family not supported"},
	{"EAI_SERVICE", "service not available for socket type"},
	{"EAI_BADFLAGS", "bad ai_flags value"},
	{"EAI_ADDRFAMILY", "address family not supported"},
}

func (e EAI) name() int {
	if e > 0 && int(e) < len(eaiNames) {
		return int(e)
	}
	return 0
}

// Code is the C name of the error: "EAI_NONAME", ...
func (e EAI) Code() string { return eaiNames[e.name()].code }

// Error is libuv's uv_strerror text: "unknown node or service", ...
func (e EAI) Error() string { return eaiNames[e.name()].msg }

// DNSError is the error of a lookup: the operation ("getaddrinfo", "getnameinfo"), what was
// looked up, the code, and the resolver's own error if there was one.
type DNSError struct {
	Op   string
	Name string // the host (getaddrinfo) or the address (getnameinfo)
	Code EAI
	Err  error // the resolver's error (a *net.DNSError, say), or nil
}

func (e *DNSError) Error() string { return e.Op + " " + e.Code.Code() + " " + e.Name }

// Unwrap returns the code and the resolver's error.
func (e *DNSError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Code}
	}
	return []error{e.Code, e.Err}
}

// AIFlags are GetAddrInfo's hints flags (AI_*).
type AIFlags uint16

// The hints flags.
const (
	AIPassive     AIFlags = 1 << iota // no node: the wildcard address (for bind), not loopback
	AICanonName                       // fill in the first result's CanonName
	AINumericHost                     // node must be an address literal: no lookup
	AINumericServ                     // service must be a port number
	AIV4Mapped                        // with family IPv6 and no IPv6 address: IPv4-mapped ones
	AIAll                             // with AIV4Mapped: IPv6 and IPv4-mapped addresses
	AIAddrConfig                      // only families the host has a non-loopback address of
)

// The address families and socket types of hints and results (the system's values).
const (
	AFUnspec    = 0
	AFInet      = syscall.AF_INET
	AFInet6     = syscall.AF_INET6
	SockStream  = syscall.SOCK_STREAM
	SockDgram   = syscall.SOCK_DGRAM
	SockRaw     = syscall.SOCK_RAW
	ProtoTCP    = syscall.IPPROTO_TCP
	ProtoUDP    = syscall.IPPROTO_UDP
	sockAnyType = 0
)

// AddrInfoHints narrows a lookup, as getaddrinfo's hints do. The zero value (or nil) asks for
// every family and socket type.
type AddrInfoHints struct {
	Family   int // AFUnspec, AFInet or AFInet6
	SockType int // 0, SockStream, SockDgram or SockRaw
	Protocol int // 0, ProtoTCP or ProtoUDP
	Flags    AIFlags
}

// AddrInfo is one result of GetAddrInfo (struct addrinfo).
type AddrInfo struct {
	Family    int // AFInet or AFInet6
	SockType  int
	Protocol  int
	Addr      netip.AddrPort
	CanonName string // the first result's, with AICanonName
}

// LookupReq is a lookup in flight: GetAddrInfo's, GetNameInfo's or QueueLookup's
// (uv_getaddrinfo_t, uv_getnameinfo_t). Loop goroutine only.
type LookupReq struct {
	loop     *Loop
	work     *Work // nil while waiting for a slot
	ctx      context.Context
	cancel   context.CancelFunc
	fn       func(ctx context.Context) error // runs on a worker
	err      error                           // set by the worker, read by the loop after
	canceled bool                            // Cancel was called
	ran      bool                            // fn was called; set by the worker, read by the loop after
	after    func(err error)                 // nil once called
}

// dnsQueue is the loop's side of the lookups: how many hold a slot of the pool, and those
// waiting for one. Loop goroutine only.
type dnsQueue struct {
	running int
	waiting []*LookupReq
}

// slowSlots is how many lookups may use the pool at once: half of it, rounded up (libuv's
// slow I/O share).
func (l *Loop) slowSlots() int { return (l.work.size + 1) / 2 }

// resolver is the net.Resolver lookups use.
var resolver = net.DefaultResolver

// GetAddrInfo looks node and service up on the work pool (uv_getaddrinfo) and calls cb on
// the loop goroutine in the poll phase with the results, in the resolver's order, or with
// a *DNSError that wraps an EAI code (EAINoName for a name that does not exist). node may be
// a host name or an address literal, and "" for the loopback address (the wildcard one with
// AIPassive); service a port number, a service name ("http") or "". Names under .invalid fail
// with EAINoName without a query, as RFC 6761 asks. hints may be nil.
//
// The lookup in flight keeps the loop alive and makes Close fail with ErrBusy until cb has
// run. It returns ErrNilCallback for a nil cb, ErrClosed after Close, an error wrapping
// syscall.EINVAL if both node and service are empty (as libuv), and a *DNSError wrapping
// EAIFamily for an unknown family.
func (l *Loop) GetAddrInfo(node, service string, hints *AddrInfoHints, cb func(res []AddrInfo, err error)) (*LookupReq, error) {
	if cb == nil {
		return nil, ErrNilCallback
	}
	if l.closed {
		return nil, ErrClosed
	}
	var h AddrInfoHints
	if hints != nil {
		h = *hints
	}
	if node == "" && service == "" {
		return nil, os.NewSyscallError("getaddrinfo", syscall.EINVAL)
	}
	if h.Family != AFUnspec && h.Family != AFInet && h.Family != AFInet6 {
		return nil, &DNSError{Op: "getaddrinfo", Name: node, Code: EAIFamily}
	}
	var res []AddrInfo
	return l.QueueLookup(func(ctx context.Context) (err error) {
		res, err = getaddrinfo(ctx, node, service, &h)
		return err
	}, func(err error) {
		if err != nil {
			if errors.Is(err, syscall.ECANCELED) {
				err = &DNSError{Op: "getaddrinfo", Name: node, Code: EAICanceled}
			}
			res = nil
		}
		cb(res, err)
	})
}

// GetAddrInfoSync is GetAddrInfo without a loop: it looks node and service up on the calling
// goroutine and returns the results (uv_getaddrinfo without a callback). Safe from any
// goroutine.
func GetAddrInfoSync(node, service string, hints *AddrInfoHints) ([]AddrInfo, error) {
	var h AddrInfoHints
	if hints != nil {
		h = *hints
	}
	if node == "" && service == "" {
		return nil, os.NewSyscallError("getaddrinfo", syscall.EINVAL)
	}
	return getaddrinfo(context.Background(), node, service, &h)
}

// QueueLookup runs fn on the work pool as a lookup, then after on the loop goroutine in the
// poll phase, as QueueWork does, with two differences: lookups may hold only half the pool
// (rounded up) at once, those beyond wait in a queue of the loop, and fn gets a context that
// Cancel cancels. after gets fn's error, or one wrapping syscall.ECANCELED if the lookup was
// canceled. Use it for the lookups GetAddrInfo does not cover (net.Resolver's LookupMX,
// LookupTXT, ...). Same contract as QueueWork otherwise.
func (l *Loop) QueueLookup(fn func(ctx context.Context) error, after func(err error)) (*LookupReq, error) {
	if fn == nil || after == nil {
		return nil, ErrNilCallback
	}
	if l.closed {
		return nil, ErrClosed
	}
	r := &LookupReq{loop: l, fn: fn, after: after}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	l.reqStart(ReqGetAddrInfo) // counted while waiting too; QueueWork counts it again once it has a slot
	if l.dns.running >= l.slowSlots() {
		l.dns.waiting = append(l.dns.waiting, r)
	} else {
		r.submit()
	}
	return r, nil
}

// errLookupCanceled is what a canceled lookup's after gets.
var errLookupCanceled error = os.NewSyscallError("getaddrinfo", syscall.ECANCELED)

// Cancel cancels the lookup (uv_cancel): its callback runs in a later poll phase with an
// error wrapping EAICanceled (GetAddrInfo, GetNameInfo) or syscall.ECANCELED (QueueLookup).
// A lookup already running is stopped through its context (the resolver gives up at its next
// step); one that finished meanwhile reports its outcome. It returns ErrBusy once the
// callback has run.
func (r *LookupReq) Cancel() error {
	if r.after == nil {
		return errorf(ErrBusy, "lookup already completed")
	}
	r.canceled = true
	r.cancel()
	if r.work == nil { // waiting for a slot: it goes now, to be skipped by the worker
		q := &r.loop.dns
		for i, w := range q.waiting {
			if w == r {
				q.waiting = append(q.waiting[:i], q.waiting[i+1:]...)
				break
			}
		}
		r.submit()
		return nil
	}
	r.work.Cancel() // queued: never runs; running: the context stops it
	return nil
}

func (r *LookupReq) submit() {
	l := r.loop
	l.dns.running++
	w, err := l.QueueWork(func() {
		if r.ctx.Err() == nil {
			r.ran = true
			r.err = r.fn(r.ctx)
		}
	}, r.finish)
	if err != nil { // cannot happen: the loop is not closed while the request counts
		panic(err)
	}
	r.work = w
}

// finish is the request's after callback: the slot goes to the next lookup waiting, then the
// request's own callback runs.
func (r *LookupReq) finish(err error) {
	l := r.loop
	l.reqDone(ReqGetAddrInfo)
	l.dns.running--
	for len(l.dns.waiting) > 0 && l.dns.running < l.slowSlots() {
		next := l.dns.waiting[0]
		l.dns.waiting[0] = nil
		l.dns.waiting = l.dns.waiting[1:]
		next.submit()
	}
	switch {
	case err != nil: // taken off the queue (ECANCELED), or a panic in fn
		if errors.Is(err, syscall.ECANCELED) {
			err = errLookupCanceled
		}
	case !r.ran: // skipped by the worker
		err = errLookupCanceled
	case r.canceled && errors.Is(r.err, context.Canceled):
		err = errLookupCanceled
	default:
		err = r.err
	}
	r.cancel()
	after := r.after
	r.after = nil
	after(err)
}

// inetAton parses s as glibc's getaddrinfo recognizes a numeric IPv4 host (inet_aton, with
// nothing after the address): one to four numbers separated by dots, each decimal, octal
// (a leading 0) or hexadecimal (0x), the last one filling the bytes the others leave
// ("127.1", "0x7f.1", "2130706433" and "127.0.0.01" are 127.0.0.1). It returns the zero
// Addr when s is not one.
func inetAton(s string) netip.Addr {
	parts := strings.SplitN(s, ".", 5)
	if len(parts) > 4 {
		return netip.Addr{}
	}
	var ip uint32
	for i, p := range parts {
		base := 10
		switch {
		case len(p) > 1 && (p[1] == 'x' || p[1] == 'X') && p[0] == '0':
			base, p = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		bits := 8 // each part but the last is a byte; the last has the rest
		if i == len(parts)-1 {
			bits = 8 * (5 - len(parts))
		}
		v, err := strconv.ParseUint(p, base, bits)
		if err != nil {
			return netip.Addr{}
		}
		if i < len(parts)-1 {
			ip |= uint32(v) << (24 - 8*i)
		} else {
			ip |= uint32(v)
		}
	}
	return netip.AddrFrom4([4]byte{byte(ip >> 24), byte(ip >> 16), byte(ip >> 8), byte(ip)})
}

// isInvalidName reports whether host is in the .invalid domain (RFC 6761 6.4).
func isInvalidName(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "invalid" || strings.HasSuffix(h, ".invalid")
}

// getaddrinfo is the lookup itself; it may block.
func getaddrinfo(ctx context.Context, node, service string, h *AddrInfoHints) ([]AddrInfo, error) {
	fail := func(code EAI, err error) ([]AddrInfo, error) {
		return nil, &DNSError{Op: "getaddrinfo", Name: node, Code: code, Err: err}
	}
	var port uint16
	if service != "" {
		if n, err := strconv.ParseUint(service, 10, 16); err == nil {
			port = uint16(n)
		} else if h.Flags&AINumericServ != 0 {
			return fail(EAINoName, nil)
		} else {
			network := "tcp"
			if h.SockType == SockDgram {
				network = "udp"
			}
			p, err := resolver.LookupPort(ctx, network, service)
			if err != nil {
				return fail(EAIService, err)
			}
			port = uint16(p)
		}
	}
	var addrs []netip.Addr
	canon := node
	a, err := netip.ParseAddr(node)
	if err != nil && inetAton(node).IsValid() {
		a, err = inetAton(node), nil // glibc's numeric forms that netip does not take: "127.1"
	}
	switch {
	case node == "":
		if h.Flags&AIPassive != 0 {
			addrs = []netip.Addr{netip.IPv6Unspecified(), netip.IPv4Unspecified()}
		} else {
			addrs = []netip.Addr{netip.IPv6Loopback(), netip.AddrFrom4([4]byte{127, 0, 0, 1})}
		}
	case err == nil:
		addrs = []netip.Addr{a}
	case h.Flags&AINumericHost != 0, isInvalidName(node):
		return fail(EAINoName, nil)
	default:
		network := "ip"
		switch h.Family {
		case AFInet:
			network = "ip4"
		case AFInet6:
			if h.Flags&AIV4Mapped == 0 {
				network = "ip6"
			}
		}
		got, err := resolver.LookupNetIP(ctx, network, node)
		if err != nil {
			return fail(eaiOf(ctx, err), err)
		}
		addrs = got
		if h.Flags&AICanonName != 0 {
			if c, err := resolver.LookupCNAME(ctx, node); err == nil && c != "" {
				canon = strings.TrimSuffix(c, ".")
			}
		}
	}
	res := make([]AddrInfo, 0, len(addrs))
	types := [...]struct{ typ, proto int }{{SockStream, ProtoTCP}, {SockDgram, ProtoUDP}, {SockRaw, 0}}
	var has6 bool
	for _, a := range addrs {
		has6 = has6 || a.Unmap().Is6()
	}
	for _, a := range addrs {
		a = a.Unmap()
		fam := AFInet
		if a.Is6() {
			fam = AFInet6
		}
		if h.Family == AFInet6 && fam == AFInet {
			if h.Flags&AIV4Mapped == 0 || has6 && h.Flags&AIAll == 0 {
				continue
			}
			a, fam = netip.AddrFrom16(a.As16()), AFInet6
		}
		if h.Family != AFUnspec && fam != h.Family {
			continue
		}
		for _, t := range types {
			if h.SockType != sockAnyType && t.typ != h.SockType || h.Protocol != 0 && t.proto != h.Protocol {
				continue
			}
			res = append(res, AddrInfo{Family: fam, SockType: t.typ, Protocol: t.proto, Addr: netip.AddrPortFrom(a, port)})
		}
	}
	if len(res) == 0 {
		return fail(EAIAddrFamily, nil)
	}
	if h.Flags&AICanonName != 0 {
		res[0].CanonName = canon
	}
	return res, nil
}

// eaiOf classifies a resolver error.
func eaiOf(ctx context.Context, err error) EAI {
	if ctx.Err() != nil {
		return EAICanceled
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		switch {
		case de.IsNotFound:
			return EAINoName
		case de.IsTimeout, de.IsTemporary:
			return EAIAgain
		}
	}
	// "no suitable address found": the name has no address of the family asked for, which
	// glibc's getaddrinfo reports as EAI_NONAME (Node's ENOTFOUND).
	var ae *net.AddrError
	if errors.As(err, &ae) {
		return EAINoName
	}
	return EAIFail
}

// NIFlags are GetNameInfo's flags (NI_*).
type NIFlags uint8

// The flags of GetNameInfo.
const (
	NINumericHost NIFlags = 1 << iota // the address as text, no lookup
	NINumericServ                     // the port as a number
	NINameReqd                        // fail with EAINoName if the address has no name
	NIDgram                           // the service of a datagram socket
)

// GetNameInfo looks the name of addr's address and the service of its port up on the work
// pool (uv_getnameinfo) and calls cb on the loop goroutine in the poll phase. An address
// without a name gives its text (unless NINameReqd), a port without a service its number.
// As GetAddrInfo, it keeps the loop alive, counts as a lookup, and may be canceled.
func (l *Loop) GetNameInfo(addr netip.AddrPort, flags NIFlags, cb func(host, service string, err error)) (*LookupReq, error) {
	if cb == nil {
		return nil, ErrNilCallback
	}
	if l.closed {
		return nil, ErrClosed
	}
	if !addr.Addr().IsValid() {
		return nil, &DNSError{Op: "getnameinfo", Code: EAIFamily}
	}
	a := addr.Addr().Unmap()
	var host, service string
	return l.QueueLookup(func(ctx context.Context) error {
		host = a.String()
		if flags&NINumericHost == 0 {
			names, err := resolver.LookupAddr(ctx, a.String())
			switch {
			case err == nil && len(names) > 0:
				host = strings.TrimSuffix(names[0], ".")
			case flags&NINameReqd != 0:
				code := EAINoName
				if err != nil {
					code = eaiOf(ctx, err)
				}
				return &DNSError{Op: "getnameinfo", Name: a.String(), Code: code, Err: err}
			}
		}
		service = strconv.Itoa(int(addr.Port()))
		if flags&NINumericServ == 0 {
			proto := "tcp"
			if flags&NIDgram != 0 {
				proto = "udp"
			}
			if name := serviceName(int(addr.Port()), proto); name != "" {
				service = name
			}
		}
		return nil
	}, func(err error) {
		if err != nil {
			if errors.Is(err, syscall.ECANCELED) {
				err = &DNSError{Op: "getnameinfo", Name: a.String(), Code: EAICanceled}
			}
			host, service = "", ""
		}
		cb(host, service, err)
	})
}

// services is /etc/services by port and protocol, read once (getservbyport).
var services struct {
	once  sync.Once
	names map[string]string // "22/tcp" -> "ssh"
}

func serviceName(port int, proto string) string {
	services.once.Do(func() {
		services.names = map[string]string{}
		f, err := os.Open("/etc/services")
		if err != nil {
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line, _, _ := strings.Cut(sc.Text(), "#")
			fields := strings.Fields(line)
			if len(fields) < 2 {
				continue
			}
			if _, dup := services.names[fields[1]]; !dup {
				services.names[fields[1]] = fields[0]
			}
		}
	})
	return services.names[strconv.Itoa(port)+"/"+proto]
}
