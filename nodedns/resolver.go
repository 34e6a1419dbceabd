package nodedns

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Resolver is dns.Resolver: the resolve family with servers and a timeout of its own, and
// Cancel. Its queries are Go resolver queries on the loop's work pool, as the package's
// functions are. Loop goroutine only.
type Resolver struct {
	l         *uvloop.Loop
	net       *net.Resolver
	servers   atomic.Pointer[[]netip.AddrPort] // SetServers's; nil: the system's (read by workers)
	next      atomic.Uint32                    // the server the next dial goes to
	timeout   time.Duration                    // per query, all tries; 0: the system resolver's
	pending   []*query                         // queries not yet called back, in the order made
	cancelled []*query                         // cancelled, to call back from the next check phase
	check     *uvloop.Check                    // runs the cancelled callbacks
}

// ResolverOptions are dns.Resolver's options: Timeout in milliseconds for each try (0 or
// negative: the system's default) and Tries (default 4, c-ares's), which together bound a
// query's time.
type ResolverOptions struct {
	Timeout int
	Tries   int
}

// query is one resolve of a Resolver.
type query struct {
	req  *uvloop.LookupReq
	fail func(err error) // calls back with err
}

// errCancelled is what a cancelled query's callback gets, as ECANCELLED.
var errCancelled = errors.New("query cancelled")

// NewResolver is new dns.Resolver([options]) on l.
func NewResolver(l *uvloop.Loop, opts *ResolverOptions) *Resolver {
	r := &Resolver{l: l}
	if opts != nil && opts.Timeout > 0 {
		tries := opts.Tries
		if tries <= 0 {
			tries = 4
		}
		r.timeout = time.Duration(opts.Timeout) * time.Duration(tries) * time.Millisecond
	}
	r.net = &net.Resolver{PreferGo: true, Dial: r.dial}
	return r
}

// dial sends the resolver's queries to its servers (in turn, from one query's retry to the
// next), or where the system resolver would.
func (r *Resolver) dial(ctx context.Context, network, address string) (net.Conn, error) {
	if servers := r.serverList(); len(servers) > 0 {
		address = servers[int(r.next.Add(1)-1)%len(servers)].String()
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, network, address)
	if err == nil {
		// Go's resolver stops reading only at its own timeout (5 s per try): a cancelled or
		// timed-out query closes its connection, so that nothing lingers on the workers.
		context.AfterFunc(ctx, func() { c.Close() })
	}
	return c, err
}

// GetServers is resolver.getServers(): "ip" for port 53, "ip:port" or "[ip6]:port"
// otherwise; the system's (resolv.conf's nameserver lines) until SetServers.
func (r *Resolver) GetServers() []string {
	servers := r.serverList()
	if servers == nil {
		servers = systemServers()
	}
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = formatServer(s)
	}
	return out
}

// SetServers is resolver.setServers(servers): each an IPv4 or IPv6 address, with a port
// ("1.2.3.4:5353", "[::1]:5353") or without (53). An invalid one fails with
// ERR_INVALID_IP_ADDRESS and changes nothing. Queries already made keep their servers.
func (r *Resolver) SetServers(servers []string) error {
	list := make([]netip.AddrPort, 0, len(servers))
	for _, s := range servers {
		ap, ok := parseServer(s)
		if !ok {
			return &Error{Code: "ERR_INVALID_IP_ADDRESS", Message: "Invalid IP address: " + s}
		}
		list = append(list, ap)
	}
	r.setServerList(list)
	return nil
}

// Cancel is resolver.cancel(): every query of r not yet called back is, with ECANCELLED, in
// the order they were made, from the next check phase before its immediates (where Node
// runs them); the lookups themselves stop through their context.
func (r *Resolver) Cancel() {
	if len(r.pending) == 0 {
		return
	}
	for _, q := range r.pending {
		if q.req != nil {
			q.req.Cancel()
		}
	}
	r.cancelled = append(r.cancelled, r.pending...)
	r.pending = nil
	if r.check == nil {
		r.check = r.l.NewCheck(func(c *uvloop.Check) {
			list := r.cancelled
			r.cancelled, r.check = nil, nil
			c.Close(nil) // a handle of its own per cancel: the loop's Close finds none open
			for _, q := range list {
				q.fail(errCancelled)
			}
		})
	}
	r.check.Start()
}

// track records a query of r; fail calls it back with an error.
func (r *Resolver) track(fail func(error)) *query {
	q := &query{fail: fail}
	r.pending = append(r.pending, q)
	return q
}

// done forgets q once its lookup finished; false if it was cancelled (called back already,
// or about to be).
func (r *Resolver) done(q *query) bool {
	for i, p := range r.pending {
		if p == q {
			r.pending = append(r.pending[:i], r.pending[i+1:]...)
			return true
		}
	}
	return false
}

// serverList is SetServers's list, or nil; any goroutine (the dials run on workers).
func (r *Resolver) serverList() []netip.AddrPort {
	if p := r.servers.Load(); p != nil {
		return *p
	}
	return nil
}

func (r *Resolver) setServerList(list []netip.AddrPort) { r.servers.Store(&list) }

func parseServer(s string) (netip.AddrPort, bool) {
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		return netip.AddrPortFrom(a.Unmap(), 53), true
	}
	ap, err := netip.ParseAddrPort(s)
	if err != nil || ap.Port() == 0 {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), true
}

func formatServer(s netip.AddrPort) string {
	if s.Port() == 53 {
		return s.Addr().String()
	}
	return s.String()
}

// systemServers are resolv.conf's name servers (127.0.0.1 and ::1 without one, as Go's
// resolver falls back to).
func systemServers() []netip.AddrPort {
	var out []netip.AddrPort
	if b, err := os.ReadFile("/etc/resolv.conf"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "nameserver" {
				if a, err := netip.ParseAddr(f[1]); err == nil {
					out = append(out, netip.AddrPortFrom(a.Unmap(), 53))
				}
			}
		}
	}
	if len(out) == 0 {
		out = []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:53"), netip.MustParseAddrPort("[::1]:53")}
	}
	return out
}
