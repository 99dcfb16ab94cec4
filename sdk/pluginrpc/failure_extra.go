package pluginrpc

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcptest/mcptest/sdk/contract"
)

// A failure with Extra fields (a regex's "match": null, a list's
// "missing" values, an edit distance) went through Failure.MarshalJSON:
// a map, encoding/json's reflection and its sorting of the keys, for a
// tenth of the failures of an ordinary run and the largest share of the
// SDK's own time per item. appendFailureExtra writes the same bytes
// directly when every part has a form it knows it writes exactly as
// encoding/json would; anything else goes to MarshalJSON as before.

// maxFastExtra is the most Extra fields the direct writer takes.
const maxFastExtra = 8

// failureField is one member of a failure object: its name and, for the
// writer, which of the value kinds it holds.
type failureField struct {
	name string
	raw  json.RawMessage
	str  string
	// extra is an Extra value; isStr and isRaw mark the other two kinds.
	extra        any
	isStr, isRaw bool
}

// appendFailureExtra appends the encoding MarshalJSON gives f (which has
// Extra) and reports true, or appends nothing and reports false when some
// part is outside what it writes exactly as encoding/json does. Values
// that are the item's own input are copied without a validity check, as
// in appendFailure.
func appendFailureExtra(dst []byte, f *contract.Failure, in *contract.MatchInput) ([]byte, bool) {
	if len(f.Extra) > maxFastExtra {
		return dst, false
	}
	var buf [maxFastExtra + 5]failureField
	fields := buf[:0]
	for k, v := range f.Extra {
		switch k {
		case "expected", "actual", "diff", "path", "note":
			// A standard field set in Extra too: MarshalJSON's precedence.
			return dst, false
		}
		if !sameAsEncodingJSON(k) || !simpleExtra(v, 0) {
			return dst, false
		}
		fields = append(fields, failureField{name: k, extra: v})
	}
	for _, r := range []struct {
		name string
		v    json.RawMessage
	}{{"expected", f.Expected}, {"actual", f.Actual}} {
		if r.v == nil {
			continue
		}
		if !compactPlainJSON(r.v) || (!isInput(r.v, in) && !json.Valid(r.v)) {
			return dst, false
		}
		fields = append(fields, failureField{name: r.name, raw: r.v, isRaw: true})
	}
	for _, s := range []struct{ name, v string }{{"diff", f.Diff}, {"path", f.Path}, {"note", f.Note}} {
		if s.v == "" {
			continue
		}
		if !sameAsEncodingJSON(s.v) {
			return dst, false
		}
		fields = append(fields, failureField{name: s.name, str: s.v, isStr: true})
	}
	// encoding/json writes a map's keys sorted.
	slices.SortFunc(fields, func(a, b failureField) int { return strings.Compare(a.name, b.name) })
	dst = append(dst, '{')
	for i := range fields {
		fd := &fields[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, fd.name)
		dst = append(dst, ':')
		switch {
		case fd.isRaw:
			dst = append(dst, fd.raw...)
		case fd.isStr:
			dst = appendJSONString(dst, fd.str)
		default:
			dst = appendExtra(dst, fd.extra)
		}
	}
	return append(dst, '}'), true
}

// sameAsEncodingJSON reports whether appendJSONString writes s exactly as
// encoding/json does: it has none of the characters encoding/json escapes
// for HTML (<, >, &) and no control character but \n, \r and \t (it
// writes \b and \f as such, appendJSONString as \u escapes).
func sameAsEncodingJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<' || c == '>' || c == '&':
			return false
		case c < 0x20 && c != '\n' && c != '\r' && c != '\t':
			return false
		}
	}
	return true
}

// compactPlainJSON reports whether encoding/json would embed raw as it is:
// no white space between tokens (it compacts) and nothing it escapes in
// strings (<, >, &, U+2028, U+2029). It does not check that raw is JSON.
func compactPlainJSON(raw []byte) bool {
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '<' || c == '>' || c == '&':
			return false
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9):
			return false
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return false
		}
	}
	return true
}

// simpleExtra reports whether appendExtra writes v as encoding/json does:
// null, booleans, strings sameAsEncodingJSON accepts, integers, floats
// encoding/json writes in plain decimal, and lists of those.
func simpleExtra(v any, depth int) bool {
	switch v := v.(type) {
	case nil, bool, int, int64:
		return true
	case string:
		return sameAsEncodingJSON(v)
	case float64:
		return plainFloat(v)
	case []string:
		for _, s := range v {
			if !sameAsEncodingJSON(s) {
				return false
			}
		}
		return v != nil
	case []any:
		if v == nil || depth > 0 {
			return false
		}
		for _, e := range v {
			if !simpleExtra(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// plainFloat reports whether encoding/json writes f in 'f' format: finite,
// and zero or of magnitude in [1e-6, 1e21).
func plainFloat(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	a := math.Abs(f)
	return a == 0 || (a >= 1e-6 && a < 1e21)
}

// appendExtra writes a value simpleExtra accepted.
func appendExtra(dst []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, v)
	case int:
		return strconv.AppendInt(dst, int64(v), 10)
	case int64:
		return strconv.AppendInt(dst, v, 10)
	case string:
		return appendJSONString(dst, v)
	case float64:
		return strconv.AppendFloat(dst, v, 'f', -1, 64)
	case []string:
		dst = append(dst, '[')
		for i, s := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, s)
		}
		return append(dst, ']')
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendExtra(dst, e)
		}
		return append(dst, ']')
	}
	return dst
}
