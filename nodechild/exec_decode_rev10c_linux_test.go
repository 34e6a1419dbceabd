package nodechild_test

import (
	"encoding/json"
	"testing"

	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/uvloop"
)

// execDecodeCmds write bytes that are not all UTF-8, some split between two writes (the
// sleep makes them two reads): exec decodes its output as Node's StringDecoder does (a
// character split between reads is whole, each maximal invalid subpart is one U+FFFD, an
// incomplete character at the end is one U+FFFD), and maxBuffer counts the decoded text's
// UTF-8 bytes, so U+FFFD counts three.
var execDecodeCmds = []struct {
	Cmd string `json:"cmd"`
	Max int    `json:"max"`
}{
	{`printf 'a\342\202'; sleep 0.05; printf '\254b'`, 0},                   // € split between reads
	{`printf 'a\342\202'; sleep 0.05; printf 'Ab'`, 0},                      // a cut € then ASCII
	{`printf '\377\376x\300\200y\355\240\200z'`, 0},                         // bytes never valid, an overlong, a surrogate
	{`printf 'x\360\237\230'`, 0},                                           // ends inside a character
	{`printf '\377\377\377\377abc'`, 8},                                     // U+FFFD against maxBuffer
	{`printf 'ab\342\202'; sleep 0.05; printf '\254cdef'`, 5},               // the split € crosses maxBuffer
	{`printf '\360\237\230'; sleep 0.05; printf '\200\360\237\230\200'`, 3}, // an emoji cut, then one that half fits
}

// TestExecDecodesUTF8Rev10c: what exec's callback gets, and ExecError's Code, as node v20.
// Before the fix exec kept the raw bytes (no U+FFFD) and counted them against maxBuffer.
func TestExecDecodesUTF8Rev10c(t *testing.T) {
	js := `const {exec} = require('child_process');
const cmds = ` + mustJSON(t, execDecodeCmds) + `;
(function next(i) {
  if (i === cmds.length) return;
  const o = cmds[i].max ? {maxBuffer: cmds[i].max} : {};
  exec(cmds[i].cmd, o, (e, so, se) => {
    console.log(i, e ? e.code : null, JSON.stringify(Buffer.from(so).toString()), Buffer.byteLength(so));
    next(i + 1);
  });
})(0);
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		var next func(i int)
		next = func(i int) {
			if i == len(execDecodeCmds) {
				return
			}
			c := execDecodeCmds[i]
			_, err := nodechild.Exec(l, c.Cmd, &nodechild.ExecOptions{MaxBuffer: c.Max}, func(err error, so, se string) {
				var code any
				if e, ok := err.(*nodechild.ExecError); ok {
					code = e.Code
				} else if err != nil {
					code = err
				}
				if code == nil {
					code = "null"
				}
				q, _ := json.Marshal(so)
				out("%d %v %s %d", i, code, q, len(so))
				next(i + 1)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		next(0)
	})
}

// execEncodingCases: exec's encoding option. "buffer" (or a name Node does not know) hands
// the raw bytes, and maxBuffer counts them; another of Node's encodings decodes the output
// with it, and maxBuffer counts Buffer.byteLength of the text in that encoding but cuts it
// in UTF-16 units, as Node does.
var execEncodingCases = []struct {
	Enc string `json:"enc"`
	Max int    `json:"max"`
}{
	{"buffer", 0}, {"nonesuch", 3}, {"hex", 0}, {"hex", 3}, {"latin1", 4}, {"base64", 0},
	{"base64", 4}, {"utf16le", 0}, {"ascii", 0}, {"UTF-8", 0}, {"utf8", 5},
}

// TestExecEncodingRev10c runs the same command under each of execEncodingCases: what the
// callback gets (the bytes for raw output, else the text), as node v20.
func TestExecEncodingRev10c(t *testing.T) {
	const cmd = `printf 'a\342\202\254\377bcdef'`
	js := `const {exec} = require('child_process');
const cases = ` + mustJSON(t, execEncodingCases) + `;
(function next(i) {
  if (i === cases.length) return;
  const o = {encoding: cases[i].enc};
  if (cases[i].max) o.maxBuffer = cases[i].max;
  exec(String.raw` + "`" + cmd + "`" + `, o, (e, so) => {
    console.log(i, e ? e.code : null, typeof so === 'string' ? JSON.stringify(so) : JSON.stringify([...so]));
    next(i + 1);
  });
})(0);
`
	want := nodeLines(t, js)
	modeLog(t, want, func(t *testing.T, l *uvloop.Loop, out func(string, ...any)) {
		var next func(i int)
		next = func(i int) {
			if i == len(execEncodingCases) {
				return
			}
			c := execEncodingCases[i]
			_, err := nodechild.Exec(l, cmd, &nodechild.ExecOptions{Encoding: c.Enc, MaxBuffer: c.Max}, func(err error, so, se string) {
				var code any = "null"
				if e, ok := err.(*nodechild.ExecError); ok {
					code = e.Code
				}
				var q []byte
				if c.Enc == "buffer" || c.Enc == "nonesuch" {
					v := []int{}
					for i := 0; i < len(so); i++ {
						v = append(v, int(so[i]))
					}
					q, _ = json.Marshal(v)
				} else {
					q, _ = json.Marshal(so)
				}
				out("%d %v %s", i, code, q)
				next(i + 1)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		next(0)
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
