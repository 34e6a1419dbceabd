//go:build linux || freebsd || netbsd || dragonfly

package uvloop

import "golang.org/x/sys/unix"

func setKeepAliveIdle(fd, secs int) error {
	for _, o := range [...][2]int{{unix.TCP_KEEPIDLE, secs}, {unix.TCP_KEEPINTVL, 1}, {unix.TCP_KEEPCNT, 10}} {
		if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, o[0], o[1]); err != nil {
			return sysErr("setsockopt", err)
		}
	}
	return nil
}
