package port

import (
	"time"

	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodetimers"
	"github.com/uvgo/uvgo/uvloop"
)

const half = 500

func port(l *uvloop.Loop, ms int, d time.Duration) {
	l.SetTimeout(func() {}, 500)                 // want `SetTimeout delay 500 is 500ns, which Node's rule rounds up to 1ms`
	l.SetInterval(func() {}, half)               // want `SetInterval delay half is 500ns`
	l.SetTimeout(func() {}, 20*time.Microsecond) // want `SetTimeout delay 20 \* time.Microsecond is 20µs`
	l.SetTimeout(func() {}, time.Duration(ms))   // want `converts a plain integer to nanoseconds`
	nodetimers.SetTimeout(l, 100, "v", nil)      // want `SetTimeout delay 100 is 100ns`
	nodetimers.SetTimeout[int](l, 100, 1, nil)   // want `SetTimeout delay 100 is 100ns`
	nodeevents.AbortSignalTimeout(l, 5000)       // want `AbortSignalTimeout delay 5000 is 5µs`
	t := l.NewTimer(nil)
	t.Start(250, 250) // want `Start delay 250 is a bare number, 250ns` `Start delay 250 is a bare number, 250ns`
	t.Start(2000, 0)  // want `Start delay 2000 is a bare number`

	// Fine: zero, units, durations, and what is not a timer.
	l.SetTimeout(func() {}, 0)
	l.SetTimeout(func() {}, 500*time.Millisecond)
	l.SetTimeout(func() {}, time.Duration(ms)*time.Millisecond)
	l.SetTimeout(func() {}, d)
	l.SetTimeout(func() {}, time.Duration(d))
	l.SetTimeout(func() {}, time.Second)
	t.Start(0, 0)
	t.Start(1<<62, 0)                            // a bare number, but not milliseconds
	t.Start(time.Nanosecond, 3*time.Microsecond) // the libuv-style Timer keeps nanoseconds
	l.SetTimeout(func() {}, 2*time.Millisecond+time.Duration(half)*time.Microsecond)
	time.Sleep(500)
}
