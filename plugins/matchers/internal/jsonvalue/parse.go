package jsonvalue

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// maxFastDepth is the deepest nesting parseFast reads; deeper values go to
// encoding/json, which has its own limit and error.
const maxFastDepth = 128

// parseFast parses t (trimmed of white space) as exactly one JSON value
// when every string in it is plain (see plainString), building what the
// Decoder with UseNumber builds: map[string]any (the last of duplicate
// keys wins), []any (empty, not nil, for []), json.Number, string, bool
// and nil. It reports false on anything else, valid or not (an escape, bad
// UTF-8, deep nesting, any syntax error), and the caller then hands t to
// encoding/json, so results and errors stay the Decoder's
// (TestDecodeFastPathsMatchDecoder and FuzzDecodeFastPaths compare the two).
//
// Structured tool results are objects of short fields; encoding/json reads
// each through reflection after a separate validity scan.
func parseFast(t []byte) (any, bool) {
	p := parser{b: t}
	v, ok := p.value(0)
	if !ok || p.i != len(p.b) {
		return nil, false
	}
	return v, true
}

// parser reads b from i.
type parser struct {
	b []byte
	i int
}

func (p *parser) skipSpace() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

// value reads one value after optional white space.
func (p *parser) value(depth int) (any, bool) {
	p.skipSpace()
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, ok := p.str()
		return s, ok
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, false
}

// str reads a plain string at p.i (a quote).
func (p *parser) str() (string, bool) {
	start := p.i + 1
	ascii := true
	for j := start; j < len(p.b); j++ {
		c := p.b[j]
		if plainByte[c] {
			continue
		}
		if c == '"' {
			body := p.b[start:j]
			if !ascii && !utf8.Valid(body) {
				return "", false
			}
			p.i = j + 1
			return string(body), true
		}
		if c < 0x20 || c == '\\' {
			return "", false
		}
		ascii = false
	}
	return "", false
}

// number reads a number. It takes every byte a number can hold, so a
// malformed one fails validNumber rather than being cut short; in valid
// JSON a number is never followed by one of those bytes.
func (p *parser) number() (any, bool) {
	j := p.i
	for j < len(p.b) {
		c := p.b[j]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			j++
			continue
		}
		break
	}
	if !validNumber(p.b[p.i:j]) {
		return nil, false
	}
	n := json.Number(p.b[p.i:j])
	p.i = j
	return n, true
}

func (p *parser) literal(word string, v any) (any, bool) {
	if !bytes.HasPrefix(p.b[p.i:], []byte(word)) {
		return nil, false
	}
	p.i += len(word)
	return v, true
}

// object reads an object at p.i (an opening brace).
func (p *parser) object(depth int) (any, bool) {
	if depth > maxFastDepth {
		return nil, false
	}
	p.i++
	m := make(map[string]any)
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return m, true
	}
	for {
		p.skipSpace()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.skipSpace()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, false
		}
		p.i++
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		m[k] = v
		p.skipSpace()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, true
		default:
			return nil, false
		}
	}
}

// array reads an array at p.i (an opening bracket).
func (p *parser) array(depth int) (any, bool) {
	if depth > maxFastDepth {
		return nil, false
	}
	p.i++
	a := make([]any, 0)
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return a, true
	}
	for {
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		p.skipSpace()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return a, true
		default:
			return nil, false
		}
	}
}
