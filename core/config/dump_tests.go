package config

import (
	"gopkg.in/yaml.v3"
)

// dumpTool writes one tool test.
func dumpTool(t *ToolTest) *yaml.Node {
	m := newMap()
	m.setStr("name", t.Name)
	m.setStr("server", t.Server)
	m.setStr("tool", t.Tool)
	m.set("args", jsonNode(t.Args))
	m.setStr("inject_error", t.InjectError)
	if t.Data != nil {
		rows := seqOf()
		for _, r := range t.Data {
			rows.Content = append(rows.Content, jsonNode(r))
		}
		m.set("data", rows)
	}
	if t.Captures != nil {
		cm := newMap()
		for _, c := range t.Captures {
			cm.set(c.Name, str(c.Target))
		}
		m.set("capture", cm.n)
	}
	if t.Client != nil {
		m.set("client", dumpClient(t.Client))
	}
	m.setTrue("progress", t.Progress)
	m.setStr("log_level", t.LogLevel)
	dumpOptions(m, &t.TestOptions)
	return m.n
}

// dumpResource writes one resource test.
func dumpResource(t *ResourceTest) *yaml.Node {
	m := newMap()
	m.setStr("name", t.Name)
	m.setStr("server", t.Server)
	m.setStr("uri", t.URI)
	if t.Subscribe != nil {
		m.set("subscribe", dumpSubscribe(t.Subscribe))
	}
	dumpOptions(m, &t.TestOptions)
	return m.n
}

// dumpPrompt writes one prompt test.
func dumpPrompt(t *PromptTest) *yaml.Node {
	m := newMap()
	m.setStr("name", t.Name)
	m.setStr("server", t.Server)
	m.setStr("prompt", t.Prompt)
	m.set("args", jsonNode(t.Args))
	dumpOptions(m, &t.TestOptions)
	return m.n
}

// dumpOptions writes the shared options of a test.
func dumpOptions(m *ymap, o *TestOptions) {
	m.set("expect", dumpExpect(o.Expect, o.ExpectOptions))
	m.setInt("timeout_ms", o.TimeoutMS)
	if o.Tags != nil {
		m.set("tags", strSeq(o.Tags))
	}
	m.setStr("profile", o.Profile)
	m.setFloat("threshold", o.Threshold)
	if o.DerivedMetrics != nil {
		list := seqOf()
		for _, d := range o.DerivedMetrics {
			dm := newMap()
			dm.setStr("name", d.Name)
			dm.setFloat("threshold", d.Threshold)
			terms := seqOf()
			for _, t := range d.Terms {
				tm := newMap()
				tm.setStr("ref", t.Ref)
				tm.set("weight", floatNode(t.Weight))
				terms.Content = append(terms.Content, tm.n)
			}
			vm := newMap()
			vm.set(d.Aggregation, terms)
			dm.set("value", vm.n)
			list.Content = append(list.Content, dm.n)
		}
		m.set("derivedMetrics", list)
	}
	if t := o.Transform; t != nil {
		tm := newMap()
		if t.Request != nil {
			tm.set("request", str(t.Request.Line))
		}
		if t.Response != nil {
			tm.set("response", str(t.Response.Line))
		}
		m.set("transform", tm.n)
	}
}

// dumpExpect writes an expect block: the array form, or the long form
// when step-level checks are set. It returns nil when there is nothing.
func dumpExpect(list []*Assertion, o *ExpectOptions) *yaml.Node {
	if list == nil && o == nil {
		return nil
	}
	items := seqOf()
	for _, a := range list {
		items.Content = append(items.Content, dumpAssertion(a))
	}
	if o == nil {
		return items
	}
	m := newMap()
	m.set("assertions", items)
	m.setInt("max_duration_ms", o.MaxDurationMS)
	if t := o.MaxResponseTokens; t != nil {
		tm := newMap()
		tm.set("budget", intNode(t.Budget))
		tm.setStr("tokenizer", t.Tokenizer)
		tm.setStr("mode", t.Mode)
		if t.ImageCost != nil {
			tm.set("image_cost", intNode(*t.ImageCost))
		}
		m.set("max_response_tokens", tm.n)
	}
	if o.ResponseHeaders != nil {
		hm := newMap()
		for _, h := range o.ResponseHeaders {
			hm.set(h.Name, dumpHeaderCheck(h))
		}
		m.set("response_headers", hm.n)
	}
	if o.ResponseHeadersAbsent != nil {
		m.set("response_headers_absent", strSeq(o.ResponseHeadersAbsent))
	}
	return m.n
}

// dumpHeaderCheck writes one response_headers predicate.
func dumpHeaderCheck(h *HeaderCheck) *yaml.Node {
	if h.Equals != nil {
		return str(*h.Equals)
	}
	m := newMap()
	switch {
	case h.Regex != "":
		m.set("regex", str(h.Regex))
	case h.Schema != nil:
		m.set("schema", jsonNode(h.Schema))
	case h.Exists != nil:
		m.set("exists", boolNode(*h.Exists))
	default:
		m.set("contains", str(h.Contains))
	}
	return m.n
}

// dumpAssertion writes one assertion or assert-set.
func dumpAssertion(a *Assertion) *yaml.Node {
	m := newMap()
	if s := a.Set; s != nil {
		sm := newMap()
		sm.setStr("name", s.Name)
		sm.set("threshold", floatNode(s.Threshold))
		sm.set("weight", floatNode(s.Weight))
		items := seqOf()
		for _, in := range s.Assertions {
			items.Content = append(items.Content, dumpAssertion(in))
		}
		sm.set("assertions", items)
		m.set("assert-set", sm.n)
		return m.n
	}
	m.set("target", str(a.Target))
	mm := newMap()
	mm.set(a.Matcher.Key, jsonNode(a.Matcher.Arg))
	m.set("matcher", mm.n)
	m.setStr("message", a.Message)
	m.setStr("name", a.Name)
	if a.Weight != 1 {
		m.set("weight", floatNode(a.Weight))
	}
	if a.Transform != nil {
		m.set("transform", str(a.Transform.Line))
	}
	return m.n
}
