//go:build !uvgo_checkgoroutine

package gocheck

// Enabled: the checks are off (built without the uvgo_checkgoroutine tag); the functions
// below are empty and compile to nothing.
const Enabled = false

// Enter records the calling goroutine as l's owner; a no-op without the tag.
func Enter(l any) {}

// Leave forgets l's owner; a no-op without the tag.
func Leave(l any) {}

// Adopt records the calling goroutine as a coroutine of l's owner; a no-op without the tag.
func Adopt(l any) {}

// Disown forgets a goroutine that Adopt recorded; a no-op without the tag.
func Disown(l any) {}

// Check panics if l runs on another goroutine; a no-op without the tag.
func Check(l any, prefix, op string) {}
