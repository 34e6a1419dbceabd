package nodenet

import (
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// decoder turns chunks into strings for SetEncoding, as Node's StringDecoder: a UTF-8
// character split between two chunks is held back until it is complete.
type decoder struct {
	enc  string // "utf8", "latin1" or "hex"
	tail []byte // the start of a split UTF-8 character
}

func newDecoder(enc string) (*decoder, bool) {
	switch strings.ToLower(enc) {
	case "utf8", "utf-8":
		return &decoder{enc: "utf8"}, true
	case "latin1", "binary":
		return &decoder{enc: "latin1"}, true
	case "hex":
		return &decoder{enc: "hex"}, true
	}
	return nil, false
}

func (d *decoder) write(b []byte) string {
	switch d.enc {
	case "latin1":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r)
	case "hex":
		return hex.EncodeToString(b)
	}
	if len(d.tail) > 0 {
		b = append(d.tail, b...)
		d.tail = nil
	}
	cut := len(b) - incompleteTail(b)
	if cut < len(b) {
		d.tail = append([]byte(nil), b[cut:]...)
	}
	return validUTF8(b[:cut])
}

// end returns what is held back (Node: a replacement character for an incomplete one).
func (d *decoder) end() string {
	if len(d.tail) == 0 {
		return ""
	}
	d.tail = nil
	return "\uFFFD"
}

// incompleteTail is the length of a UTF-8 sequence cut short at the end of b (0 to 3).
func incompleteTail(b []byte) int {
	for n := 1; n <= 3 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c&0xC0 == 0x80 {
			continue // a continuation byte: look further back
		}
		need := 0
		switch {
		case c&0xE0 == 0xC0:
			need = 2
		case c&0xF0 == 0xE0:
			need = 3
		case c&0xF8 == 0xF0:
			need = 4
		}
		if need > n {
			return n
		}
		return 0
	}
	return 0
}

// validUTF8 replaces each invalid byte with U+FFFD, as Node's decoder does.
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			s.WriteString("\uFFFD")
		} else {
			s.Write(b[:n])
		}
		b = b[n:]
	}
	return s.String()
}
