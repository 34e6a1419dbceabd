package nodefs

import (
	"strconv"
	"strings"
)

// The argument checks Node's fs makes before it calls into libuv, with its codes and
// messages. What they refuse, the call returns (Node throws synchronously), and its callback
// never runs.

// maxSafeInteger is Number.MAX_SAFE_INTEGER, the bound of positions and offsets.
const maxSafeInteger = 1<<53 - 1

// errNoCallback is what Node throws for a missing callback (maybeCallback).
var errNoCallback = argError("ERR_INVALID_ARG_TYPE", `The "cb" argument must be of type function. Received undefined`)

// outOfRange is ERR_OUT_OF_RANGE: `The value of "name" is out of range. It must be rng.
// Received n`.
func outOfRange(name, rng string, n int64) *Error {
	return argError("ERR_OUT_OF_RANGE", `The value of "`+name+`" is out of range. It must be `+rng+". Received "+jsInteger(n))
}

// checkFd is Node's getValidatedFd: an int32 >= 0.
func checkFd(fd int) error {
	if fd < 0 || fd > 1<<31-1 {
		return outOfRange("fd", ">= 0 && <= 2147483647", int64(fd))
	}
	return nil
}

// checkInteger is validateInteger(n, name, min) with Node's safe-integer bound.
func checkInteger(name string, n, min int64) error {
	if n < min || n > maxSafeInteger {
		return outOfRange(name, ">= "+jsInteger(min)+" && <= 9007199254740991", n)
	}
	return nil
}

// checkEncoding is assertEncoding of fs's options: ERR_INVALID_ARG_VALUE for an unknown name.
func checkEncoding(enc string) (string, error) {
	e, ok := normEncoding(enc)
	if !ok {
		return "", argError("ERR_INVALID_ARG_VALUE", "The argument 'encoding' is invalid encoding. Received '"+enc+"'")
	}
	return e, nil
}

// jsInteger prints n as Node prints a number in an ERR_OUT_OF_RANGE message: shortest
// round-trip digits of the double, with "_" between groups of three above 2**32
// (addNumericalSeparator).
func jsInteger(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n > 1<<53 || n < -(1<<53) { // not exact as a double: JavaScript prints the shortest digits
		m, exp, _ := strings.Cut(strconv.FormatFloat(float64(n), 'e', -1, 64), "e")
		e, _ := strconv.Atoi(exp)
		neg := strings.HasPrefix(m, "-")
		digits := strings.Replace(strings.TrimPrefix(m, "-"), ".", "", 1)
		s = digits + strings.Repeat("0", e+1-len(digits))
		if neg {
			s = "-" + s
		}
	}
	if n <= 1<<32 && n >= -(1<<32) {
		return s
	}
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte('_')
		}
		b.WriteByte(s[i])
	}
	return sign + b.String()
}

// checkReadArgs is fs.read's validation, in Node's order: offset, length (a zero length is
// not an error: the read is skipped), an empty buffer, offset+length within the buffer, and
// the position (-1 for the file's position, else >= 0).
func checkReadArgs(bufLen, offset, length int, position int64) error {
	if err := checkInteger("offset", int64(offset), 0); err != nil {
		return err
	}
	if length == 0 {
		return nil
	}
	if bufLen == 0 {
		return argError("ERR_INVALID_ARG_VALUE", "The argument 'buffer' is empty and cannot be written. Received <Buffer >")
	}
	if length < 0 {
		return outOfRange("length", ">= 0", int64(length))
	}
	if offset+length > bufLen {
		return outOfRange("length", "<= "+strconv.Itoa(bufLen-offset), int64(length))
	}
	return checkInteger("position", position, -1)
}

// checkWriteArgs is fs.write's validation of a buffer: offset, then offset and length within
// the buffer. Any position is accepted: a negative one writes at the file's position.
func checkWriteArgs(bufLen, offset, length int) error {
	if err := checkInteger("offset", int64(offset), 0); err != nil {
		return err
	}
	if offset > bufLen {
		return outOfRange("offset", "<= "+strconv.Itoa(bufLen), int64(offset))
	}
	if length > bufLen-offset {
		return outOfRange("length", "<= "+strconv.Itoa(bufLen-offset), int64(length))
	}
	if length < 0 {
		return outOfRange("length", ">= 0", int64(length))
	}
	return nil
}

// errModeRange is what Node's copyFile and access throw for a mode outside 0..7.
var errModeRange = argError("ERR_OUT_OF_RANGE", "mode is out of range: >= 0 && <= 7")
