//go:build !linux

package ostest

// AcceptQueue returns how many connections wait in a listener's accept queue; only Linux
// tells (in /proc/net/tcp).
func AcceptQueue(port uint16) (int, error) { return -1, ErrUnsupported }
