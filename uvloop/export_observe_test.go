package uvloop

import "time"

// TimeoutDelay is the delay t waits with, after Node's coercion and the nesting clamp.
func TimeoutDelay(t *Timeout) time.Duration { return t.after }
