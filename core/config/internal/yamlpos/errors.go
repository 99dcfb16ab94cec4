package yamlpos

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrInvalidSuite is matched by errors.Is for every error Load and
// LoadFiles return, whatever its cause (missing file, YAML syntax, schema).
var ErrInvalidSuite = errors.New("invalid suite")

// Error is one problem found in a suite file. Line and Col are 1-based and
// 0 when the problem has no position (an unreadable file). Pointer is the
// JSON pointer of the offending field ("" for the whole document), Msg
// says what was expected and what was found, and Hint, when set, suggests
// a fix.
type Error struct {
	File      string
	Line, Col int
	Pointer   string
	Msg       string
	Hint      string

	// Cause is the underlying error (I/O, YAML syntax), reached through
	// Unwrap; it is not part of the JSON form.
	Cause error `json:"-"`
}

// Error formats the error as "file:line:col: pointer: msg (hint)", leaving
// out the parts that are empty.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	b.WriteString(": ")
	if e.Pointer != "" {
		b.WriteString(e.Pointer)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString(" (")
		b.WriteString(e.Hint)
		b.WriteByte(')')
	}
	return b.String()
}

// Is reports whether target is ErrInvalidSuite.
func (e *Error) Is(target error) bool { return target == ErrInvalidSuite }

// Unwrap returns the underlying error, such as the *fs.PathError of a file
// that could not be read, or nil.
func (e *Error) Unwrap() error { return e.Cause }

// Errors is every problem found in one or more suite files, sorted by file
// and then by line and column.
type Errors []*Error

// Error formats the errors one per line.
func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Is reports whether target is ErrInvalidSuite.
func (es Errors) Is(target error) bool { return target == ErrInvalidSuite }

// Unwrap returns the individual errors, so errors.As can reach an *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Collector gathers the errors and warnings of one file.
type Collector struct {
	File  string // the path shown in errors
	Errs  Errors // in the order found; Sorted sorts them
	Warns Errors
}

// Warn records a warning located at node n.
func (c *Collector) Warn(n *yaml.Node, ptr, msg, hint string) {
	e := &Error{File: c.File, Pointer: ptr, Msg: msg, Hint: hint}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	c.Warns = append(c.Warns, e)
}

// Add records an error located at node n (the line and column of n; none
// when n is nil).
func (c *Collector) Add(n *yaml.Node, ptr, msg, hint string) {
	e := &Error{File: c.File, Pointer: ptr, Msg: msg, Hint: hint}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	c.Errs = append(c.Errs, e)
}

// Sorted returns the errors sorted by position, without duplicates. The
// same content reached through several aliases yields the same error more
// than once (with different pointers); only the first one reached is kept.
func (c *Collector) Sorted() Errors { return SortErrors(c.Errs) }

// SortErrors sorts es by position, without duplicates.
func SortErrors(es Errors) Errors {
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Msg, b.Msg),
			cmp.Compare(a.Hint, b.Hint),
		)
	})
	return slices.CompactFunc(es, func(a, b *Error) bool {
		return a.Line == b.Line && a.Col == b.Col && a.Msg == b.Msg && a.Hint == b.Hint
	})
}
