module github.com/uvgo/uvgo/bench

go 1.26

replace github.com/uvgo/uvgo => ../

require go.uber.org/goleak v1.3.0
