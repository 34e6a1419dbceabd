package uvloop

import (
	"context"
	"net"
	"net/netip"
	"os"
	"strconv"
	"syscall"
	"time"
)

// This file is the TCP handle's string forms with a host name: BindString looks the name up
// at once, ConnectString on the work pool.

// bindLookupTimeout bounds the lookup BindString waits for.
const bindLookupTimeout = 10 * time.Second

// splitHostPort splits "host:port" into a host name and a port number.
func splitHostPort(addr string) (string, uint16, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return "", 0, &net.AddrError{Err: "invalid port", Addr: addr}
	}
	return host, uint16(p), nil
}

// bindName binds to the first address host resolves to.
func (t *TCP) bindName(addr string, flags TCPFlags) error {
	if err := t.usable(); err != nil {
		return err
	}
	host, port, err := splitHostPort(addr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), bindLookupTimeout)
	defer cancel()
	res, err := getaddrinfo(ctx, host, "", &AddrInfoHints{SockType: SockStream, Flags: AIPassive})
	if err != nil {
		return err
	}
	return t.Bind(netip.AddrPortFrom(res[0].Addr.Addr(), port), flags)
}

// connectName looks host up, then connects to its first address. While the lookup runs the
// handle is connecting without a socket: writes queue, Close completes cb with ECANCELED
// (destroy) and the lookup's answer is dropped.
func (t *TCP) connectName(addr string, cb func(error)) error {
	if err := t.usable(); err != nil {
		return err
	}
	if t.sflags&sConnecting != 0 {
		return errAlready
	}
	if t.sflags&(sListening|sConnected) != 0 {
		return os.NewSyscallError("connect", syscall.EISCONN)
	}
	host, port, err := splitHostPort(addr)
	if err != nil {
		return err
	}
	_, err = t.loop.GetAddrInfo(host, "", &AddrInfoHints{SockType: SockStream}, func(res []AddrInfo, err error) {
		if t.sflags&sConnecting == 0 || t.flags&(flagClosing|flagClosed) != 0 {
			return // closed meanwhile: destroy has completed cb
		}
		t.sflags &^= sConnecting
		t.loop.reqDone(ReqConnect)
		if err == nil {
			err = t.Connect(netip.AddrPortFrom(res[0].Addr.Addr(), port), cb)
			if err == nil {
				return
			}
		}
		t.sflags |= sConnecting
		t.loop.reqStart(ReqConnect)
		t.rare().connectCb = cb
		t.rare().delayedErr = err
		t.finishConnect()
	})
	if err != nil {
		return err
	}
	t.rare().connectCb = cb
	t.sflags |= sConnecting
	t.loop.reqStart(ReqConnect)
	return nil
}
