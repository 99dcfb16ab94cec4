package jsonvalue

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Equal reports structural JSON equality of two decoded values: object key
// order does not matter, arrays compare in order, and numbers (json.Number)
// compare by value (see NumbersEqual).
func Equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && NumbersEqual(a, bn)
	case []any:
		ba, ok := b.([]any)
		if !ok || len(a) != len(ba) {
			return false
		}
		for i := range a {
			if !Equal(a[i], ba[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			if bv, ok := bm[k]; !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// MaxExponent bounds the written exponents compared by value: a number
// whose exponent is larger in magnitude (1e999999999 from a hostile
// server) is only equal to the same text. The comparison below never
// builds the number, so this is a guard on what counts as comparable, not
// on cost.
const MaxExponent = 4096

// NumbersEqual compares two JSON numbers exactly by value, with no float
// rounding, so big integers and long decimals compare digit for digit and
// 1, 1.0 and 1e0 are equal. Numbers it cannot read, or whose exponent is
// beyond MaxExponent, are equal only when their text is.
func NumbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	an, aok := canonicalNumber(string(a))
	bn, bok := canonicalNumber(string(b))
	return aok && bok && an == bn
}

// canonical is a JSON number reduced to sign, significant digits (no
// leading or trailing zeros) and a power of ten: value = digits × 10^exp.
// Zero has no digits and is never negative.
type canonical struct {
	neg    bool
	digits string
	exp    int64
}

// canonicalNumber reduces a JSON number to its canonical form. It reports
// false for text it cannot read and for exponents beyond MaxExponent.
func canonicalNumber(s string) (canonical, bool) {
	var c canonical
	if strings.HasPrefix(s, "-") {
		c.neg = true
		s = s[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	if hasExp {
		e, err := strconv.ParseInt(strings.TrimPrefix(expText, "+"), 10, 64)
		if err != nil || e > MaxExponent || e < -MaxExponent {
			return canonical{}, false
		}
		c.exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" {
		return canonical{}, false
	}
	digits := intPart + frac
	for _, r := range digits {
		if r < '0' || r > '9' {
			return canonical{}, false
		}
	}
	c.exp -= int64(len(frac))
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return canonical{}, true
	}
	trimmed := strings.TrimRight(digits, "0")
	c.exp += int64(len(digits) - len(trimmed))
	c.digits = trimmed
	return c, true
}
