module github.com/uvgo/uvgo/bench

go 1.26.0

replace github.com/uvgo/uvgo => ../

require (
	github.com/dop251/goja v0.0.0-20250309171923-bcd7cc6bf64c
	go.uber.org/goleak v1.3.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0 // indirect
	github.com/google/btree v1.1.3 // indirect
)

require (
	github.com/dlclark/regexp2 v1.11.4 // indirect
	github.com/dop251/goja_nodejs v0.0.0-20260212111938-1f56ff5bcf14
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible // indirect
	github.com/google/pprof v0.0.0-20240727154555-813a5fbdbec8 // indirect
	github.com/uvgo/uvgo v0.0.0-00010101000000-000000000000
	golang.org/x/text v0.16.0 // indirect
)
