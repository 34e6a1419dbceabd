package timers_test

import (
	"fmt"

	"github.com/uvgo/uvgo/timers"
)

// alarm owns its Entry and fires through Handler: arming it allocates no closure.
type alarm struct {
	entry timers.Entry
	name  string
}

func (a *alarm) OnTimer() { fmt.Println(a.name, "fired") }

func ExampleHandler() {
	h := timers.New()
	a := &alarm{name: "wake-up"}
	a.entry.Handler = a
	h.Start(&a.entry, 0, 30, 0)
	h.RunExpired(10)
	h.RunExpired(30)
	// Output: wake-up fired
}
