package nodehttp

import (
	"syscall"

	"errors"
	"fmt"
	"github.com/uvgo/uvgo/internal/sock"

	"github.com/uvgo/uvgo/http1"
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

// parseError turns an http1 refusal into Node's parser error ("HPE_*" code, "Parse Error:"
// message) or its request timeout.
func parseError(err error) *nodenet.Error {
	var he *http1.Error
	if !errors.As(err, &he) {
		return &nodenet.Error{Code: "HPE_INTERNAL", Message: "Parse Error: " + err.Error(), Err: err}
	}
	code, msg := "HPE_INVALID_METHOD", "Invalid method encountered"
	switch he {
	case http1.ErrTarget:
		code, msg = "HPE_INVALID_URL", "Invalid URL"
	case http1.ErrVersion, http1.ErrStatusLine:
		code, msg = "HPE_INVALID_VERSION", "Invalid HTTP version"
	case http1.ErrHeaderName:
		code, msg = "HPE_INVALID_HEADER_TOKEN", "Invalid header token"
	case http1.ErrHeaderValue:
		code, msg = "HPE_INVALID_HEADER_TOKEN", "Invalid header value char"
	case http1.ErrLineEnd:
		code, msg = "HPE_LF_EXPECTED", "Missing expected LF after header value"
	case http1.ErrObsFold:
		code, msg = "HPE_INVALID_HEADER_TOKEN", "Unexpected whitespace after header value"
	case http1.ErrHeaderTooLarge, http1.ErrTooManyHeaders, http1.ErrURITooLong:
		code, msg = "HPE_HEADER_OVERFLOW", "Header overflow"
	case http1.ErrContentLength:
		code, msg = "HPE_INVALID_CONTENT_LENGTH", "Invalid character in Content-Length"
	case http1.ErrFraming:
		code, msg = "HPE_UNEXPECTED_CONTENT_LENGTH", "Content-Length can't be present with Transfer-Encoding"
	case http1.ErrTransferEncoding:
		code, msg = "HPE_INVALID_TRANSFER_ENCODING", "Invalid `Transfer-Encoding` header value"
	case http1.ErrChunk:
		code, msg = "HPE_INVALID_CHUNK_SIZE", "Invalid character in chunk size"
	case http1.ErrBodyTooLarge:
		code, msg = "HPE_BODY_TOO_LARGE", "Body exceeds the server's MaxBodySize"
	case http1.ErrHost:
		code, msg = "HPE_INVALID_HOST", "Missing, repeated or invalid Host"
	case http1.ErrExpectation:
		code, msg = "HPE_INVALID_EXPECTATION", "Unsupported Expect value"
	case http1.ErrIncomplete:
		code, msg = "HPE_INVALID_EOF_STATE", "Invalid EOF state"
	}
	if he.Status == 408 {
		return &nodenet.Error{Code: "ERR_HTTP_REQUEST_TIMEOUT", Message: "Request timeout", Err: err}
	}
	if he.Status == 503 {
		return &nodenet.Error{Code: "ERR_HTTP_SERVER_OVERLOADED", Message: "Server buffers full", Err: err}
	}
	return &nodenet.Error{Code: code, Message: "Parse Error: " + msg, Err: err}
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
