//go:build !race

package ostest

// RaceEnabled reports whether the race detector is on (go test -race).
const RaceEnabled = false
