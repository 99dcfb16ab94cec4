package config

import (
	"fmt"

	"github.com/google/shlex"
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// optionKeys are the keys tool, resource and prompt tests share with
// defaultTest.
var optionKeys = []yamlpos.KeySpec{
	yamlpos.Key("expect"),
	yamlpos.Key("timeout_ms"),
	yamlpos.Key("tags"),
	yamlpos.Key("profile"),
	yamlpos.Key("threshold"),
	yamlpos.Key("derivedMetrics"),
}

// defaultTestKeys are the keys of the defaultTest block.
var defaultTestKeys = yamlpos.NewObjectSpec("the defaultTest block",
	append([]yamlpos.KeySpec{yamlpos.Key("transform")}, optionKeys...)...,
).WithMisplaced(map[string]string{
	"server": "each test names its own server",
	"args":   "arguments belong to each test",
})

// transformKeys are the keys of a tool test's transform block.
var transformKeys = yamlpos.NewObjectSpec("a transform", yamlpos.Key("request"), yamlpos.Key("response"))

// derivedMetricKeys are the keys of one derived metric.
var derivedMetricKeys = yamlpos.NewObjectSpec("a derived metric",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("value"),
	yamlpos.Key("threshold"),
)

// metricValueKeys are the aggregations a derived metric's value takes.
var metricValueKeys = yamlpos.NewObjectSpec("a derived metric value", yamlpos.Key("weighted_sum"), yamlpos.Key("weighted_average"))

// metricTermKeys are the keys of one weighted reference.
var metricTermKeys = yamlpos.NewObjectSpec("a metric term", yamlpos.RequiredKey("ref"), yamlpos.Key("weight"))

// option reads one of the shared test options into o.
func (l *loader) option(o *TestOptions, e yamlpos.Entry, ptr string) {
	switch e.Key {
	case "expect":
		o.Expect, o.ExpectOptions = l.expect(e.Value, ptr)
	case "timeout_ms":
		o.TimeoutMS, _ = l.PositiveInt(e.Value, ptr, "timeout_ms")
	case "tags":
		o.Tags, _ = l.StringList(e.Value, ptr, "tags", true)
	case "profile":
		o.Profile, _ = l.Enum(e.Value, ptr, "profile", ProfileQuick, ProfileStandard, ProfileFull)
	case "threshold":
		if v, ok := l.Fraction(e.Value, ptr, "threshold"); ok {
			o.Threshold = &v
		}
		l.setKeyPos(o, e, ptr)
	case "derivedMetrics":
		o.DerivedMetrics = l.derivedMetrics(e.Value, ptr)
		l.setKeyPos(o, e, ptr)
	}
}

// setKeyPos records where a scoring or behaviour key is written (see
// TestOptions.KeyPos).
func (l *loader) setKeyPos(o *TestOptions, e yamlpos.Entry, ptr string) {
	if o.KeyPos == nil {
		o.KeyPos = map[string]Pos{}
	}
	o.KeyPos[e.Key] = l.pos(e.KeyNode, ptr)
}

// transform reads a tool test's transform block: request and/or response
// commands.
func (l *loader) transform(e yamlpos.Entry, ptr string) *Transform {
	f, ok := l.Object(e.Value, ptr, transformKeys)
	if !ok {
		return nil
	}
	t := &Transform{Pos: l.pos(e.KeyNode, ptr)}
	if !f.Has("request") && !f.Has("response") {
		l.C.Add(e.Value, ptr, `a transform needs "request", "response" or both`, "")
		return nil
	}
	for _, fe := range f.Entries {
		c := l.commandLine(fe.Value, yamlpos.Child(ptr, fe.Key), "a transform command")
		if c == nil {
			return nil
		}
		if fe.Key == "request" {
			t.Request = c
		} else {
			t.Response = c
		}
	}
	return t
}

// commandLine reads a command written as one string and splits it with
// POSIX shell rules, so that an unbalanced quote fails at load time.
func (l *loader) commandLine(n *yaml.Node, ptr, what string) *Command {
	line, ok := l.NonEmptyStr(n, ptr, what)
	if !ok {
		return nil
	}
	argv, err := shlex.Split(line)
	if err != nil {
		l.C.Add(n, ptr, fmt.Sprintf("cannot split %s into words: %v", what, err), "check the quotes")
		return nil
	}
	if len(argv) == 0 {
		l.C.Add(n, ptr, fmt.Sprintf("%s names no program", what), "")
		return nil
	}
	return &Command{Line: line, Argv: argv, Pos: l.pos(n, ptr)}
}

// derivedMetrics reads a derivedMetrics list. References are checked once
// the test is complete (checkMetricOrder), since defaultTest may add
// assertions and metrics.
func (l *loader) derivedMetrics(n *yaml.Node, ptr string) []*DerivedMetric {
	items, ok := l.seq(n, ptr, "derivedMetrics")
	if !ok {
		return nil
	}
	var out []*DerivedMetric
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, derivedMetricKeys)
		if !ok {
			continue
		}
		m := &DerivedMetric{Pos: l.pos(item, ip)}
		good := true
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				m.Name, ok = l.NonEmptyStr(e.Value, ep, "the metric name")
			case "threshold":
				var v float64
				if v, ok = l.Fraction(e.Value, ep, "threshold"); ok {
					m.Threshold = &v
				}
			case "value":
				ok = l.metricValue(m, e.Value, ep)
			}
			good = good && ok
		}
		if good {
			out = append(out, m)
		}
	}
	return out
}

// metricValue reads {weighted_sum: [...]} or {weighted_average: [...]}.
func (l *loader) metricValue(m *DerivedMetric, n *yaml.Node, ptr string) bool {
	f, ok := l.Object(n, ptr, metricValueKeys)
	if !ok {
		return false
	}
	agg := l.Exclusive(f, metricValueKeys, true, "weighted_sum", "weighted_average")
	if agg == "" {
		return false
	}
	m.Aggregation = agg
	tn, tp := f.Get(agg)
	items, ok := l.nonEmptySeq(tn, tp, agg)
	if !ok {
		return false
	}
	good := true
	for i, item := range items {
		ip := yamlpos.Index(tp, i)
		tf, ok := l.Object(item, ip, metricTermKeys)
		if !ok {
			good = false
			continue
		}
		term := &MetricTerm{Weight: 1, Pos: l.pos(item, ip)}
		for _, e := range tf.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "ref":
				term.Ref, ok = l.NonEmptyStr(e.Value, ep, "ref (an assertion, set or metric name)")
			case "weight":
				term.Weight, ok = l.PositiveNumber(e.Value, ep, "weight")
			}
			good = good && ok
		}
		m.Terms = append(m.Terms, term)
	}
	return good
}

// defaultTest is the defaultTest block as read, before it is merged into
// the tests.
type defaultTest struct {
	TestOptions
	Pos Pos
}

// defaultTest reads the defaultTest block.
func (l *loader) defaultTest(e yamlpos.Entry, ptr string) *defaultTest {
	f, ok := l.Object(e.Value, ptr, defaultTestKeys)
	if !ok {
		return nil
	}
	dt := &defaultTest{Pos: l.pos(e.KeyNode, ptr)}
	// defaultTest is merged after each test's rows were substituted, so a
	// row reference there would reach the server as text.
	l.strayDataRefs(yamlpos.Deref(e.Value), ptr, "defaultTest is merged into tests after their rows are substituted",
		"write the reference in each test that has data rows", 0)
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		if fe.Key == "transform" {
			dt.Transform = l.transform(fe, fp)
			l.setKeyPos(&dt.TestOptions, fe, fp)
			continue
		}
		l.option(&dt.TestOptions, fe, fp)
	}
	return dt
}
