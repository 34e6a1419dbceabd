package nodehttp

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/uvgo/uvgo/http1"
	"github.com/uvgo/uvgo/internal/sock"
	"github.com/uvgo/uvgo/nodenet"
)

// Errors are *nodenet.Error values with Node's code and message; these sentinels match by
// code with errors.Is.
var (
	// ErrHeadersSent: a header change after the head was sent (ERR_HTTP_HEADERS_SENT).
	ErrHeadersSent = &nodenet.Error{Code: "ERR_HTTP_HEADERS_SENT", Message: "Cannot set headers after they are sent to the client"}
	// ErrWriteAfterEnd: write or end with data after end (ERR_STREAM_WRITE_AFTER_END).
	ErrWriteAfterEnd = &nodenet.Error{Code: "ERR_STREAM_WRITE_AFTER_END", Message: "write after end"}
	// ErrSocketHangUp: the connection ended before a response came (ECONNRESET).
	ErrSocketHangUp = &nodenet.Error{Code: "ECONNRESET", Message: "socket hang up"}
	// ErrAborted: the connection closed in the middle of a message (ECONNRESET).
	ErrAborted = &nodenet.Error{Code: "ECONNRESET", Message: "aborted"}
	// ErrServerNotRunning: Close of a server that is not listening.
	ErrServerNotRunning = nodenet.ErrServerNotRunning
)

// connReset is Node's ConnResetException: code ECONNRESET with the given message.
func connReset(msg string) *nodenet.Error {
	return &nodenet.Error{Code: "ECONNRESET", Message: msg}
}

func errInvalidStatus(code int) error {
	return &nodenet.Error{Code: "ERR_HTTP_INVALID_STATUS_CODE", Message: fmt.Sprintf("Invalid status code: %d", code)}
}

// parseErrors are Node's parser code and message for each http1 refusal; the others get
// HPE_INVALID_METHOD, "Invalid method encountered".
var parseErrors = map[*http1.Error]struct{ code, msg string }{
	http1.ErrTarget:           {"HPE_INVALID_URL", "Invalid URL"},
	http1.ErrVersion:          {"HPE_INVALID_VERSION", "Invalid HTTP version"},
	http1.ErrStatusLine:       {"HPE_INVALID_VERSION", "Invalid HTTP version"},
	http1.ErrHeaderName:       {"HPE_INVALID_HEADER_TOKEN", "Invalid header token"},
	http1.ErrHeaderValue:      {"HPE_INVALID_HEADER_TOKEN", "Invalid header value char"},
	http1.ErrLineEnd:          {"HPE_LF_EXPECTED", "Missing expected LF after header value"},
	http1.ErrObsFold:          {"HPE_INVALID_HEADER_TOKEN", "Unexpected whitespace after header value"},
	http1.ErrHeaderTooLarge:   {"HPE_HEADER_OVERFLOW", "Header overflow"},
	http1.ErrTooManyHeaders:   {"HPE_HEADER_OVERFLOW", "Header overflow"},
	http1.ErrURITooLong:       {"HPE_HEADER_OVERFLOW", "Header overflow"},
	http1.ErrContentLength:    {"HPE_INVALID_CONTENT_LENGTH", "Invalid character in Content-Length"},
	http1.ErrFraming:          {"HPE_UNEXPECTED_CONTENT_LENGTH", "Content-Length can't be present with Transfer-Encoding"},
	http1.ErrTransferEncoding: {"HPE_INVALID_TRANSFER_ENCODING", "Invalid `Transfer-Encoding` header value"},
	http1.ErrChunk:            {"HPE_INVALID_CHUNK_SIZE", "Invalid character in chunk size"},
	http1.ErrBodyTooLarge:     {"HPE_BODY_TOO_LARGE", "Body exceeds the server's MaxBodySize"},
	http1.ErrHost:             {"HPE_INVALID_HOST", "Missing, repeated or invalid Host"},
	http1.ErrExpectation:      {"HPE_INVALID_EXPECTATION", "Unsupported Expect value"},
	http1.ErrIncomplete:       {"HPE_INVALID_EOF_STATE", "Invalid EOF state"},
	http1.ErrAfterClose:       {"HPE_CLOSED_CONNECTION", "Data after `Connection: close`"},
	// Node's parser stops with this after a request listener threw (node v20, with an
	// 'uncaughtException' listener): the next bytes on the connection are its clientError.
	http1.ErrAfterPanic: {"HPE_CB_HEADERS_COMPLETE", "User callback error"},
}

// parseError turns an http1 refusal into Node's parser error ("HPE_*" code, "Parse Error:"
// message) or its request timeout.
func parseError(err error) *nodenet.Error {
	var he *http1.Error
	if !errors.As(err, &he) {
		return &nodenet.Error{Code: "HPE_INTERNAL", Message: "Parse Error: " + err.Error(), Err: err}
	}
	switch he.Status {
	case 408:
		return &nodenet.Error{Code: "ERR_HTTP_REQUEST_TIMEOUT", Message: "Request timeout", Err: err}
	case 503:
		return &nodenet.Error{Code: "ERR_HTTP_SERVER_OVERLOADED", Message: "Server buffers full", Err: err}
	}
	e, ok := parseErrors[he]
	if !ok {
		e.code, e.msg = "HPE_INVALID_METHOD", "Invalid method encountered"
	}
	return &nodenet.Error{Code: e.code, Message: "Parse Error: " + e.msg, Err: err}
}

// responseErrors are Node's codes and messages for the client's parser where llhttp words
// a response's faults otherwise than a request's.
var responseErrors = map[*http1.Error]struct{ code, msg string }{
	http1.ErrFraming:         {"HPE_INVALID_CONTENT_LENGTH", "Content-Length can't be present with Transfer-Encoding"},
	http1.ErrDuplicateLength: {"HPE_UNEXPECTED_CONTENT_LENGTH", "Duplicate Content-Length"},
	http1.ErrNotHTTP:         {"HPE_INVALID_CONSTANT", "Expected HTTP/, RTSP/ or ICE/"},
	http1.ErrStatusCode:      {"HPE_INVALID_STATUS", "Invalid status code"},
}

// responseParseError is parseError for the client's response parser.
func responseParseError(err error) *nodenet.Error {
	var he *http1.Error
	if errors.As(err, &he) {
		if e, ok := responseErrors[he]; ok {
			return &nodenet.Error{Code: e.code, Message: "Parse Error: " + e.msg, Err: err}
		}
	}
	return parseError(err)
}

func toString(v any) string { return fmt.Sprint(v) }

// errnoName is the errno's name in err ("EADDRINUSE"), or "UNKNOWN".
func errnoName(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if n := sock.ErrnoName(errno); n != "" {
			return n
		}
	}
	return "UNKNOWN"
}
