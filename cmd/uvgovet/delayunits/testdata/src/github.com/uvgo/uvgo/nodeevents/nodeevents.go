// Package nodeevents is a stub with the signatures of the real one.
package nodeevents

import (
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

type AbortSignal struct{}

func AbortSignalTimeout(l *uvloop.Loop, d time.Duration) *AbortSignal { return nil }
