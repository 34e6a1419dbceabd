package http1

import (
	"strings"
	"testing"
)

// parseOne parses in whole with a parser that has the given limits.
func parseOne(t *testing.T, p *Parser, in string) result {
	t.Helper()
	return parsePieces(t, p, []byte(in), nil)
}

func TestParseRejects(t *testing.T) {
	const host = "Host: a\r\n"
	tests := []struct {
		name   string
		req    string
		want   *Error
		status int
	}{
		{"garbage", "hello\r\n\r\n", ErrMethod, 400},
		{"bad method", "G(T / HTTP/1.1\r\n" + host + "\r\n", ErrMethod, 400},
		{"empty target", "GET  HTTP/1.1\r\n" + host + "\r\n", ErrTarget, 400},
		{"control byte in target", "GET /\x01 HTTP/1.1\r\n" + host + "\r\n", ErrTarget, 400},
		{"bare LF after request line", "GET / HTTP/1.1\n" + host + "\r\n", ErrRequestLine, 400},
		{"bare LF after field", "GET / HTTP/1.1\r\nHost: a\n\r\n", ErrHeaderValue, 400},
		{"CR without LF", "GET / HTTP/1.1\r\nHost: a\rX: b\r\n\r\n", ErrLineEnd, 400},
		{"no Host", "GET / HTTP/1.1\r\n\r\n", ErrHost, 400},
		{"two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", ErrHost, 400},
		{"invalid Host", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", ErrHost, 400},
		{"invalid Host with userinfo", "GET / HTTP/1.1\r\nHost: u@a\r\n\r\n", ErrHost, 400},
		{"no colon", "GET / HTTP/1.1\r\n" + host + "No colon\r\n\r\n", ErrHeaderName, 400},
		{"space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", ErrHeaderName, 400},
		{"obs-fold", "GET / HTTP/1.1\r\n" + host + "A: b\r\n c\r\n\r\n", ErrObsFold, 400},
		{"NUL in value", "GET / HTTP/1.1\r\n" + host + "A: b\x00c\r\n\r\n", ErrHeaderValue, 400},
		{"negative Content-Length", "POST / HTTP/1.1\r\n" + host + "Content-Length: -1\r\n\r\n", ErrContentLength, 400},
		{"Content-Length list", "POST / HTTP/1.1\r\n" + host + "Content-Length: 1, 1\r\n\r\nx", ErrContentLength, 400},
		{"Content-Length overflow", "POST / HTTP/1.1\r\n" + host + "Content-Length: 18446744073709551621\r\n\r\nhello", ErrContentLength, 400},
		{"Content-Length 2^63", "POST / HTTP/1.1\r\n" + host + "Content-Length: 9223372036854775808\r\n\r\n", ErrContentLength, 400},
		{"differing Content-Lengths", "POST / HTTP/1.1\r\n" + host + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nxx", ErrContentLength, 400},
		{"CL and TE", "POST / HTTP/1.1\r\n" + host + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", ErrFraming, 400},
		{"TE in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", ErrFraming, 400},
		{"gzip", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip\r\n\r\n", ErrTransferEncoding, 501},
		{"chunked twice", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", ErrTransferEncoding, 501},
		{"gzip, chunked", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip, chunked\r\n\r\n", ErrTransferEncoding, 501},
		{"bad chunk size", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", ErrChunk, 400},
		{"empty chunk size", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n\r\n", ErrChunk, 400},
		{"chunk size overflow", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n10000000000000005\r\nhello\r\n0\r\n\r\n", ErrChunk, 400},
		{"chunk size with LF only", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n", ErrChunk, 400},
		{"chunk data too long", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n", ErrChunk, 400},
		{"bare LF in trailer", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\nX: y\n\r\n", ErrHeaderValue, 400},
		{"body too large", "POST / HTTP/1.1\r\n" + host + "Content-Length: 2000000\r\n\r\n", ErrBodyTooLarge, 413},
		{"chunk too large", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n200000\r\n", ErrBodyTooLarge, 413},
		{"chunks too large", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n80000\r\n" + strings.Repeat("a", 0x80000) + "\r\n80001\r\n", ErrBodyTooLarge, 413},
		{"target too long", "GET /" + strings.Repeat("a", 9000) + " HTTP/1.1\r\n" + host + "\r\n", ErrURITooLong, 414},
		{"expectation", "POST / HTTP/1.1\r\n" + host + "Expect: teapot\r\n\r\n", ErrExpectation, 417},
		{"header too large", "GET / HTTP/1.1\r\n" + host + "X: " + strings.Repeat("a", 20000) + "\r\n\r\n", ErrHeaderTooLarge, 431},
		{"too many headers", "GET / HTTP/1.1\r\n" + host + strings.Repeat("A: b\r\n", 2000) + "\r\n", ErrTooManyHeaders, 431},
		{"HTTP/2.0", "GET / HTTP/2.0\r\n\r\n", ErrVersion, 505},
		{"HTTP/1.2", "GET / HTTP/1.2\r\n\r\n", ErrVersion, 505},
		{"HTTP/1.1 with a space", "GET / HTTP/1.1 \r\n\r\n", ErrRequestLine, 400},
		{"too many empty lines", strings.Repeat("\r\n", 40) + "GET / HTTP/1.1\r\n" + host + "\r\n", ErrRequestLine, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, bytewise := range []bool{false, true} {
				var cuts []int
				if bytewise {
					for i := 1; i < len(tt.req); i++ {
						cuts = append(cuts, i)
					}
				}
				res := parsePieces(t, &Parser{}, []byte(tt.req), cuts)
				if res.err != tt.want {
					t.Fatalf("bytewise %v: got %v (%+v), want %v", bytewise, res.err, res, tt.want)
				}
				if e := res.err.(*Error); e.Status != tt.status {
					t.Fatalf("status %d, want %d", e.Status, tt.status)
				}
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name string
		req  string
		want result
	}{
		{"GET", "GET /x?y HTTP/1.1\r\nHost: a:80\r\nAccept:  */*  \r\n\r\n", result{
			method: "GET", target: "/x?y", minor: 1, keepAlive: true,
			headers: [][2]string{{"Host", "a:80"}, {"Accept", "*/*"}}}},
		{"HTTP/1.0 keep-alive", "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", result{
			method: "GET", target: "/", keepAlive: true, headers: [][2]string{{"Connection", "Keep-Alive"}}}},
		{"HTTP/1.0", "GET / HTTP/1.0\r\n\r\n", result{method: "GET", target: "/"}},
		{"close", "GET / HTTP/1.1\r\nHost: a\r\nConnection: x, close\r\n\r\n", result{
			method: "GET", target: "/", minor: 1, headers: [][2]string{{"Host", "a"}, {"Connection", "x, close"}}}},
		{"leading empty line", "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", result{
			method: "GET", target: "/", minor: 1, keepAlive: true, headers: [][2]string{{"Host", "a"}}}},
		{"empty value", "GET / HTTP/1.1\r\nHost: a\r\nX:\r\nY: \t \r\n\r\n", result{
			method: "GET", target: "/", minor: 1, keepAlive: true, headers: [][2]string{{"Host", "a"}, {"X", ""}, {"Y", ""}}}},
		{"Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", result{
			method: "POST", target: "/", minor: 1, keepAlive: true, cl: 5, body: []byte("hello"),
			headers: [][2]string{{"Host", "a"}, {"Content-Length", "5"}, {"Content-Length", "5"}}}},
		{"chunked with trailers", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n5 ; a=b\r\nhello\r\nA;x=\"q\"\r\n0123456789\r\n0\r\nT: 1 \r\nU: 2\r\n\r\n", result{
			method: "POST", target: "/", minor: 1, keepAlive: true, cl: -1, chunked: true,
			body:     []byte("hello0123456789"),
			headers:  [][2]string{{"Host", "a"}, {"Transfer-Encoding", "Chunked"}},
			trailers: [][2]string{{"T", "1"}, {"U", "2"}}}},
		{"upgrade", "GET /ws HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n\r\n", result{
			method: "GET", target: "/ws", minor: 1, keepAlive: true, upgrade: true,
			headers: [][2]string{{"Host", "a"}, {"Connection", "keep-alive, Upgrade"}, {"Upgrade", "websocket"}}}},
		{"CONNECT", "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n", result{
			method: "CONNECT", target: "a:443", minor: 1, keepAlive: true, upgrade: true, headers: [][2]string{{"Host", "a:443"}}}},
		{"expect", "PUT / HTTP/1.1\r\nHost: [::1]:8080\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx", result{
			method: "PUT", target: "/", minor: 1, keepAlive: true, expect: true, cl: 1, body: []byte("x"),
			headers: [][2]string{{"Host", "[::1]:8080"}, {"Expect", "100-Continue"}, {"Content-Length", "1"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			want.n, want.done, want.head = len(tt.req), true, true
			for _, h := range want.headers {
				if h[0] == "Host" {
					v := h[1]
					want.host = &v
				}
			}
			var cuts []int
			for i := 1; i < len(tt.req); i++ {
				cuts = append(cuts, i)
			}
			for _, c := range [][]int{nil, cuts} {
				if got := parsePieces(t, &Parser{}, []byte(tt.req), c); !sameResult(got, want) {
					t.Fatalf("got\n%+v\nwant\n%+v", got, want)
				}
			}
		})
	}
}

// TestParsePipelined parses several requests from one buffer, then the same bytes split
// everywhere, and checks that the parser is reusable after each.
func TestParsePipelined(t *testing.T) {
	one := "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
	post := "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
	chunk := "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n"
	in := one + post + chunk + one
	for step := 1; step <= len(in); step++ {
		var p Parser
		var targets []string
		var body []byte
		for off := 0; off < len(in); off += step {
			data := []byte(in[off:min(off+step, len(in))])
			for {
				n, ev, err := p.Parse(data)
				if err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				data = data[n:]
				if ev == EventNone {
					break
				}
				switch ev {
				case EventHead:
					targets = append(targets, string(p.Request().Target))
				case EventBody:
					body = append(body, p.Body()...)
				}
			}
		}
		if strings.Join(targets, ",") != "/,/p,/c,/" || string(body) != "abcxy" || !p.Idle() {
			t.Fatalf("step %d: targets %v, body %q, idle %v", step, targets, body, p.Idle())
		}
	}
}

// TestParseWorkPerByte feeds a head and a body a byte at a time and checks that the
// parser's work stays within a constant factor of the bytes (each byte examined once, and
// a carried head copied once and collected once).
func TestParseWorkPerByte(t *testing.T) {
	head := "POST / HTTP/1.1\r\nHost: a\r\n" + strings.Repeat("X-Some-Header: some value\r\n", 500) + "Transfer-Encoding: chunked\r\n\r\n"
	var body strings.Builder
	for range 5000 {
		body.WriteString("10\r\n0123456789abcdef\r\n")
	}
	body.WriteString("0\r\n\r\n")
	for _, in := range []string{head + body.String(), "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n" + strings.Repeat("z", 100000)} {
		for _, step := range []int{1, 7, len(in)} {
			p := Parser{MaxBodySize: -1}
			for off := 0; off < len(in); off += step {
				data := []byte(in[off:min(off+step, len(in))])
				for {
					n, ev, err := p.Parse(data)
					if err != nil {
						t.Fatal(err)
					}
					data = data[n:]
					if ev == EventNone {
						break
					}
				}
			}
			if !p.Idle() {
				t.Fatal("the request did not end")
			}
			if perByte := float64(p.Work) / float64(len(in)); perByte > 3 {
				t.Fatalf("step %d: %.2f units of work per byte", step, perByte)
			}
		}
	}
}

func TestParseAllocs(t *testing.T) {
	in := []byte("POST /p HTTP/1.1\r\nHost: a\r\nUser-Agent: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nT: 1\r\n\r\n")
	var p Parser
	run := func() {
		for _, piece := range [][]byte{in[:30], in[30:71], in[71:]} {
			for {
				n, ev, err := p.Parse(piece)
				if err != nil {
					t.Fatal(err)
				}
				piece = piece[n:]
				if ev == EventNone {
					break
				}
			}
		}
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Fatalf("%v allocations per request", n)
	}
}

func TestParseErrorSticks(t *testing.T) {
	var p Parser
	if _, _, err := p.Parse([]byte("BAD\r\n")); err != ErrMethod {
		t.Fatal(err)
	}
	if _, _, err := p.Parse([]byte("GET / HTTP/1.1\r\nHost: a\r\n\r\n")); err != ErrMethod {
		t.Fatalf("after an error: %v", err)
	}
	p.Reset()
	if _, ev, err := p.Parse([]byte("GET / HTTP/1.1\r\nHost: a\r\n\r\n")); err != nil || ev != EventHead {
		t.Fatalf("after Reset: %v %v", ev, err)
	}
}

func TestParseContentLength(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"5", 5, true}, {"007", 7, true},
		{"9223372036854775807", 1<<63 - 1, true},
		{"9223372036854775808", 0, false},
		{"18446744073709551621", 0, false},
		{"99999999999999999999999", 0, false},
		{"", 0, false}, {"+1", 0, false}, {"1 ", 0, false}, {"0x10", 0, false},
	} {
		n, ok := parseContentLength([]byte(tt.in))
		if n != tt.want || ok != tt.ok {
			t.Errorf("%q: %d, %v; want %d, %v", tt.in, n, ok, tt.want, tt.ok)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	in := []byte("GET /plaintext HTTP/1.1\r\nHost: localhost:8080\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0\r\nAccept: text/html,application/xhtml+xml\r\nAccept-Language: en-US,en;q=0.5\r\nConnection: keep-alive\r\n\r\n")
	var p Parser
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		data := in
		for {
			n, ev, err := p.Parse(data)
			if err != nil {
				b.Fatal(err)
			}
			data = data[n:]
			if ev == EventNone {
				break
			}
		}
	}
}
