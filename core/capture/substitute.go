package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/mcptest/mcptest/internal/jsonx"
)

// Resolver returns the value a reference stands for: the submatches of
// the reference pattern in, a decoded JSON value out.
type Resolver func(m []string) (any, error)

// Substitute replaces the references re matches in every string of a JSON
// document. A string that is exactly one reference becomes the value
// itself, whatever its JSON type, so an object, an array or a number
// arrives as such rather than as its text; a reference inside longer text
// is replaced by the value's text (a string as it is, anything else as
// compact JSON). Documents without a match come back unchanged, byte for
// byte.
func Substitute(raw json.RawMessage, re *regexp.Regexp, marker string, resolve Resolver) (json.RawMessage, error) {
	if !bytes.Contains(raw, []byte(marker)) {
		return raw, nil
	}
	root, err := jsonx.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("decode the arguments: %w", err)
	}
	out, changed, err := substituteValue(root, re, resolve)
	if err != nil || !changed {
		return raw, err
	}
	return jsonx.Encode(out)
}

// substituteValue walks one decoded JSON value.
func substituteValue(v any, re *regexp.Regexp, resolve Resolver) (any, bool, error) {
	switch x := v.(type) {
	case string:
		return substituteString(x, re, resolve)
	case []any:
		changed := false
		for i, e := range x {
			nv, c, err := substituteValue(e, re, resolve)
			if err != nil {
				return nil, false, err
			}
			x[i], changed = nv, changed || c
		}
		return x, changed, nil
	case map[string]any:
		changed := false
		for k, e := range x {
			nv, c, err := substituteValue(e, re, resolve)
			if err != nil {
				return nil, false, err
			}
			x[k], changed = nv, changed || c
		}
		return x, changed, nil
	}
	return v, false, nil
}

// substituteString resolves the references in one string value.
func substituteString(s string, re *regexp.Regexp, resolve Resolver) (any, bool, error) {
	locs := re.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return s, false, nil
	}
	if len(locs) == 1 && locs[0][0] == 0 && locs[0][1] == len(s) {
		v, err := resolve(submatches(s, locs[0]))
		return v, err == nil, err
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		v, err := resolve(submatches(s, loc))
		if err != nil {
			return nil, false, err
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(textOf(v))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String(), true, nil
}

// SubstituteText resolves references in plain text, such as a resource
// URI, where every value is inserted as text.
func SubstituteText(s string, re *regexp.Regexp, resolve Resolver) (string, error) {
	locs := re.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return s, nil
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		v, err := resolve(submatches(s, loc))
		if err != nil {
			return "", err
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(textOf(v))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// submatches turns a FindStringSubmatchIndex result into strings.
func submatches(s string, loc []int) []string {
	out := make([]string, len(loc)/2)
	for i := range out {
		if loc[2*i] >= 0 {
			out[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return out
}

// textOf renders a value inside longer text: a string as it is, anything
// else as compact JSON.
func textOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := jsonx.Encode(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
