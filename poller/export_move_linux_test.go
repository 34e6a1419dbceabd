package poller

import "github.com/uvgo/uvgo/internal/uring"

// RecvEndStashed reports whether a Submit stashed the last completion of fd's receive, for
// the next Wait.
func RecvEndStashed(p *Poller, fd int) bool {
	rs := p.q.ring
	for _, c := range rs.snd.stash[rs.snd.head:] {
		if c.UserData&udRecv != 0 && recvFd(c.UserData) == fd && c.Flags&uring.CQEFMore == 0 {
			return true
		}
	}
	return false
}

// MovesLate returns how many looks ran out their wait for moved requests (moveWait).
func MovesLate(p *Poller) int { return p.q.ring.movesLate }
