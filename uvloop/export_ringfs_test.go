package uvloop

// FSOnRing sends every file request the io_uring backend's ring can run to the ring (on
// true) or all of them to the work pool (on false), whatever ringFSOps says: the
// benchmarks compare the two.
func FSOnRing(l *Loop, on bool) {
	l.setRingFS(func(fsOp) ringWhen {
		if on {
			return ringAlways
		}
		return ringNever
	})
}

// FSRingInFlight is the number of file requests on the ring whose callbacks have not run.
func FSRingInFlight(l *Loop) int { return l.ringFS.inflight }
