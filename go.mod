module github.com/uvgo/uvgo

go 1.26.0

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0
	github.com/google/btree v1.1.3
	go.uber.org/goleak v1.3.0
	golang.org/x/sys v0.49.0
)
