package yamlpos

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// yamlErrPrefix matches the "yaml: line N: " prefix of yaml.v3 errors.
var yamlErrPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: (?:line (\d+): )?`) })

// SyntaxError turns a yaml.v3 parse error into an *Error with the line and
// column of the problem.
//
// yaml.v3 reports no column, and its line is often that of the enclosing
// block rather than the offending token (and is missing on the first
// line). The parser is deterministic and reads left to right, so the
// problem sits at the end of the shortest prefix of the input that fails
// with the same message: a binary search over prefix lengths finds it.
// This only runs for files that do not parse.
func SyntaxError(file string, data []byte, err error) *Error {
	full := err.Error()
	msg := yamlErrPrefix().ReplaceAllString(full, "")
	reported := 0
	if m := yamlErrPrefix().FindStringSubmatch(full); m != nil && m[1] != "" {
		reported, _ = strconv.Atoi(m[1])
	}
	off := problemOffset(data, msg, reported)
	if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		// Point at the start of the alias, not its last character.
		name = strings.TrimSuffix(name, "' referenced")
		if i := bytes.LastIndex(data[:min(off+1, len(data))], []byte("*"+name)); i >= 0 {
			off = i
		}
	}
	line, col := lineCol(data, off)
	return &Error{File: file, Line: line, Col: col, Msg: "invalid YAML: " + msg,
		Hint: syntaxHint(data, off, msg), Cause: err}
}

// problemOffset returns the byte offset of the problem: the last byte of
// the shortest prefix of data that fails to parse with message msg.
func problemOffset(data []byte, msg string, reportedLine int) int {
	fails := func(n int) bool {
		err := parseAll(data[:n])
		return err != nil && yamlErrPrefix().ReplaceAllString(err.Error(), "") == msg
	}
	// The reported line (possibly off by one) is never after the problem:
	// start there when it holds, to keep the search short in big files.
	lo := 0
	if reportedLine > 2 {
		lo = lineStart(data, reportedLine-2)
		if fails(lo) {
			lo = 0
		}
	}
	hi := len(data)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return max(0, min(hi-1, len(data)-1))
}

// parseAll parses every document of data, returning the first error.
func parseAll(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// lineStart returns the offset of the first byte of 1-based line n.
func lineStart(data []byte, n int) int {
	off := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data[off:], '\n')
		if j < 0 {
			return off
		}
		off += j + 1
	}
	return off
}

// lineCol converts a byte offset to a 1-based line and column, the column
// counted in characters like yaml.v3 does.
func lineCol(data []byte, off int) (line, col int) {
	if len(data) == 0 {
		return 1, 1
	}
	off = min(max(off, 0), len(data))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(data[start:off]) + 1
}

// syntaxHint suggests a fix for the common syntax errors.
func syntaxHint(data []byte, off int, msg string) string {
	if off < len(data) && data[off] == '\t' {
		return "YAML does not allow tabs for indentation; use spaces"
	}
	switch {
	case strings.Contains(msg, "mapping values are not allowed"):
		return `quote a value that contains ": ", or check the indentation`
	case strings.Contains(msg, "did not find expected key"),
		strings.Contains(msg, "did not find expected '-' indicator"):
		return "check the indentation of this line"
	case strings.Contains(msg, "did not find expected ',' or '}'"),
		strings.Contains(msg, "did not find expected ',' or ']'"):
		return `inside { } or [ ], quote a value that contains brackets or commas, such as "result.content[0].text"`
	case strings.Contains(msg, "found unexpected end of stream"):
		return "a quote or bracket opened here is never closed"
	}
	return ""
}
