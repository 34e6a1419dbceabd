package nodenet

import (
	"errors"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// destroy(err) with writes in flight, or corked: the write the handle had calls back with
// no error, and the writes behind it (or corked) get err, the destroy's error (Node's
// errorBuffer gives state.errored, not ERR_STREAM_DESTROYED, when there is one). want is
// node v20's output of the same program in JS:
//
//	s.write(Buffer.alloc(8<<20), cb); s.write('t', cb); s.write('u', cb)   // or cork(); write a, b
//	setImmediate(() => s.destroy(new Error('boom')))
func TestReviewDestroyErrWrites(t *testing.T) {
	wants := map[string][]string{
		"inflight": {"error boom", "cb big nil", "cb t boom", "cb u boom", "close true len=0"},
		"cork":     {"cb a boom", "cb b boom", "error boom", "close true len=0"},
	}
	for _, how := range []string{"inflight", "cork"} {
		t.Run(how, func(t *testing.T) {
			diffModes(t, wants[how], func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
				listen(t, l, func(sock *Socket) {
					sock.Pause()
					sock.OnError(func(error) {})
				}, func(s *Server, port int) {
					c := Connect(l, port, "127.0.0.1", nil)
					c.OnError(func(err error) { log("error %s", errCode(err)) })
					c.OnClose(func(had bool) {
						log("close %v len=%d", had, c.BufferedAmount())
						s.Close(nil)
					})
					cb := func(name string) func(error) {
						return func(err error) { log("cb %s %s", name, errCode(err)) }
					}
					c.OnConnect(func() {
						if how == "cork" {
							c.Cork()
							c.WriteString("a", cb("a"))
							c.WriteString("b", cb("b"))
						} else {
							c.Write(big, cb("big"))
							c.WriteString("t", cb("t"))
							c.WriteString("u", cb("u"))
						}
						l.SetImmediate(func() { c.Destroy(errors.New("boom")) })
					})
				})
			})
		})
	}
}

// destroy() from setImmediate after a write larger than the socket takes and two small
// ones (then end(), or not), then a write, destroy() or destroy(err): writableLength right after, and in each
// callback, and the callbacks' errors are node v20's (the same program in JS).
func TestReviewDestroyWritableLength(t *testing.T) {
	for _, how := range []string{"write", "end", "write-err", "end-err"} {
		t.Run(how, func(t *testing.T) {
			withErr := strings.HasSuffix(how, "-err")
			v := "cb v ERR_STREAM_DESTROYED len=8388613"
			if strings.HasPrefix(how, "end") {
				v = "cb v ERR_STREAM_WRITE_AFTER_END len=8388613"
			}
			want := []string{"after destroy len=8388613", "after write len=8388613", v,
				"cb big nil len=5", "cb t ERR_STREAM_DESTROYED len=3", "cb u ERR_STREAM_DESTROYED len=0", "close false len=0"}
			if withErr {
				want = []string{"after destroy len=8388613", "after write len=8388613", "error boom", v,
					"cb big nil len=5", "cb t boom len=3", "cb u boom len=0", "close true len=0"}
			}
			diffModes(t, want, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
				listen(t, l, func(sock *Socket) {
					sock.Pause()
					sock.OnError(func(error) {})
				}, func(s *Server, port int) {
					c := Connect(l, port, "127.0.0.1", nil)
					c.OnError(func(err error) { log("error %s", errCode(err)) })
					c.OnClose(func(had bool) {
						log("close %v len=%d", had, c.BufferedAmount())
						s.Close(nil)
					})
					cb := func(name string) func(error) {
						return func(err error) { log("cb %s %s len=%d", name, errCode(err), c.BufferedAmount()) }
					}
					c.OnConnect(func() {
						c.Write(big, cb("big"))
						c.WriteString("tt", cb("t"))
						if strings.HasPrefix(how, "end") {
							c.WriteString("uuu", cb("u"))
							c.End(nil)
						} else {
							c.WriteString("uuu", cb("u"))
						}
						l.SetImmediate(func() {
							var err error
							if withErr {
								err = errors.New("boom")
							}
							c.Destroy(err)
							log("after destroy len=%d", c.BufferedAmount())
							c.WriteString("v", cb("v"))
							log("after write len=%d", c.BufferedAmount())
						})
					})
				})
			})
		})
	}
}
