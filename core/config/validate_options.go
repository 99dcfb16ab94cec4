package config

import (
	"fmt"

	"github.com/google/shlex"
	"gopkg.in/yaml.v3"
)

// optionKeys are the keys tool, resource and prompt tests share with
// defaultTest.
var optionKeys = []keySpec{
	key("expect"),
	key("timeout_ms"),
	key("tags"),
	key("profile"),
	key("threshold"),
	key("derivedMetrics"),
}

// defaultTestKeys are the keys of the defaultTest block.
var defaultTestKeys = newObjectSpec("the defaultTest block",
	append([]keySpec{key("transform")}, optionKeys...)...,
).withMisplaced(map[string]string{
	"server": "each test names its own server",
	"args":   "arguments belong to each test",
})

// transformKeys are the keys of a tool test's transform block.
var transformKeys = newObjectSpec("a transform", key("request"), key("response"))

// derivedMetricKeys are the keys of one derived metric.
var derivedMetricKeys = newObjectSpec("a derived metric",
	requiredKey("name"),
	requiredKey("value"),
	key("threshold"),
)

// metricValueKeys are the aggregations a derived metric's value takes.
var metricValueKeys = newObjectSpec("a derived metric value", key("weighted_sum"), key("weighted_average"))

// metricTermKeys are the keys of one weighted reference.
var metricTermKeys = newObjectSpec("a metric term", requiredKey("ref"), key("weight"))

// option reads one of the shared test options into o.
func (l *loader) option(o *TestOptions, e entry, ptr string) {
	switch e.key {
	case "expect":
		o.Expect, o.ExpectOptions = l.expect(e.value, ptr)
	case "timeout_ms":
		o.TimeoutMS, _ = l.positiveInt(e.value, ptr, "timeout_ms")
	case "tags":
		o.Tags, _ = l.stringList(e.value, ptr, "tags", true)
	case "profile":
		o.Profile, _ = l.enum(e.value, ptr, "profile", ProfileQuick, ProfileStandard, ProfileFull)
	case "threshold":
		if v, ok := l.fraction(e.value, ptr, "threshold"); ok {
			o.Threshold = &v
		}
		l.setKeyPos(o, e, ptr)
	case "derivedMetrics":
		o.DerivedMetrics = l.derivedMetrics(e.value, ptr)
		l.setKeyPos(o, e, ptr)
	}
}

// setKeyPos records where a scoring or behaviour key is written (see
// TestOptions.KeyPos).
func (l *loader) setKeyPos(o *TestOptions, e entry, ptr string) {
	if o.KeyPos == nil {
		o.KeyPos = map[string]Pos{}
	}
	o.KeyPos[e.key] = l.pos(e.keyNode, ptr)
}

// transform reads a tool test's transform block: request and/or response
// commands.
func (l *loader) transform(e entry, ptr string) *Transform {
	f, ok := l.object(e.value, ptr, transformKeys)
	if !ok {
		return nil
	}
	t := &Transform{Pos: l.pos(e.keyNode, ptr)}
	if !f.has("request") && !f.has("response") {
		l.c.add(e.value, ptr, `a transform needs "request", "response" or both`, "")
		return nil
	}
	for _, fe := range f.entries {
		c := l.commandLine(fe.value, child(ptr, fe.key), "a transform command")
		if c == nil {
			return nil
		}
		if fe.key == "request" {
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
	line, ok := l.nonEmptyStr(n, ptr, what)
	if !ok {
		return nil
	}
	argv, err := shlex.Split(line)
	if err != nil {
		l.c.add(n, ptr, fmt.Sprintf("cannot split %s into words: %v", what, err), "check the quotes")
		return nil
	}
	if len(argv) == 0 {
		l.c.add(n, ptr, fmt.Sprintf("%s names no program", what), "")
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
		ip := index(ptr, i)
		f, ok := l.object(item, ip, derivedMetricKeys)
		if !ok {
			continue
		}
		m := &DerivedMetric{Pos: l.pos(item, ip)}
		good := true
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				m.Name, ok = l.nonEmptyStr(e.value, ep, "the metric name")
			case "threshold":
				var v float64
				if v, ok = l.fraction(e.value, ep, "threshold"); ok {
					m.Threshold = &v
				}
			case "value":
				ok = l.metricValue(m, e.value, ep)
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
	f, ok := l.object(n, ptr, metricValueKeys)
	if !ok {
		return false
	}
	agg := l.exclusive(f, metricValueKeys, true, "weighted_sum", "weighted_average")
	if agg == "" {
		return false
	}
	m.Aggregation = agg
	tn, tp := f.get(agg)
	items, ok := l.nonEmptySeq(tn, tp, agg)
	if !ok {
		return false
	}
	good := true
	for i, item := range items {
		ip := index(tp, i)
		tf, ok := l.object(item, ip, metricTermKeys)
		if !ok {
			good = false
			continue
		}
		term := &MetricTerm{Weight: 1, Pos: l.pos(item, ip)}
		for _, e := range tf.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "ref":
				term.Ref, ok = l.nonEmptyStr(e.value, ep, "ref (an assertion, set or metric name)")
			case "weight":
				term.Weight, ok = l.positiveNumber(e.value, ep, "weight")
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
func (l *loader) defaultTest(e entry, ptr string) *defaultTest {
	f, ok := l.object(e.value, ptr, defaultTestKeys)
	if !ok {
		return nil
	}
	dt := &defaultTest{Pos: l.pos(e.keyNode, ptr)}
	for _, fe := range f.entries {
		fp := child(ptr, fe.key)
		if fe.key == "transform" {
			dt.Transform = l.transform(fe, fp)
			l.setKeyPos(&dt.TestOptions, fe, fp)
			continue
		}
		l.option(&dt.TestOptions, fe, fp)
	}
	return dt
}
