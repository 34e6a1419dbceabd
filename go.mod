module github.com/uvgo/uvgo

go 1.26.0

require (
	github.com/google/btree v1.1.3 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
