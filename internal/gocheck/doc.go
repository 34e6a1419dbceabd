// Package gocheck is the goroutine-contract check behind uvloop's uvgo_checkgoroutine build
// tag: with the tag, a loop-only call from a goroutine other than the one running the loop
// panics with a message that names the rule; without it, every function here is empty and
// inlined away. It imports nothing of this module.
package gocheck
