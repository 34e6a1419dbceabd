//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package sock

import (
	"net/netip"
	"strings"
	"syscall"
)

// This system has no implementation: every call fails with ErrUnsupported, so that the
// packages above build here and report the fact at run time.

// UnixPathMax is the size of sun_path.
const UnixPathMax = 108

// UnixPathOK reports whether path can name a Unix socket.
func UnixPathOK(path string) bool {
	return path != "" && len(path) < UnixPathMax && strings.IndexByte(path, 0) < 0
}

// Sockaddr is a datagram socket's scratch address.
type Sockaddr struct{}

// IOVecs is Writev's scratch.
type IOVecs struct{}

// The functions of sock_unix.go and the mechanism files, each failing with ErrUnsupported.
func Socket(family, typ int) (int, error)                       { return -1, ErrUnsupported }
func Accept(fd int) (int, error)                                { return -1, ErrUnsupported }
func Close(fd int) error                                        { return ErrUnsupported }
func CloseReset(fd int) error                                   { return ErrUnsupported }
func SetNonblock(fd int) error                                  { return ErrUnsupported }
func Listen(fd, backlog int) error                              { return ErrUnsupported }
func ShutdownWrite(fd int) error                                { return ErrUnsupported }
func Unlink(path string) error                                  { return ErrUnsupported }
func OpenSpare() (int, error)                                   { return -1, ErrUnsupported }
func ErrnoName(errno syscall.Errno) string                      { return "" }
func Bind(fd int, ap netip.AddrPort, scope uint32) error        { return ErrUnsupported }
func Connect(fd int, ap netip.AddrPort, scope uint32) error     { return ErrUnsupported }
func BindUnix(fd int, path string) error                        { return ErrUnsupported }
func ConnectUnix(fd int, path string) error                     { return ErrUnsupported }
func Sockname(fd int) (netip.AddrPort, uint32, error)           { return netip.AddrPort{}, 0, ErrUnsupported }
func Peername(fd int) (netip.AddrPort, uint32, error)           { return netip.AddrPort{}, 0, ErrUnsupported }
func SocknameUnix(fd int) (string, error)                       { return "", ErrUnsupported }
func PeernameUnix(fd int) (string, error)                       { return "", ErrUnsupported }
func SocketError(fd int) (syscall.Errno, error)                 { return 0, ErrUnsupported }
func SetReuseAddr(fd int) error                                 { return ErrUnsupported }
func SetReuseAddrDgram(fd int) error                            { return ErrUnsupported }
func SetReusePort(fd int) error                                 { return ErrUnsupported }
func SetIPv6Only(fd int, on bool) error                         { return ErrUnsupported }
func SetNoDelay(fd int, on bool) error                          { return ErrUnsupported }
func SetKeepAlive(fd, idleSecs int) error                       { return ErrUnsupported }
func SetLingerZero(fd int) error                                { return ErrUnsupported }
func SetBroadcast(fd int, on bool) error                        { return ErrUnsupported }
func SetTTL(fd, family, ttl int) error                          { return ErrUnsupported }
func SetMulticastTTL(fd, family, ttl int) error                 { return ErrUnsupported }
func SetMulticastLoop(fd, family int, on bool) error            { return ErrUnsupported }
func SetMulticastInterface4(fd int, iface [4]byte) error        { return ErrUnsupported }
func SetMulticastInterface6(fd int, idx uint32) error           { return ErrUnsupported }
func Membership4(fd int, group, iface [4]byte, join bool) error { return ErrUnsupported }
func Membership6(fd int, group [16]byte, idx uint32, join bool) error {
	return ErrUnsupported
}
func Read(fd int, p []byte) (int, error)                     { return 0, ErrUnsupported }
func Write(fd int, p []byte) (int, error)                    { return 0, ErrUnsupported }
func Writev(fd int, bufs [][]byte, iov *IOVecs) (int, error) { return 0, ErrUnsupported }
func IsSocket(fd int) bool                                   { return false }
func ReadNoWait(fd int, p []byte) (int, error)               { return 0, ErrUnsupported }
func WriteNoWait(fd int, p []byte) (int, error)              { return 0, ErrUnsupported }
func WritevNoWait(fd int, bufs [][]byte) (int, error)        { return 0, ErrUnsupported }
func Recvfrom(fd int, buf []byte, sa *Sockaddr) (int, error) { return 0, ErrUnsupported }
func Sendto(fd int, data []byte, sa *Sockaddr) error         { return ErrUnsupported }
func Disconnect(fd int) error                                { return ErrUnsupported }
func (sa *Sockaddr) Set(ap netip.AddrPort, scope uint32)     {}
func (sa *Sockaddr) AddrPort() (netip.AddrPort, uint32)      { return netip.AddrPort{}, 0 }
