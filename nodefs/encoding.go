package nodefs

import "github.com/uvgo/uvgo/internal/bufenc"

// The encodings of Node's Buffer that this package speaks: "utf8" (also "utf-8"), "base64",
// "base64url", "hex", "latin1" (also "binary"), "ascii", "utf16le" (also "utf-16le", "ucs2",
// "ucs-2"), and "" or "buffer" for raw bytes. Names are matched without regard to case, as
// Node's are.

func normEncoding(enc string) (string, bool) { return bufenc.Normalize(enc) }

// IsEncoding is Buffer.isEncoding(encoding): whether Encode and Decode know the name.
// The empty string and "buffer" (raw bytes) count here, as everywhere in this package.
func IsEncoding(encoding string) bool {
	_, ok := normEncoding(encoding)
	return ok
}

// Encode turns bytes into a string the way Node's buf.toString(encoding) does: invalid
// UTF-8 becomes U+FFFD per maximal invalid subsequence (the WHATWG decoder's rule, which V8
// follows), base64 is padded and base64url is not, hex is lower case, latin1 maps each byte
// to a rune, ascii clears each byte's high bit first, utf16le reads little-endian code units
// (an odd last byte is dropped). "" (raw bytes) is utf8. An unknown encoding gives
// ERR_UNKNOWN_ENCODING.
func Encode(b []byte, encoding string) (string, error) {
	enc, ok := normEncoding(encoding)
	if !ok {
		return "", unknownEncoding(encoding)
	}
	return encodeNorm(b, enc), nil
}

func encodeNorm(b []byte, enc string) string { return bufenc.Encode(b, enc) }

// Decode turns a string into bytes the way Node's Buffer.from(string, encoding) does:
// base64 and base64url accept both alphabets, skip characters outside them (whitespace
// included) and stop at the first '='; hex stops at the first bad pair; latin1 and ascii keep
// the low byte of each UTF-16 code unit; utf16le writes little-endian code units.
func Decode(s, encoding string) ([]byte, error) {
	enc, ok := normEncoding(encoding)
	if !ok {
		return nil, unknownEncoding(encoding)
	}
	return decodeNorm(s, enc), nil
}

func decodeNorm(s, enc string) []byte { return bufenc.Decode(s, enc) }

func unknownEncoding(enc string) *Error {
	return argError("ERR_UNKNOWN_ENCODING", "Unknown encoding: "+enc)
}

// stringDecoder is Node's StringDecoder (package bufenc's, shared with nodenet).
type stringDecoder = bufenc.StringDecoder

func newStringDecoder(enc string) *stringDecoder { return bufenc.NewStringDecoder(enc) }
