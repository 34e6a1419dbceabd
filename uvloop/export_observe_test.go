package uvloop

import "time"

// TimeoutDelay is the delay t waits with, after Node's coercion and the nesting clamp.
func TimeoutDelay(t *Timeout) time.Duration { return t.after }

// LowestEquivalent is the delay histogram's bucket arithmetic.
func LowestEquivalent(v int64) int64 { return lowestEquivalent(v) }
