//go:build !linux

package fsys

const isLinux = false
