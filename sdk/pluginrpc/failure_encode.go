package pluginrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mcptest/mcptest/sdk/contract"
)

// errBadFailureValue is wrapped when Failure.Expected or Failure.Actual is
// not one JSON value.
var errBadFailureValue = errors.New("not a JSON value")

// appendFailure appends f's JSON encoding to dst, as MarshalJSON does. A
// quarter of the assertions of a typical run fail, and encoding/json walks
// the failure by reflection and then validates and compacts what
// MarshalJSON returned, so the common shape (no Extra) is written directly:
// raw values are only checked, strings escaped in one pass.
//
// A raw value that is the item's own actual value or argument (the same
// bytes, as matchers usually return them) is not checked: the host sent it
// as JSON, and the host checks every failure it receives anyway. in may be
// nil, and then every raw value is checked.
func appendFailure(dst []byte, f *contract.Failure, in *contract.MatchInput) ([]byte, error) {
	if len(f.Extra) > 0 {
		if out, ok := appendFailureExtra(dst, f, in); ok {
			return out, nil
		}
		b, err := f.MarshalJSON()
		return append(dst, b...), err
	}
	dst = append(dst, '{')
	first := true
	field := func(name string) {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, '"')
		dst = append(dst, name...)
		dst = append(dst, '"', ':')
	}
	for _, raw := range []struct {
		name string
		v    json.RawMessage
	}{{"expected", f.Expected}, {"actual", f.Actual}} {
		if len(raw.v) == 0 {
			continue
		}
		if !isInput(raw.v, in) && !json.Valid(raw.v) {
			return dst, fmt.Errorf("failure %s: %w", raw.name, errBadFailureValue)
		}
		field(raw.name)
		dst = append(dst, raw.v...)
	}
	for _, s := range []struct{ name, v string }{{"diff", f.Diff}, {"path", f.Path}, {"note", f.Note}} {
		if s.v == "" {
			continue
		}
		field(s.name)
		dst = appendJSONString(dst, s.v)
	}
	return append(dst, '}'), nil
}

// isInput reports whether v is the very bytes of in's actual value or
// argument (not merely equal to them).
func isInput(v json.RawMessage, in *contract.MatchInput) bool {
	if in == nil || len(v) == 0 {
		return false
	}
	same := func(b json.RawMessage) bool { return len(b) == len(v) && &b[0] == &v[0] }
	return same(in.Actual) || same(in.Argument)
}

// hexDigits spell \u escapes.
const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD (as
// encoding/json does), and U+2028/U+2029 escaped so the text is also safe
// inside JavaScript.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
