package nodefs

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// The encodings of Node's Buffer that this package speaks: "utf8" (also "utf-8"), "base64",
// "base64url", "hex", "latin1" (also "binary"), "ascii", and "" or "buffer" for raw bytes.

func normEncoding(enc string) (string, bool) {
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
	}
	return "", false
}

// Encode turns bytes into a string the way Node's buf.toString(encoding) does: invalid
// UTF-8 becomes U+FFFD, base64 is padded, hex is lower case, latin1 maps each byte to a rune.
// An unknown encoding gives ERR_UNKNOWN_ENCODING.
func Encode(b []byte, encoding string) (string, error) {
	enc, ok := normEncoding(encoding)
	if !ok {
		return "", unknownEncoding(encoding)
	}
	switch enc {
	case "utf8", "":
		if utf8.Valid(b) {
			return string(b), nil
		}
		return strings.ToValidUTF8(string(b), "\uFFFD"), nil
	case "base64":
		return base64.StdEncoding.EncodeToString(b), nil
	case "base64url":
		return base64.RawURLEncoding.EncodeToString(b), nil
	case "hex":
		return hex.EncodeToString(b), nil
	case "ascii":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c & 0x7f)
		}
		return string(r), nil
	default: // latin1
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r), nil
	}
}

// Decode turns a string into bytes the way Node's Buffer.from(string, encoding) does:
// base64 accepts both alphabets and missing padding, hex stops at the first bad pair,
// latin1 keeps the low byte of each rune.
func Decode(s, encoding string) ([]byte, error) {
	enc, ok := normEncoding(encoding)
	if !ok {
		return nil, unknownEncoding(encoding)
	}
	switch enc {
	case "base64", "base64url":
		s = strings.Map(func(r rune) rune {
			switch r {
			case '-':
				return '+'
			case '_':
				return '/'
			case '=', ' ', '\n', '\r', '\t':
				return -1
			}
			return r
		}, s)
		b, err := base64.RawStdEncoding.DecodeString(s)
		if err != nil {
			if e, ok := err.(base64.CorruptInputError); ok {
				b, _ = base64.RawStdEncoding.DecodeString(s[:int(e)/4*4])
			}
		}
		return b, nil
	case "hex":
		n := len(s) / 2
		b := make([]byte, 0, n)
		for i := 0; i < n; i++ {
			v, err := hex.DecodeString(s[2*i : 2*i+2])
			if err != nil {
				break
			}
			b = append(b, v[0])
		}
		return b, nil
	case "latin1", "ascii":
		b := make([]byte, 0, len(s))
		for _, r := range s {
			b = append(b, byte(r))
		}
		return b, nil
	}
	return []byte(s), nil
}

func unknownEncoding(enc string) *Error {
	return argError("ERR_UNKNOWN_ENCODING", "Unknown encoding: "+enc)
}
