// Package ostest gives tests the few system objects whose creation differs by system, so that
// the packages it serves need no build-tagged test files. It imports nothing of uvgo.
package ostest

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrUnsupported is what a function returns where the system has no such object.
var ErrUnsupported = fmt.Errorf("ostest: not on %s: %w", runtime.GOOS, errors.ErrUnsupported)
