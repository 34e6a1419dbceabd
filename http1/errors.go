package http1

// Error is a request the server must refuse: Status is the HTTP status to answer with
// before closing the connection (400, 413, 414, 417, 431, 501 or 505).
type Error struct {
	Status int
	Reason string
}

func (e *Error) Error() string { return "http1: " + e.Reason }

// The errors Parse returns. They are values: the parser formats and allocates nothing.
var (
	ErrMalformed        = &Error{400, "malformed request"}
	ErrRequestLine      = &Error{400, "malformed request line"}
	ErrStatusLine       = &Error{400, "malformed status line"}
	ErrIncomplete       = &Error{400, "message cut short by the end of the stream"}
	ErrMethod           = &Error{400, "invalid method"}
	ErrTarget           = &Error{400, "invalid request target"}
	ErrHeaderName       = &Error{400, "invalid header name"}
	ErrHeaderValue      = &Error{400, "invalid header value"}
	ErrLineEnd          = &Error{400, "line not ended by CRLF"}
	ErrObsFold          = &Error{400, "obsolete line folding"}
	ErrHost             = &Error{400, "missing, repeated or invalid Host"}
	ErrContentLength    = &Error{400, "invalid Content-Length"}
	ErrFraming          = &Error{400, "both Transfer-Encoding and Content-Length"}
	ErrChunk            = &Error{400, "malformed chunked body"}
	ErrBodyTooLarge     = &Error{413, "body too large"}
	ErrURITooLong       = &Error{414, "request line too long"}
	ErrExpectation      = &Error{417, "unsupported expectation"}
	ErrHeaderTooLarge   = &Error{431, "header section too large"}
	ErrTooManyHeaders   = &Error{431, "too many header fields"}
	ErrTransferEncoding = &Error{501, "unsupported Transfer-Encoding"}
	ErrVersion          = &Error{505, "unsupported HTTP version"}
)

// ErrNotHTTP and ErrStatusCode refuse a response (a client's parser, ExpectResponse) that
// does not begin with "HTTP/", and one whose status is not three digits.
var (
	ErrNotHTTP    = &Error{400, "not an HTTP response"}
	ErrStatusCode = &Error{400, "malformed status code"}
)

// ErrDuplicateLength refuses a response with more than one Content-Length field (a client's
// parser, ExpectResponse), equal or not, as llhttp does.
var ErrDuplicateLength = &Error{400, "repeated Content-Length"}

// ErrAfterClose refuses the bytes that follow a request that closes the connection, under
// RefuseAfterClose.
var ErrAfterClose = &Error{400, "data after a request that closes the connection"}

// ErrAfterPanic refuses the bytes that follow a request whose handler panicked (see Handler).
var ErrAfterPanic = &Error{400, "request after a handler panicked"}

// StatusText returns the reason phrase the server sends with status, or "" for a status it
// does not know.
func StatusText(status int) string {
	switch status {
	case 100:
		return "Continue"
	case 101:
		return "Switching Protocols"
	case 200:
		return "OK"
	case 201:
		return "Created"
	case 202:
		return "Accepted"
	case 204:
		return "No Content"
	case 206:
		return "Partial Content"
	case 301:
		return "Moved Permanently"
	case 302:
		return "Found"
	case 303:
		return "See Other"
	case 304:
		return "Not Modified"
	case 307:
		return "Temporary Redirect"
	case 308:
		return "Permanent Redirect"
	case 400:
		return "Bad Request"
	case 401:
		return "Unauthorized"
	case 403:
		return "Forbidden"
	case 404:
		return "Not Found"
	case 405:
		return "Method Not Allowed"
	case 408:
		return "Request Timeout"
	case 409:
		return "Conflict"
	case 410:
		return "Gone"
	case 411:
		return "Length Required"
	case 413:
		return "Content Too Large"
	case 414:
		return "URI Too Long"
	case 415:
		return "Unsupported Media Type"
	case 417:
		return "Expectation Failed"
	case 426:
		return "Upgrade Required"
	case 429:
		return "Too Many Requests"
	case 431:
		return "Request Header Fields Too Large"
	case 500:
		return "Internal Server Error"
	case 501:
		return "Not Implemented"
	case 502:
		return "Bad Gateway"
	case 503:
		return "Service Unavailable"
	case 504:
		return "Gateway Timeout"
	case 505:
		return "HTTP Version Not Supported"
	}
	return ""
}
