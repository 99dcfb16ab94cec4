package jsonx

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode parses a JSON value into the shapes encoding/json gives an any
// (map[string]any, []any, string, bool, nil) with numbers as json.Number,
// so that big integers and decimals keep their digits.
//
// Every test decodes its response, so this is on the hot path of a run:
// valid input (the common case, checked without allocating) is parsed in
// place, without the copy of the whole input a json.Decoder makes and with
// one allocation per string. Invalid input goes through encoding/json for
// its error message.
func Decode(raw json.RawMessage) (any, error) {
	if !json.Valid(raw) {
		return DecodeSlow(raw)
	}
	p := valueParser{data: raw}
	return p.value(), nil
}

// DecodeSlow is decode through encoding/json.
func DecodeSlow(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// valueParser reads one JSON value from data, which json.Valid accepted:
// it needs no error paths, and its recursion is as deep as the input,
// which the validator capped.
type valueParser struct {
	data []byte
	pos  int
}

func (p *valueParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *valueParser) value() any {
	p.skipSpace()
	switch c := p.data[p.pos]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return p.str()
	case 't':
		p.pos += len("true")
		return true
	case 'f':
		p.pos += len("false")
		return false
	case 'n':
		p.pos += len("null")
		return nil
	default:
		return p.number()
	}
}

func (p *valueParser) object() map[string]any {
	p.pos++ // {
	m := map[string]any{}
	p.skipSpace()
	if p.data[p.pos] == '}' {
		p.pos++
		return m
	}
	for {
		p.skipSpace()
		k := p.str()
		p.skipSpace()
		p.pos++ // :
		m[k] = p.value()
		p.skipSpace()
		c := p.data[p.pos]
		p.pos++ // , or }
		if c == '}' {
			return m
		}
	}
}

func (p *valueParser) array() []any {
	p.pos++ // [
	out := []any{}
	p.skipSpace()
	if p.data[p.pos] == ']' {
		p.pos++
		return out
	}
	for {
		out = append(out, p.value())
		p.skipSpace()
		c := p.data[p.pos]
		p.pos++ // , or ]
		if c == ']' {
			return out
		}
	}
}

func (p *valueParser) number() json.Number {
	start := p.pos
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			p.pos++
			continue
		}
		break
	}
	return json.Number(p.data[start:p.pos])
}

// str reads a string. One with no escapes and valid UTF-8 is copied once;
// others are unescaped as encoding/json does (invalid UTF-8 becomes
// U+FFFD, a lone surrogate escape too).
func (p *valueParser) str() string {
	p.pos++ // opening quote
	start := p.pos
	simple := true
	for {
		c := p.data[p.pos]
		if c == '"' {
			break
		}
		if c == '\\' {
			simple = false
			p.pos += 2
			continue
		}
		if c >= utf8.RuneSelf {
			simple = false
		}
		p.pos++
	}
	body := p.data[start:p.pos]
	p.pos++ // closing quote
	if simple || (utf8.Valid(body) && bytes.IndexByte(body, '\\') < 0) {
		return string(body)
	}
	return unescape(body)
}

// unescape decodes the body of a JSON string that has escapes or bytes
// outside ASCII.
func unescape(body []byte) string {
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			i++
			switch e := body[i]; e {
			case 'u':
				r := hex4(body[i+1:])
				i += 5
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
						r2 = hex4(body[i+2:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						i += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			case 'b':
				out, i = append(out, '\b'), i+1
			case 'f':
				out, i = append(out, '\f'), i+1
			case 'n':
				out, i = append(out, '\n'), i+1
			case 'r':
				out, i = append(out, '\r'), i+1
			case 't':
				out, i = append(out, '\t'), i+1
			default: // " \ /
				out, i = append(out, e), i+1
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(body[i:])
			out = utf8.AppendRune(out, r) // RuneError for a bad byte, as encoding/json
			i += size
		}
	}
	return string(out)
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n)
}
