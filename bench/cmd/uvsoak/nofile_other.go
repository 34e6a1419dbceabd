//go:build !unix

package main

import "errors"

func raiseNofile() {}

func limitNofile(int) error { return errors.New("uvsoak: no RLIMIT_NOFILE on this system") }
