package config

import (
	"fmt"
	"slices"
)

// applyDefaultTest merges defaultTest into every tool, resource, prompt,
// list and completion test: its assertions (and assert-sets, and derived metrics) come after
// the test's own, and each of its other options applies where the test
// leaves that option unset. Transforms only apply to tool tests.
func applyDefaultTest(s *Suite, dt *defaultTest) {
	for _, t := range s.Tools {
		mergeOptions(&t.TestOptions, &dt.TestOptions, true)
	}
	for _, t := range s.Resources {
		mergeOptions(&t.TestOptions, &dt.TestOptions, false)
	}
	for _, t := range s.Prompts {
		mergeOptions(&t.TestOptions, &dt.TestOptions, false)
	}
	for _, t := range s.Lists {
		mergeOptions(&t.TestOptions, &dt.TestOptions, false)
	}
	for _, t := range s.Completions {
		mergeOptions(&t.TestOptions, &dt.TestOptions, false)
	}
}

// mergeOptions merges the defaults d into the options o of one test.
func mergeOptions(o, d *TestOptions, transform bool) {
	inherit := func(key string) {
		if _, own := o.KeyPos[key]; !own {
			if p, ok := d.KeyPos[key]; ok {
				if o.KeyPos == nil {
					o.KeyPos = map[string]Pos{}
				}
				o.KeyPos[key] = p
			}
		}
	}
	if len(d.Expect) > 0 {
		o.Expect = append(slices.Clip(o.Expect), d.Expect...)
	}
	o.ExpectOptions = mergeExpectOptions(o.ExpectOptions, d.ExpectOptions)
	if len(d.DerivedMetrics) > 0 {
		o.DerivedMetrics = append(slices.Clip(o.DerivedMetrics), d.DerivedMetrics...)
		inherit("derivedMetrics")
	}
	if o.TimeoutMS == 0 && d.TimeoutMS != 0 {
		o.TimeoutMS = d.TimeoutMS
	}
	if o.Tags == nil && d.Tags != nil {
		o.Tags = d.Tags
	}
	if o.Profile == "" && d.Profile != "" {
		o.Profile = d.Profile
	}
	if o.Threshold == nil && d.Threshold != nil {
		o.Threshold = d.Threshold
		inherit("threshold")
	}
	if transform && o.Transform == nil && d.Transform != nil {
		o.Transform = d.Transform
		inherit("transform")
	}
}

// mergeExpectOptions merges the step-level checks of defaultTest (d) into
// a test's (o), field by field; the test's own values win.
func mergeExpectOptions(o, d *ExpectOptions) *ExpectOptions {
	switch {
	case d == nil:
		return o
	case o == nil:
		return d
	}
	m := *o
	if m.MaxDurationMS == 0 {
		m.MaxDurationMS = d.MaxDurationMS
	}
	if m.MaxResponseTokens == nil {
		m.MaxResponseTokens = d.MaxResponseTokens
	}
	for _, h := range d.ResponseHeaders {
		if !slices.ContainsFunc(m.ResponseHeaders, func(x *HeaderCheck) bool { return equalFoldASCII(x.Name, h.Name) }) {
			m.ResponseHeaders = append(slices.Clip(m.ResponseHeaders), h)
		}
	}
	for _, name := range d.ResponseHeadersAbsent {
		if !slices.ContainsFunc(m.ResponseHeadersAbsent, func(x string) bool { return equalFoldASCII(x, name) }) {
			m.ResponseHeadersAbsent = append(slices.Clip(m.ResponseHeadersAbsent), name)
		}
	}
	return &m
}

// equalFoldASCII compares header names case-insensitively.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// checkMetricOrder checks that no derived metric refers to itself or to a
// metric declared after it, which could never resolve. It runs after
// defaultTest is merged, since defaultTest appends metrics.
func checkMetricOrder(s *Suite) Errors {
	var errs Errors
	check := func(ms []*DerivedMetric) {
		names := make([]string, len(ms))
		for i, m := range ms {
			names[i] = m.Name
		}
		for i, m := range ms {
			for _, t := range m.Terms {
				switch {
				case t.Ref == m.Name:
					errs = append(errs, errAt(t.Pos, fmt.Sprintf("derived metric %q refers to itself", m.Name),
						"a metric can use assertions, assert-sets and metrics declared before it"))
				case slices.Contains(names[i+1:], t.Ref):
					errs = append(errs, errAt(t.Pos, fmt.Sprintf("derived metric %q refers to %q, which is declared after it", m.Name, t.Ref),
						"metrics evaluate in declaration order; move it above"))
				}
			}
		}
	}
	for _, t := range s.Tools {
		check(t.DerivedMetrics)
	}
	for _, t := range s.Resources {
		check(t.DerivedMetrics)
	}
	for _, t := range s.Prompts {
		check(t.DerivedMetrics)
	}
	for _, t := range s.Lists {
		check(t.DerivedMetrics)
	}
	for _, t := range s.Completions {
		check(t.DerivedMetrics)
	}
	return dedupeErrors(errs)
}

// dedupeErrors drops repeated errors (a shared defaultTest metric yields
// the same error for every test).
func dedupeErrors(errs Errors) Errors {
	type key struct {
		file      string
		line, col int
		msg       string
	}
	seen := map[key]bool{}
	out := errs[:0]
	for _, e := range errs {
		k := key{e.File, e.Line, e.Col, e.Msg}
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}
