package sse

import (
	"bytes"
	"strconv"
)

// Field splits a non-blank line into a field name and value. A line that
// starts with ':' is a comment: comment is true and value is its text
// after the colon and one optional space. A line without a colon is a
// field with an empty value; otherwise one space after the colon is not
// part of the value.
func Field(line []byte) (name, value []byte, comment bool) {
	if len(line) > 0 && line[0] == ':' {
		return nil, bytes.TrimPrefix(line[1:], []byte(" ")), true
	}
	name = line
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], bytes.TrimPrefix(line[i+1:], []byte(" "))
	}
	return name, value, false
}

// ValidID reports whether an id field's value may set the last event id:
// the standard ignores an id that contains NUL.
func ValidID(value []byte) bool { return bytes.IndexByte(value, 0) < 0 }

// Retry parses a retry field's value in milliseconds: only ASCII digits
// count, as the standard says, and a number too large for an int64 is
// refused. Callers apply their own upper bound.
func Retry(value []byte) (int64, bool) {
	if len(value) == 0 {
		return 0, false
	}
	for _, c := range value {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(value), 10, 64)
	return n, err == nil
}
