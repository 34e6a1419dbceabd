// Package nodetimers is a stub with the signatures of the real one.
package nodetimers

import (
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

type Options struct{}
type Promise[T any] struct{}

func SetTimeout[T any](l *uvloop.Loop, d time.Duration, value T, opts *Options) *Promise[T] {
	return nil
}
