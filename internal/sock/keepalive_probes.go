//go:build linux || darwin || freebsd || netbsd || dragonfly

package sock

import "golang.org/x/sys/unix"

// setKeepAliveIdle sets the probes' timing as libuv does: the first after secs of silence
// (keepIdleOpt, the system's TCP_KEEPIDLE), then one a second (TCP_KEEPINTVL), ten in all
// (TCP_KEEPCNT).
func setKeepAliveIdle(fd, secs int) error {
	for _, o := range [...][2]int{{keepIdleOpt, secs}, {unix.TCP_KEEPINTVL, 1}, {unix.TCP_KEEPCNT, 10}} {
		if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, o[0], o[1]); err != nil {
			return err
		}
	}
	return nil
}
