package nodefs

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
)

// TestEncodingsAgainstNode checks Encode, Decode and the streams' decoder against
// testdata/encodings.jsonl, which testdata/encodings.js recorded from Node v20. Each line:
//
//	["toString", bytes as hex, encoding, buf.toString(encoding)]
//	["from", string, encoding, Buffer.from(string, encoding) as hex]
//	["decoder", encoding, [for each split point i of the source: write(src[:i]) | write(src[i:]) | end()]]
func TestEncodingsAgainstNode(t *testing.T) {
	f, err := os.Open("testdata/encodings.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src := []byte("aé€😀z")
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var c []json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil || len(c) < 3 {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		var kind, a, enc string
		json.Unmarshal(c[0], &kind)
		json.Unmarshal(c[1], &a)
		n++
		switch kind {
		case "toString":
			var want string
			json.Unmarshal(c[2], &enc)
			json.Unmarshal(c[3], &want)
			b, _ := hex.DecodeString(a)
			if got, err := Encode(b, enc); err != nil || got != want {
				t.Errorf("<%s>.toString(%s): %q, Node %q", a, enc, got, want)
			}
		case "from":
			var want string
			json.Unmarshal(c[2], &enc)
			json.Unmarshal(c[3], &want)
			if got, err := Decode(a, enc); err != nil || hex.EncodeToString(got) != want {
				t.Errorf("Buffer.from(%q, %s): %x, Node %s", a, enc, got, want)
			}
		case "decoder":
			var want []string
			json.Unmarshal(c[2], &want)
			enc, _ := normEncoding(a)
			for i := range want {
				d := newStringDecoder(enc)
				if got := d.Write(src[:i]) + "|" + d.Write(src[i:]) + "|" + d.End(); got != want[i] {
					t.Errorf("decoder %s split at %d: %q, Node %q", a, i, got, want[i])
				}
			}
		default:
			t.Fatalf("line %q", sc.Text())
		}
	}
	if n != 118 {
		t.Fatalf("%d cases", n)
	}
}

// An incomplete character at the end of a stream is one U+FFFD; unknown names fail.
func TestDecoderEndAndUnknown(t *testing.T) {
	d := newStringDecoder("utf8")
	if got := d.Write([]byte{'a', 0xf0, 0x9f}); got != "a" {
		t.Errorf("write %q", got)
	}
	if got := d.End(); got != "\uFFFD" {
		t.Errorf("end %q", got)
	}
	if _, err := Encode(nil, "klingon"); err == nil || err.(*Error).Code != "ERR_UNKNOWN_ENCODING" {
		t.Errorf("unknown encoding: %v", err)
	}
	if !IsEncoding("UTF-8") || !IsEncoding("ucs2") || IsEncoding("utf32") {
		t.Error("IsEncoding")
	}
}
