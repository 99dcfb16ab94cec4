package target

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseError reports a malformed target path and where the problem is.
type ParseError struct {
	// Expr is the path as written.
	Expr string
	// Column is the 1-based column, counted in characters, of the problem.
	Column int
	// Msg says what is wrong.
	Msg string
}

// Error implements error.
func (e *ParseError) Error() string {
	return fmt.Sprintf("invalid target path %q: column %d: %s", e.Expr, e.Column, e.Msg)
}

// Parse parses a target path such as result.content[0].text. Errors are
// *ParseError values that name the column of the problem.
func Parse(expr string) (Path, error) {
	// An empty target is the whole response envelope: {"result": ...} or
	// {"error": ...}, as matchers like cel expect.
	if strings.TrimSpace(expr) == "" {
		return Path{}, nil
	}
	p := parser{expr: expr}
	segs, err := p.parse()
	if err != nil {
		return Path{}, err
	}
	return Path{segs: segs}, nil
}

// MustParse is like Parse but panics on error. It is meant for paths that
// are constants in code.
func MustParse(expr string) Path {
	p, err := Parse(expr)
	if err != nil {
		panic(err)
	}
	return p
}

// parser is the state of one Parse call; pos is a byte offset into expr.
type parser struct {
	expr string
	pos  int
}

func (p *parser) errorf(at int, format string, args ...any) error {
	return &ParseError{Expr: p.expr, Column: utf8.RuneCountInString(p.expr[:at]) + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parse() ([]Segment, error) {
	if strings.TrimSpace(p.expr) == "" {
		return nil, p.errorf(0, "empty path")
	}
	var segs []Segment
	for p.pos < len(p.expr) {
		start := p.pos
		c := p.expr[p.pos]
		var (
			seg Segment
			err error
		)
		switch {
		case c == '[':
			seg, err = p.bracket()
		case c == '.':
			if len(segs) == 0 {
				return nil, p.errorf(start, "path cannot start with \".\"; write the first key without it")
			}
			p.pos++
			seg, err = p.key(true)
		case len(segs) == 0:
			seg, err = p.key(false)
		default:
			return nil, p.errorf(start, "expected \".\" or \"[\" after %q, found %s", renderPrefix(segs, len(segs)), p.describeAt(start))
		}
		if err != nil {
			return nil, err
		}
		segs = append(segs, seg)
	}
	return segs, nil
}

// key reads an unquoted key at p.pos.
func (p *parser) key(afterDot bool) (Segment, error) {
	start := p.pos
	for p.pos < len(p.expr) {
		r, size := utf8.DecodeRuneInString(p.expr[p.pos:])
		if !isKeyRune(r) {
			break
		}
		p.pos += size
	}
	if p.pos == start {
		if afterDot {
			return Segment{}, p.errorf(start, "expected a key after \".\", found %s", p.describeAt(start))
		}
		return Segment{}, p.errorf(start, "expected a key or \"[\", found %s", p.describeAt(start))
	}
	return Segment{Key: p.expr[start:p.pos]}, nil
}

// bracket reads [index], ["key"] or ['key'] at p.pos.
func (p *parser) bracket() (Segment, error) {
	open := p.pos
	p.pos++ // '['
	if p.pos >= len(p.expr) {
		return Segment{}, p.errorf(open, "unclosed \"[\"")
	}
	var seg Segment
	switch c := p.expr[p.pos]; {
	case c == '"' || c == '\'':
		key, err := p.quoted(c)
		if err != nil {
			return Segment{}, err
		}
		seg = Segment{Key: key}
	case c == '-' || (c >= '0' && c <= '9'):
		idx, err := p.index()
		if err != nil {
			return Segment{}, err
		}
		seg = Segment{Index: idx, IsIndex: true}
	case c == '*':
		return Segment{}, p.errorf(p.pos, "wildcards are not supported; use an index such as [0] or [-1]")
	default:
		return Segment{}, p.errorf(p.pos, "expected an index or a quoted key after \"[\", found %s", p.describeAt(p.pos))
	}
	if p.pos >= len(p.expr) {
		return Segment{}, p.errorf(open, "unclosed \"[\"")
	}
	if p.expr[p.pos] != ']' {
		return Segment{}, p.errorf(p.pos, "expected \"]\", found %s", p.describeAt(p.pos))
	}
	p.pos++
	return seg, nil
}

// index reads an optionally negative decimal integer at p.pos.
func (p *parser) index() (int, error) {
	start := p.pos
	if p.expr[p.pos] == '-' {
		p.pos++
	}
	digits := p.pos
	for p.pos < len(p.expr) && p.expr[p.pos] >= '0' && p.expr[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == digits {
		return 0, p.errorf(p.pos, "expected digits after \"-\", found %s", p.describeAt(p.pos))
	}
	n, err := strconv.Atoi(p.expr[start:p.pos])
	if err != nil {
		return 0, p.errorf(start, "index %s is out of range", p.expr[start:p.pos])
	}
	return n, nil
}

// quoted reads a string quoted with q at p.pos and returns its value.
func (p *parser) quoted(q byte) (string, error) {
	start := p.pos
	p.pos++ // opening quote
	for p.pos < len(p.expr) {
		switch p.expr[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case q:
			p.pos++
			return p.unquote(start, p.expr[start:p.pos], q)
		}
		p.pos++
	}
	return "", p.errorf(start, "unterminated quoted key")
}

// unquote decodes lit, a quoted literal starting at byte offset at.
func (p *parser) unquote(at int, lit string, q byte) (string, error) {
	if q == '"' {
		var s string
		if err := json.Unmarshal([]byte(lit), &s); err != nil {
			return "", p.errorf(at, "invalid quoted key %s: use JSON string escapes", lit)
		}
		return s, nil
	}
	var b strings.Builder
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\\' {
			if i+1 < len(body) && (body[i+1] == '\'' || body[i+1] == '\\') {
				b.WriteByte(body[i+1])
				i++
				continue
			}
			return "", p.errorf(at+1+i, "invalid escape in single-quoted key: only \\' and \\\\ are allowed")
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// describeAt names the character at byte offset i for error messages.
func (p *parser) describeAt(i int) string {
	if i >= len(p.expr) {
		return "end of path"
	}
	r, _ := utf8.DecodeRuneInString(p.expr[i:])
	if unicode.IsSpace(r) {
		return fmt.Sprintf("whitespace %q", r)
	}
	return fmt.Sprintf("%q", r)
}
