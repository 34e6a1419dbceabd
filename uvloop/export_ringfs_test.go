package uvloop

// FSOnRing sends every file request the io_uring backend's ring can run to the ring (on
// true) or all of them to the work pool (on false), whatever ringFSOps says: the
// benchmarks compare the two.
func FSOnRing(l *Loop, on bool) {
	if on {
		l.setRingFS(fileOpsAll())
	} else {
		l.setRingFS(nil)
	}
}

func fileOpsAll() []fsOp {
	var ops []fsOp
	for op := range fileOps {
		ops = append(ops, fsOp(op))
	}
	return ops
}

// FSRingInFlight is the number of file requests on the ring whose callbacks have not run.
func FSRingInFlight(l *Loop) int { return l.ringFS.inflight }
