package yamlpos

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// PositiveInt reads an integer that must be at least 1. A float with no
// fractional part (5000.0) counts as an integer, as in JSON Schema.
func (l *Reader) PositiveInt(n *yaml.Node, ptr, what string) (int, bool) {
	return l.IntRange(n, ptr, what, 1, math.MaxInt32)
}

// IntRange reads an integer between lo and hi inclusive.
func (l *Reader) IntRange(n *yaml.Node, ptr, what string, lo, hi int) (int, bool) {
	d := Deref(n)
	if lit, ok := integerLiteral(d); ok {
		v, err := strconv.Atoi(lit)
		if err != nil {
			l.C.Add(n, ptr, fmt.Sprintf("%s %s is out of range", what, lit), "")
			return 0, false
		}
		if v >= lo && v <= hi {
			return v, true
		}
	}
	hint := msHint(what, d)
	if hint == "" {
		hint = quoteFreeHint(d)
	}
	l.C.Add(n, ptr, fmt.Sprintf("expected %s (%s), found %s", what, rangeText(lo, hi), Describe(d)), hint)
	return 0, false
}

// AnyInt reads an integer of any sign (a JSON-RPC error code).
func (l *Reader) AnyInt(n *yaml.Node, ptr, what string) (int, bool) {
	return l.IntRange(n, ptr, what, math.MinInt32, math.MaxInt32)
}

// rangeText describes an integer range for messages.
func rangeText(lo, hi int) string {
	switch {
	case lo == math.MinInt32 && hi == math.MaxInt32:
		return "an integer"
	case hi == math.MaxInt32:
		return fmt.Sprintf("an integer ≥ %d", lo)
	}
	return fmt.Sprintf("an integer from %d to %d", lo, hi)
}

// msHint explains the _ms rule when a duration string lands in a field
// that takes milliseconds.
func msHint(what string, d *yaml.Node) string {
	s, ok := StringOf(d)
	if !ok || !strings.HasSuffix(what, "_ms") {
		return ""
	}
	if dur, err := parseDuration(s); err == nil {
		return fmt.Sprintf("fields ending in _ms take a plain number of milliseconds: write %d", dur.Milliseconds())
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return ""
	}
	return "fields ending in _ms take a plain number of milliseconds"
}

// integerLiteral returns the decimal form of scalar d when it is an
// integer: a YAML integer, or a float with no fractional part.
func integerLiteral(d *yaml.Node) (string, bool) {
	if d.Kind != yaml.ScalarNode {
		return "", false
	}
	switch d.ShortTag() {
	case TagInt:
		return jsonInt(d.Value)
	case TagFloat:
		f, err := strconv.ParseFloat(strings.ReplaceAll(d.Value, "_", ""), 64)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange), math.IsInf(f, 0), f != math.Trunc(f):
			return "", false
		case math.Abs(f) >= 1<<53:
			return d.Value, true // reported as out of range, as written
		}
		return strconv.FormatInt(int64(f), 10), true
	}
	return "", false
}

// numberOf returns the value of scalar d when it is a YAML integer or
// float.
func numberOf(d *yaml.Node) (float64, bool) {
	if d.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch d.ShortTag() {
	case TagInt:
		lit, ok := jsonInt(d.Value)
		if !ok {
			return 0, false
		}
		f, err := strconv.ParseFloat(lit, 64)
		return f, err == nil
	case TagFloat:
		f, err := strconv.ParseFloat(strings.ReplaceAll(d.Value, "_", ""), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, false
		}
		return f, true
	}
	return 0, false
}

// Fraction reads a number from 0 to 1 inclusive (thresholds, quorums,
// scores).
func (l *Reader) Fraction(n *yaml.Node, ptr, what string) (float64, bool) {
	d := Deref(n)
	f, ok := numberOf(d)
	if !ok {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (a number from 0 to 1), found %s", what, Describe(d)), quoteFreeHint(d))
		return 0, false
	}
	if f < 0 || f > 1 {
		hint := ""
		if f > 1 && f <= 100 {
			hint = fmt.Sprintf("scores are fractions: write %g for %g%%", f/100, f)
		}
		l.C.Add(n, ptr, fmt.Sprintf("%s must be between 0 and 1, found %s", what, d.Value), hint)
		return 0, false
	}
	return f, true
}

// PositiveNumber reads a number greater than 0 (weights).
func (l *Reader) PositiveNumber(n *yaml.Node, ptr, what string) (float64, bool) {
	d := Deref(n)
	f, ok := numberOf(d)
	if !ok || f <= 0 {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (a number > 0), found %s", what, Describe(d)), quoteFreeHint(d))
		return 0, false
	}
	return f, true
}

// NonNegativeNumber reads a number of 0 or more (prices).
func (l *Reader) NonNegativeNumber(n *yaml.Node, ptr, what string) (float64, bool) {
	d := Deref(n)
	f, ok := numberOf(d)
	if !ok || f < 0 {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (a number >= 0), found %s", what, Describe(d)), quoteFreeHint(d))
		return 0, false
	}
	return f, true
}

// quoteFreeHint suggests removing the quotes of a number written as a
// string.
func quoteFreeHint(d *yaml.Node) string {
	if s, ok := StringOf(d); ok {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return "write the number without quotes: " + s
		}
	}
	return ""
}

// durationPattern is the duration-string syntax of the v1 format: a
// number and one unit.
var durationPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)$`) })

// parseDuration parses a duration string such as 30s, 500ms, 1.5m or 2h.
func parseDuration(s string) (time.Duration, error) {
	m := durationPattern().FindStringSubmatch(s)
	if m == nil {
		return 0, errors.New("not a duration")
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, err
	}
	unit := map[string]time.Duration{"ms": time.Millisecond, "s": time.Second, "m": time.Minute, "h": time.Hour}[m[2]]
	d := v * float64(unit)
	if d > float64(math.MaxInt64) || d < float64(time.Millisecond) {
		return 0, errors.New("out of range")
	}
	return time.Duration(d).Round(time.Millisecond), nil
}

// formatDuration writes d in the largest unit that divides it exactly, the
// inverse of parseDuration for the values it returns.
func formatDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
}

// Duration reads a duration string (timeout, connect_timeout,
// time_budget). A bare number is rejected: its unit would be a guess.
func (l *Reader) Duration(n *yaml.Node, ptr, what string) (time.Duration, bool) {
	d := Deref(n)
	if _, isNum := numberOf(d); isNum {
		l.C.Add(n, ptr, fmt.Sprintf("%s needs a unit, found the bare number %s", what, d.Value),
			fmt.Sprintf("write %ss or %sms", d.Value, d.Value))
		return 0, false
	}
	s, ok := StringOf(d)
	if !ok {
		l.C.Add(n, ptr, fmt.Sprintf("expected %s (a duration such as 30s or 500ms), found %s", what, Describe(d)), "")
		return 0, false
	}
	v, err := parseDuration(s)
	if err != nil {
		l.C.Add(n, ptr, fmt.Sprintf("invalid %s %q", what, s),
			"write a number and one unit: ms, s, m or h (for example 30s, 500ms, 2m); the smallest is 1ms")
		return 0, false
	}
	return v, true
}
