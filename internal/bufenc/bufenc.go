// Package bufenc is Node's Buffer encodings and its StringDecoder, shared by the node*
// packages: "utf8" (also "utf-8"), "base64", "base64url", "hex", "latin1" (also "binary"),
// "ascii", "utf16le" (also "utf-16le", "ucs2", "ucs-2"), and "" or "buffer" for raw bytes.
// Names are matched without regard to case, as Node's are. It imports nothing of this
// module.
package bufenc

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Normalize returns the canonical name of an encoding ("" for raw bytes) and whether it is
// one Node knows.
func Normalize(enc string) (string, bool) {
	switch strings.ToLower(enc) {
	case "", "buffer":
		return "", true
	case "utf8", "utf-8":
		return "utf8", true
	case "base64":
		return "base64", true
	case "base64url":
		return "base64url", true
	case "hex":
		return "hex", true
	case "latin1", "binary":
		return "latin1", true
	case "ascii":
		return "ascii", true
	case "utf16le", "utf-16le", "ucs2", "ucs-2":
		return "utf16le", true
	}
	return "", false
}

// Encode turns bytes into a string the way Node's buf.toString(enc) does, for a
// normalized enc (see Normalize; "" is utf8): invalid UTF-8 becomes U+FFFD per maximal
// invalid subsequence (the WHATWG decoder's rule, which V8 follows), base64 is padded and
// base64url is not, hex is lower case, latin1 maps each byte to a rune, ascii clears each
// byte's high bit first, utf16le reads little-endian code units (an odd last byte is
// dropped).
func Encode(b []byte, enc string) string {
	switch enc {
	case "base64":
		return base64.StdEncoding.EncodeToString(b)
	case "base64url":
		return base64.RawURLEncoding.EncodeToString(b)
	case "hex":
		return hex.EncodeToString(b)
	case "ascii":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c & 0x7f)
		}
		return string(r)
	case "latin1":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r)
	case "utf16le":
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(u))
	}
	return decodeUTF8(b)
}

// decodeUTF8 is the WHATWG UTF-8 decoder with replacement: each maximal subpart of an
// invalid sequence becomes one U+FFFD.
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		if c := b[i]; c < utf8.RuneSelf {
			sb.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			sb.Write(b[i : i+size])
			i += size
			continue
		}
		sb.WriteString("\uFFFD")
		i += maximalSubpart(b[i:])
	}
	return sb.String()
}

// maximalSubpart returns how many bytes at the start of b (which does not start with a
// valid sequence) form the longest prefix of a valid UTF-8 sequence, at least 1: what one
// U+FFFD replaces.
func maximalSubpart(b []byte) int {
	n, _ := utf8Prefix(b)
	return n
}

// utf8Prefix returns the length of the longest prefix of b that starts a well-formed UTF-8
// sequence (at least 1: a lone bad byte counts as its own subpart) and the sequence's full
// length (0 if b[0] cannot start one).
func utf8Prefix(b []byte) (n, need int) {
	c := b[0]
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 2
	case c == 0xE0:
		need, lo = 3, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 3
	case c == 0xED:
		need, hi = 3, 0x9F
	case c == 0xF0:
		need, lo = 4, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 4
	case c == 0xF4:
		need, hi = 4, 0x8F
	default:
		return 1, 0
	}
	n = 1
	if n < len(b) && b[n] >= lo && b[n] <= hi {
		n++
		for n < len(b) && n < need && b[n] >= 0x80 && b[n] <= 0xBF {
			n++
		}
	}
	return n, need
}

// Decode turns a string into bytes the way Node's Buffer.from(s, enc) does, for a
// normalized enc: base64 and base64url accept both alphabets, skip characters outside them
// (whitespace included) and stop at the first '='; hex stops at the first bad pair; latin1
// and ascii keep the low byte of each UTF-16 code unit; utf16le writes little-endian code
// units; "" and utf8 are the string's bytes.
func Decode(s, enc string) []byte {
	switch enc {
	case "base64", "base64url":
		clean := make([]byte, 0, len(s))
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '=':
				i = len(s)
				continue
			case c == '-':
				c = '+'
			case c == '_':
				c = '/'
			case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			default:
				continue
			}
			clean = append(clean, c)
		}
		if len(clean)%4 == 1 { // a lone sextet makes no byte
			clean = clean[:len(clean)-1]
		}
		b := make([]byte, base64.RawStdEncoding.DecodedLen(len(clean)))
		n, _ := base64.RawStdEncoding.Decode(b, clean)
		return b[:n]
	case "hex":
		n := len(s) / 2
		b := make([]byte, 0, n)
		for i := 0; i < n; i++ {
			hi, ok1 := unhex(s[2*i])
			lo, ok2 := unhex(s[2*i+1])
			if !ok1 || !ok2 {
				break
			}
			b = append(b, hi<<4|lo)
		}
		return b
	case "latin1", "ascii":
		b := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 0xFFFF {
				r1, r2 := utf16.EncodeRune(r)
				b = append(b, byte(r1), byte(r2))
				continue
			}
			b = append(b, byte(r))
		}
		return b
	case "utf16le":
		u := utf16.Encode([]rune(s))
		b := make([]byte, 2*len(u))
		for i, v := range u {
			b[2*i], b[2*i+1] = byte(v), byte(v>>8)
		}
		return b
	}
	return []byte(s)
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// StringDecoder is Node's StringDecoder: it turns a stream of byte chunks into strings
// without splitting a character (utf8, utf16le) or a base64 group across chunks; End
// flushes what is left (an incomplete UTF-8 character as U+FFFD). Not safe for concurrent
// use.
type StringDecoder struct {
	enc  string // normalized, not ""
	tail []byte // bytes held back from the last Write
}

// NewStringDecoder returns a decoder for a normalized encoding; "" (raw bytes) decodes as
// utf8, as Node's StringDecoder does.
func NewStringDecoder(enc string) *StringDecoder {
	if enc == "" {
		enc = "utf8"
	}
	return &StringDecoder{enc: enc}
}

// Encoding is the decoder's normalized encoding.
func (d *StringDecoder) Encoding() string { return d.enc }

// Write returns the text of b and of what earlier calls held back, holding back an
// incomplete character or group at its end.
func (d *StringDecoder) Write(b []byte) string {
	if len(d.tail) > 0 {
		b = append(d.tail, b...)
		d.tail = nil
	}
	cut := len(b)
	switch d.enc {
	case "utf8":
		// Hold back an incomplete but so far valid sequence at the end.
		for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
			if b[i] < 0x80 {
				break
			}
			if b[i] >= 0xC0 {
				if n, need := utf8Prefix(b[i:]); need > 0 && n == len(b)-i && n < need {
					cut = i
				}
				break
			}
		}
	case "base64", "base64url":
		cut -= len(b) % 3
	case "utf16le":
		cut -= len(b) % 2
		if cut >= 2 {
			if u := uint16(b[cut-2]) | uint16(b[cut-1])<<8; u >= 0xD800 && u <= 0xDBFF {
				cut -= 2 // a high surrogate waits for its pair
			}
		}
	}
	if cut < len(b) {
		d.tail = append([]byte(nil), b[cut:]...)
	}
	return Encode(b[:cut], d.enc)
}

// ChunkLen is a stream chunk's length as Node counts it in readableLength and against the
// high-water mark: a []byte's bytes, a string's UTF-16 code units (JavaScript's length), so
// "€😀" is 3.
func ChunkLen(c any) int {
	switch c := c.(type) {
	case []byte:
		return len(c)
	case string:
		n := 0
		for _, r := range c {
			n++
			if r >= 0x10000 {
				n++ // a surrogate pair
			}
		}
		return n
	}
	return 0
}

// Redecode is what Node's readable.setEncoding does to the chunks a stream holds: each
// []byte goes through d (a character split at the end waits in d for the next Write), a
// string is kept as it is; it returns their text, "" for none.
func (d *StringDecoder) Redecode(chunks []any) string {
	var b strings.Builder
	for _, c := range chunks {
		switch c := c.(type) {
		case []byte:
			b.WriteString(d.Write(c))
		case string:
			b.WriteString(c)
		}
	}
	return b.String()
}

// End returns what is held back (Node's decoder.end()) and resets the decoder.
func (d *StringDecoder) End() string {
	t := d.tail
	d.tail = nil
	if len(t) == 0 {
		return ""
	}
	switch d.enc {
	case "utf8":
		return "\uFFFD"
	case "utf16le":
		if len(t)%2 == 1 {
			t = t[:len(t)-1]
		}
	}
	return Encode(t, d.enc)
}
