// Package uvloop is a stub with the signatures of the real one.
package uvloop

import "time"

type Loop struct{}
type Timeout struct{}
type Timer struct{}

func (l *Loop) SetTimeout(cb func(), d time.Duration) *Timeout  { return nil }
func (l *Loop) SetInterval(cb func(), d time.Duration) *Timeout { return nil }
func (l *Loop) NewTimer(cb func(*Timer)) *Timer                 { return nil }
func (t *Timer) Start(timeout, repeat time.Duration) error      { return nil }
func (l *Loop) Post(fn func()) error                            { return nil }
