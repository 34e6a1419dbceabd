package nodehttp

import (
	"strconv"
	"strings"

	"github.com/uvgo/uvgo/nodenet"
)

// joinRule is how Node folds a repeated incoming header field into message.headers.
type joinRule uint8

const (
	joinComma  joinRule = iota // joined with ", " (most fields)
	joinDrop                   // the first one kept, the others dropped
	joinCookie                 // joined with "; " (Cookie)
	joinArray                  // an array (Set-Cookie)
)

// ruleOf returns the rule for a lower-case field name: Node's list of fields whose
// duplicates are dropped, Set-Cookie as an array, Cookie joined with "; ", and ", " for
// the rest.
func ruleOf(lower string) joinRule {
	switch lower {
	case "age", "host", "from", "etag", "server", "referer", "expires", "location",
		"user-agent", "retry-after", "content-type", "max-forwards", "authorization",
		"last-modified", "content-length", "if-modified-since", "proxy-authorization",
		"if-unmodified-since":
		return joinDrop
	case "cookie":
		return joinCookie
	case "set-cookie":
		return joinArray
	}
	return joinComma
}

// lowerASCII returns s in lower case, without allocating when it already is or is a
// common field name.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			if l := knownLower(s); l != "" {
				return l
			}
			return strings.ToLower(s)
		}
	}
	return s
}

// knownLower returns the lower-case form of a common field name as it is usually
// spelled, or "".
func knownLower(s string) string {
	switch s {
	case "Content-Type":
		return "content-type"
	case "Content-Length":
		return "content-length"
	case "Connection":
		return "connection"
	case "Date":
		return "date"
	case "Host":
		return "host"
	case "Cache-Control":
		return "cache-control"
	case "Set-Cookie":
		return "set-cookie"
	case "Location":
		return "location"
	case "Server":
		return "server"
	case "ETag":
		return "etag"
	case "Last-Modified":
		return "last-modified"
	case "Transfer-Encoding":
		return "transfer-encoding"
	case "Keep-Alive":
		return "keep-alive"
	case "Vary":
		return "vary"
	case "Content-Encoding":
		return "content-encoding"
	case "Access-Control-Allow-Origin":
		return "access-control-allow-origin"
	case "X-Powered-By":
		return "x-powered-by"
	case "User-Agent":
		return "user-agent"
	case "Accept":
		return "accept"
	}
	return ""
}

// knownName returns a constant string for the common field names, so that building
// rawHeaders does not allocate for them.
func knownName(b []byte) string {
	switch string(b) {
	case "Host":
		return "Host"
	case "host":
		return "host"
	case "User-Agent":
		return "User-Agent"
	case "Accept":
		return "Accept"
	case "Connection":
		return "Connection"
	case "connection":
		return "connection"
	case "Content-Length":
		return "Content-Length"
	case "content-length":
		return "content-length"
	case "Content-Type":
		return "Content-Type"
	case "content-type":
		return "content-type"
	case "Transfer-Encoding":
		return "Transfer-Encoding"
	case "Date":
		return "Date"
	case "Keep-Alive":
		return "Keep-Alive"
	case "keep-alive":
		return "keep-alive"
	case "close":
		return "close"
	case "chunked":
		return "chunked"
	case "Accept-Encoding":
		return "Accept-Encoding"
	case "*/*":
		return "*/*"
	}
	return string(b)
}

// headerSet is an incoming message's headers (or trailers) as Node's message.headers:
// lower-case names, duplicates folded by Node's rules, built on first use from the raw
// list.
type headerSet struct {
	m    map[string]any
	keys []string // in the order first seen
}

func buildHeaders(raw []string) headerSet {
	h := headerSet{m: make(map[string]any, len(raw)/2)}
	for i := 0; i+1 < len(raw); i += 2 {
		name, value := lowerASCII(raw[i]), raw[i+1]
		old, seen := h.m[name]
		if !seen {
			h.keys = append(h.keys, name)
		}
		switch ruleOf(name) {
		case joinArray:
			arr, _ := old.([]string)
			h.m[name] = append(arr, value)
		case joinDrop:
			if !seen {
				h.m[name] = value
			}
		case joinCookie:
			if seen {
				h.m[name] = old.(string) + "; " + value
			} else {
				h.m[name] = value
			}
		default:
			if seen {
				h.m[name] = old.(string) + ", " + value
			} else {
				h.m[name] = value
			}
		}
	}
	return h
}

// outHeader is one field set on an outgoing message.
type outHeader struct {
	name, lower string
	values      []string
}

// outHeaders are the fields of an outgoing message, as Node keeps them: by lower-case
// name, with the name as first set, in the order set.
type outHeaders []outHeader

func (h outHeaders) find(lower string) int {
	for i := range h {
		if h[i].lower == lower {
			return i
		}
	}
	return -1
}

// headerValues turns a setHeader value (a string, a []string, a number, or anything
// fmt-able) into the field values.
func headerValues(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []string:
		return append([]string(nil), x...)
	case int:
		return []string{strconv.Itoa(x)}
	case int64:
		return []string{strconv.FormatInt(x, 10)}
	case float64:
		return []string{strconv.FormatFloat(x, 'f', -1, 64)}
	case bool:
		return []string{strconv.FormatBool(x)}
	case nil:
		return nil
	}
	return []string{toString(v)}
}

func (h *outHeaders) set(name string, v any) error {
	if x, ok := v.(string); ok {
		return h.setString(name, x, nil)
	}
	if !validToken(name) {
		return errInvalidToken(name)
	}
	vals := headerValues(v)
	if vals == nil {
		return errInvalidValue(name, "undefined")
	}
	for _, s := range vals {
		if !validFieldValue(s) {
			return errInvalidChar(name)
		}
	}
	h.put(name, vals)
	return nil
}

// setString is set for one string value; the value goes into arena's spare capacity, if
// it has some, rather than into a slice of its own (arena's array must not move: it is
// never appended to past its capacity, and what it holds is never changed).
func (h *outHeaders) setString(name, x string, arena *[]string) error {
	if !validToken(name) {
		return errInvalidToken(name)
	}
	if !validFieldValue(x) {
		return errInvalidChar(name)
	}
	var vals []string
	if arena != nil && len(*arena) < cap(*arena) {
		n := len(*arena)
		*arena = append(*arena, x)
		vals = (*arena)[n : n+1 : n+1]
	} else {
		vals = []string{x}
	}
	h.put(name, vals)
	return nil
}

func (h *outHeaders) put(name string, vals []string) {
	lower := lowerASCII(name)
	if i := h.find(lower); i >= 0 {
		(*h)[i] = outHeader{name: name, lower: lower, values: vals}
		return
	}
	*h = append(*h, outHeader{name: name, lower: lower, values: vals})
}

func (h *outHeaders) remove(name string) {
	if i := h.find(lowerASCII(name)); i >= 0 {
		*h = append((*h)[:i], (*h)[i+1:]...)
	}
}

func (h outHeaders) get(name string) any {
	i := h.find(lowerASCII(name))
	if i < 0 {
		return nil
	}
	if len(h[i].values) == 1 && h[i].lower != "set-cookie" {
		return h[i].values[0]
	}
	return append([]string(nil), h[i].values...)
}

func (h outHeaders) all() map[string]any {
	m := make(map[string]any, len(h))
	for _, f := range h {
		m[f.lower] = h.get(f.lower)
	}
	return m
}

func (h outHeaders) names() []string {
	n := make([]string, len(h))
	for i, f := range h {
		n[i] = f.lower
	}
	return n
}

func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !tokenByte[s[i]] {
			return false
		}
	}
	return true
}

// tokenByte holds the bytes of an HTTP token (RFC 9110 tchar).
var tokenByte = func() (t [256]bool) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = strings.IndexByte("\"(),/:;<=>?@[\\]{}", byte(c)) < 0
	}
	return t
}()

func validFieldValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

func errInvalidToken(name string) error {
	return &nodenet.Error{Code: "ERR_INVALID_HTTP_TOKEN", Message: "Header name must be a valid HTTP token [\"" + name + "\"]"}
}

func errInvalidChar(name string) error {
	return &nodenet.Error{Code: "ERR_INVALID_CHAR", Message: "Invalid character in header content [\"" + name + "\"]"}
}

func errInvalidValue(name, v string) error {
	return &nodenet.Error{Code: "ERR_HTTP_INVALID_HEADER_VALUE", Message: "Invalid value \"" + v + "\" for header \"" + name + "\""}
}
