package main

// The workloads, each described once: its N and its shape. Every runtime's version does
// exactly that shape:
//
//	uvgo   a benchmark in the root module (uvloop/bench*_test.go unless Variant.GoPkg says
//	       otherwise), run with -test.benchtime=<N>x (or 1x for benchmarks that do their N per op)
//	node   a script in bench/node, run as `node <script> <N>`
//	libuv  a program in bench/libuv/bin, run as `bin/<prog> <N>`
//	goja   bench/peers/gojaloop (dop251/goja_nodejs's eventloop, a Go peer), run as
//	       `gojaloop <workload> <N>`, where the peer can express the workload
//
// The Node scripts and the C programs print one line,
// `name=<workload> n=<N> ns_per_op=<float> total_ns=<int> [key=value...]`.

// Goal is what uvgo should reach on a workload: at most MaxVsNode times Node's time and at
// most MaxVsLibuv times libuv's (0: no goal against that runtime).
type Goal struct {
	MaxVsNode  float64
	MaxVsLibuv float64
	Text       string // the goal as the README states it
}

// scheduling is the goal of every scheduling workload.
var scheduling = Goal{MaxVsNode: 1.0 / 3, MaxVsLibuv: 1, Text: "≤ 1/3 of Node's time, ≤ libuv's"}

// Variant is one uvgo benchmark of a workload and the programs of the other runtimes it is
// compared with. A workload has more than one variant when uvgo offers two APIs for it (the
// libuv-style Timer against libuv, the Node-style SetTimeout against Node).
type Variant struct {
	API    string // what tells the variants of a workload apart; "" for a single variant
	Go     string // uvgo benchmark, without the "Benchmark" prefix
	GoPkg  string // the package that holds it, relative to the repository root; "" is ./uvloop/
	Node   string // script in bench/node; "" if none, then NoNode says why
	C      string // program in bench/libuv/bin; "" if none, then NoC says why
	NoNode string
	NoC    string
	// Goja is the workload as bench/peers/gojaloop runs it on dop251/goja_nodejs's
	// eventloop, the Go peer; "" if that loop cannot express it.
	Goja string
}

// Workload is one row group of the report.
type Workload struct {
	Name   string // as the Node scripts and C programs print it in name=
	Shape  string // what one run does
	Per    string // what ns/op is per
	N      int    // operations per run
	QuickN int    // N under -quick; 0 when N cannot change (GoFixedN)
	// GoFixedN: the Go benchmark does N operations per benchmark op (the timer benchmarks do
	// 1M); it runs with -test.benchtime=1x, and its ns/op comes from GoMetric and its
	// allocs/op is divided by N.
	GoFixedN bool
	GoMetric string
	Extra    []string // result fields shown in the notes (e.g. callbacks), as uvgo metric and C key
	Variants []Variant
	Note     string  // what a reader of the numbers must know
	FloorNs  float64 // the least ns/op any runtime can reach (time spent waiting), if any
	Goal     Goal
	NotYet   string // set for workloads not implemented yet: why
	// Net: a network workload (netrun.go). Its variant names servers, not benchmarks: Go is
	// uvgo's example, Node a script in bench/node, C a program in bench/libuv/bin, each given
	// a loopback address; N is the number of connections.
	Net   NetKind
	Unit  string // what the runtime columns count, when not ns: "B" (bytes)
	Peers []Peer // more servers measured beside the three runtimes (net/http)
}

// fsGoal is the goal of the fs workloads (issue 11).
var fsGoal = Goal{MaxVsNode: 0.5, MaxVsLibuv: 1, Text: "≤ 1/2 of Node's time, ≤ libuv's"}

// fsComposed says what the libuv programs of the Node-level fs workloads do.
const fsComposed = "libuv has no readFile or writeFile: its program composes the same requests as Node's fs does (uv_fs_open, uv_fs_fstat, uv_fs_read, uv_fs_write, uv_fs_close), one threadpool round trip each, and hands the caller a malloc'd buffer as Node's readFile hands a Buffer"

const (
	noNodeLoop   = "Node has no idle/check handles in JS; the setImmediate workloads are its loop-level measure"
	noNodeAsync  = "plain Node has no cross-thread wake-up of the main loop (it would take worker_threads and a MessagePort, which measures V8 messaging, not the loop)"
	noNodeTimer  = "setTimeout turns 0 into 1 ms, so a restart chain measures the clock (1 ms per fire), not the loop"
	noCImmediate = "libuv has no setImmediate queue; check-idle is the libuv equivalent of an immediate-chain iteration"
	noCTicks     = "libuv has no nextTick or microtask queue"
	sleepNote    = "the wall time includes the ~1 s that the last timers take to come due, so no runtime can go below ~1,000 ns per timer at N = 1M; the ratios have that floor"
)

var workloads = []Workload{
	{
		Name: "loop-count", Shape: "one idle handle whose callback counts and stops itself after N iterations",
		Per: "iteration", N: 1_000_000, QuickN: 100_000, Goal: scheduling,
		Variants: []Variant{{Go: "LoopCount", C: "loop_count", NoNode: noNodeLoop}},
	},
	{
		Name: "check-idle", Shape: "an idle handle (poll never blocks) and a check handle that counts and stops both after N iterations",
		Per: "iteration", N: 1_000_000, QuickN: 100_000, Goal: scheduling,
		Variants: []Variant{{Go: "CheckIdle", C: "check_idle", NoNode: noNodeLoop}},
	},
	{
		Name: "immediate-chain", Shape: "each setImmediate callback queues the next, N in all (one iteration each)",
		Per: "immediate", N: 1_000_000, QuickN: 100_000, Goal: scheduling,
		Variants: []Variant{{Go: "ImmediateChain", Node: "immediate-chain.js", NoC: noCImmediate}},
	},
	{
		Name: "immediate-batch", Shape: "N setImmediate queued at once, run in one check phase",
		Per: "immediate", N: 1_000_000, QuickN: 100_000, Goal: scheduling,
		Variants: []Variant{{Go: "ImmediateBatch", Node: "immediate-batch.js", NoC: noCImmediate}},
	},
	{
		Name: "nexttick-chain", Shape: "each nextTick callback queues the next, N in all",
		Per: "tick", N: 1_000_000, QuickN: 100_000, Goal: scheduling,
		Variants: []Variant{{Go: "NextTickChain", Node: "nexttick-chain.js", NoC: noCTicks}},
	},
	{
		Name: "microtask-batch", Shape: "N queueMicrotask at once, then drained",
		Per: "microtask", N: 1_000_000, QuickN: 100_000, Goal: scheduling,
		Variants: []Variant{{Go: "MicrotaskBatch", Node: "microtask-batch.js", NoC: noCTicks}},
	},
	{
		Name: "timers-zero", Shape: "N timers with timeout 0, then run until all fired",
		Per: "timer", N: 1_000_000, GoFixedN: true, GoMetric: "ns/timer", Goal: scheduling,
		Variants: []Variant{
			{API: "Timer", Go: "TimersZero", C: "timers_zero", NoNode: "see the SetTimeout row"},
			{API: "SetTimeout", Go: "NodeTimersZero", Node: "timers-zero.js", NoC: "see the Timer row", Goja: "timers-zero"},
		},
	},
	{
		Name: "timers-spread", Shape: "timer i with timeout (i%1000)+1 ms, N in all, then run until all fired (~1 s of waiting)",
		Per: "timer", N: 1_000_000, GoFixedN: true, GoMetric: "ns/timer", Goal: scheduling,
		Note: sleepNote, FloorNs: 1000,
		Variants: []Variant{
			{API: "Timer", Go: "TimersSpread", C: "timers_spread", NoNode: "see the SetTimeout row"},
			{API: "SetTimeout", Go: "NodeTimersSpread", Node: "timers-spread.js", NoC: "see the Timer row"},
		},
	},
	{
		Name: "timers-cancel", Shape: "as timers-spread, then every odd-numbered timer is stopped before the loop runs; ceil(N/2) fire",
		Per: "timer", N: 1_000_000, GoFixedN: true, GoMetric: "ns/timer", Goal: scheduling,
		Note: sleepNote, FloorNs: 1000,
		Variants: []Variant{
			{API: "Timer", Go: "TimersCancel", C: "timers_cancel", NoNode: "see the SetTimeout row"},
			{API: "SetTimeout", Go: "NodeTimersCancel", Node: "timers-cancel.js", NoC: "see the Timer row"},
		},
	},
	{
		Name: "timer-restart", Shape: "one timer with timeout 0 restarted from its own callback, one loop iteration per fire, N fires",
		Per: "fire", N: 1_000_000, QuickN: 100_000, Goal: scheduling,
		Variants: []Variant{{Go: "TimerRestart", C: "timer_restart_iter", NoNode: noNodeTimer}},
	},
	{
		Name: "async-send", Shape: "another thread sends N times as fast as it can; sends coalesce; the loop counts callbacks",
		Per: "send", N: 1_000_000, QuickN: 100_000, Goal: scheduling, Extra: []string{"callbacks"},
		Variants: []Variant{{Go: "AsyncSend", C: "async_send", NoNode: noNodeAsync}},
	},
	{
		Name: "async-pingpong", Shape: "another thread sends and waits for the callback's answer, N round trips",
		Per: "round trip", N: 200_000, QuickN: 20_000, Goal: scheduling,
		Variants: []Variant{{Go: "AsyncPingPong", C: "async_pingpong", NoNode: noNodeAsync}},
	},
	{
		Name: "post-chain", Shape: "a function on the loop Posts the next one, N in a chain",
		Per: "post", N: 1_000_000, QuickN: 100_000, Goal: Goal{Text: "≤ 150 ns per Post (issue 10)"},
		Variants: []Variant{{Go: "PostChain", NoNode: noNodeAsync, NoC: "libuv has no function queue; async-send is its wake-up", Goja: "post-chain"}},
	},
	{
		Name: "post-submit", Shape: "another goroutine Posts N functions as fast as it can; the loop runs them all",
		Per: "function", N: 1_000_000, QuickN: 100_000, Goal: Goal{Text: "≤ 60 ns per function (issue 10)"},
		Variants: []Variant{{Go: "PostSubmit", NoNode: noNodeAsync, NoC: "libuv has no function queue; async-send is its wake-up", Goja: "post-submit"}},
	},
	{
		Name: "post-pingpong", Shape: "a goroutine Posts a function and waits for its answer on a channel, N round trips",
		Per: "round trip", N: 200_000, QuickN: 20_000, Goal: Goal{Text: "no fd: ≤ 600 ns; with a listener: ≤ 1/3 of libuv's async-pingpong (issue 10)"},
		Variants: []Variant{
			{API: "no fd", Go: "PostPingPong", NoNode: noNodeAsync, NoC: "see the listener row", Goja: "post-pingpong"},
			{API: "TCP listener registered", Go: "PostPingPongFd", NoNode: noNodeAsync, C: "async_pingpong"},
		},
	},
	{
		Name: "queue-work", Shape: "N work items queued at once on the worker pool (empty work; Node: crypto.randomFill of 1 byte, its lightest pool operation), completions counted on the loop",
		Per: "work item", N: 200_000, QuickN: 20_000, Goal: scheduling,
		Note:     "Node cannot queue an empty function on its pool: each of its items is a real (tiny) crypto.randomFill request with Node's JS and C++ wrapping, so the Node ratio says what a Node-level pool request costs, and the libuv ratio is the like-for-like one",
		Variants: []Variant{{Go: "QueueWork", C: "queue_work", Node: "queue-work.js"}},
	},
	{
		Name: "fs-stat", Shape: "N stats of one 1 KiB file, each started from the previous one's callback",
		Per: "stat", N: 100_000, QuickN: 10_000, Goal: Goal{MaxVsNode: 0.5, MaxVsLibuv: 1, Text: "≤ 1/2 of Node's time, ≤ libuv's"},
		Variants: []Variant{{Go: "FSStat", C: "fs_stat", Node: "fs-stat.js"}},
	},
	{
		Name: "fs-read", Shape: "N reads of 64 bytes at offset 0 of an open 1 KiB file, each started from the previous one's callback",
		Per: "read", N: 100_000, QuickN: 10_000, Goal: Goal{MaxVsNode: 0.5, MaxVsLibuv: 1, Text: "≤ 1/2 of Node's time, ≤ libuv's"},
		Variants: []Variant{{Go: "FSRead", C: "fs_read", Node: "fs-read.js"}},
	},
	{
		Name: "fs-readfile", Shape: "N fs.readFile calls of one 1 KiB file (open, fstat, read, close), each started from the previous one's callback",
		Per: "readFile", N: 50_000, QuickN: 5_000, Goal: Goal{MaxVsNode: 0.5, Text: "≤ 1/2 of Node's time"},
		Variants: []Variant{{Go: "ReadFile", GoPkg: "./nodefs/", Node: "fs-readfile.js", C: "fs_readfile"}},
		Note:     fsComposed,
	},
	{
		Name: "fs-readfile-1m", Shape: "N fs.readFile calls of one 1 MiB file (open, fstat, two reads of 512 KiB, close), each started from the previous one's callback",
		Per: "readFile", N: 2_000, QuickN: 200, Goal: fsGoal,
		Variants: []Variant{{Go: "ReadFile1M", GoPkg: "./nodefs/", Node: "fs-readfile-1m.js", C: "fs_readfile_1m"}},
		Note:     fsComposed,
	},
	{
		Name: "fs-smallfiles", Shape: "N files of 1 KiB in a fresh directory, each written with fs.writeFile (open, write, close), then each read back with fs.readFile (open, fstat, read, close); at most 64 in flight in each phase",
		Per: "file", N: 10_000, QuickN: 1_000, Goal: fsGoal,
		Variants: []Variant{{Go: "SmallFiles", GoPkg: "./nodefs/", Node: "fs-smallfiles.js", C: "fs_smallfiles"}},
		Note:     fsComposed + "; creating 10,000 files is mostly the kernel's (ext4's) work, the same for every runtime, which bounds the ratios",
	},

	{
		Name: "spawn-true", Shape: "spawn /bin/true and wait for its exit, N times one after the other (Node: child_process.spawn with stdio 'ignore', 'exit')",
		Per: "child", N: 500, QuickN: 50, Goal: Goal{MaxVsNode: 1, Text: "no slower than Node"},
		Note:     "dominated by fork/exec and the kernel; Go's syscall.ForkExec uses vfork, Node's libuv forks a large process",
		Variants: []Variant{{Go: "SpawnTrue", Node: "spawn-true.js", NoC: "no C program yet"}},
	},
	{
		Name: "dns-lookup", Shape: "dns.lookup('localhost') N times one after the other (a lookup on the pool reading /etc/hosts, the callback on the loop)",
		Per: "lookup", N: 20_000, QuickN: 2_000, Goal: Goal{MaxVsNode: 1, Text: "no slower than Node"},
		Note:     "uvgo asks Go's resolver (net.Resolver, /etc/hosts first); Node asks glibc's getaddrinfo on its threadpool",
		Variants: []Variant{{Go: "LookupLocalhost", GoPkg: "./nodedns/", Node: "dns-lookup.js", NoC: "no C program yet"}},
	},
	{
		Name: "signal-roundtrip", Shape: "send SIGUSR2 to the process and wait for the handler on the loop, N times one after the other",
		Per: "round trip", N: 50_000, QuickN: 5_000, Goal: Goal{MaxVsNode: 1, Text: "no slower than Node"},
		Note:     "Go owns the signal handlers: a delivery goes through the runtime's signal goroutine and an os/signal channel before the loop's wake-up, where libuv's handler writes to the loop's pipe itself",
		Variants: []Variant{{Go: "SignalRoundTrip", Node: "signal-roundtrip.js", NoC: "no C program yet"}},
	},

	{
		Name: "promise-chain", Shape: "N thens on one chain from a resolved promise, each reaction resolving the next",
		Per: "reaction", N: 1_000_000, QuickN: 100_000, Goal: Goal{MaxVsNode: 0.5, Text: "≤ 1/2 of Node's time"},
		Variants: []Variant{{Go: "PromiseChain", GoPkg: "./promise/", Node: "promise-chain.js", NoC: noCTicks}},
	},
	{
		Name: "async-await", Shape: "one async function awaiting a settled promise N times",
		Per: "await", N: 1_000_000, QuickN: 100_000, Goal: Goal{MaxVsNode: 1, Text: "no slower than Node"},
		Variants: []Variant{{Go: "AsyncAwait", GoPkg: "./promise/", Node: "async-await.js", NoC: noCTicks}},
	},
	{
		Name: "all-1k", Shape: "Promise.all over 1,000 resolved promises, awaited, N times",
		Per: "Promise.all of 1,000", N: 1_000, QuickN: 100, Goal: Goal{Text: "none set; reported"},
		Variants: []Variant{{Go: "All1k", GoPkg: "./promise/", Node: "all-1k.js", NoC: noCTicks}},
	},

	// Network workloads: each server a fresh process on 127.0.0.1, driven by the same client
	// (the programs bench/net.sh uses); rates become ns per operation (10⁹ / rate over all
	// connections together), so that < 1 means uvgo is faster here too.
	{
		Name: "tcp-echo", Shape: "cmd/echoclient: N connections, each sending a 64-byte message and waiting for its echo, for 5 s (1 s under -quick) after a 1 s warm-up",
		Per: "round trip", N: 50, Net: netEcho, Goal: Goal{Text: "none set; reported beside Node and libuv"},
		Extra:    []string{keyRTTPerS},
		Variants: []Variant{{Go: "examples/echo", Node: "tcp-echo-server.js", C: "echo_server"}},
	},
	{
		Name: "http-hello", Shape: "wrk -t1 -cN -d5s (-d1s under -quick, after a 1 s warm-up), keep-alive, against an HTTP/1.1 hello server (uvgo: 1 loop)",
		Per: "request", N: 50, Net: netHTTP, Goal: Goal{MaxVsNode: 0.5, Text: "≥ 2× Node's req/s (≤ 1/2 of its ns per request)"},
		Extra: []string{keyReqPerS}, Peers: httpPeers,
		Variants: []Variant{{Go: "examples/http", Node: "http-hello.js", NoC: "libuv has no HTTP server; Go's net/http is the other peer (its lines follow)"}},
	},
	{
		Name: "idle-connections", Shape: "cmd/idleconns: N connections to a fresh echo server, one byte echoed on each; the server's RSS growth over the last N-1000 / (N-1000), after 1,000 that take out its fixed costs",
		Per: "connection", Unit: "B", N: 10_000, Net: netIdle, Goal: Goal{Text: "none set; reported beside Node and libuv"},
		Extra:    []string{"rss_before_kb", "rss_after_kb"},
		Variants: []Variant{{Go: "examples/echo", Node: "tcp-echo-server.js", C: "echo_server"}},
	},
}
