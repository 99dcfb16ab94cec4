package config

import (
	"encoding/json"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// clientKeys are the keys of a client block (a server's or a tool test's).
var clientKeys = yamlpos.NewObjectSpec("a client block",
	yamlpos.Key("roots"),
	yamlpos.Key("sampling"),
	yamlpos.Key("elicitation"),
).WithMisplaced(map[string]string{
	"capabilities":        "each feature written here is declared: write roots, sampling or elicitation",
	"client_capabilities": "each feature written here is declared: write roots, sampling or elicitation",
	"elicit":              `did you mean "elicitation"?`,
})

// rootKeys are the keys of one root of a client block.
var rootKeys = yamlpos.NewObjectSpec("a root", yamlpos.RequiredKey("uri"), yamlpos.Key("name"))

// samplingKeys are the keys of a sampling mock.
var samplingKeys = yamlpos.NewObjectSpec("a sampling mock",
	yamlpos.RequiredKey("text").WithHint(`the canned reply, for example: sampling: {text: "42"}`),
	yamlpos.Key("model"),
	yamlpos.Key("stop_reason"),
).WithMisplaced(map[string]string{
	"stopReason": `write stop_reason`,
	"content":    "the reply is one text block: write text",
})

// elicitationKeys are the keys of an elicitation mock.
var elicitationKeys = yamlpos.NewObjectSpec("an elicitation mock",
	yamlpos.RequiredKey("action").WithHint("one of: accept, accept_defaults, decline, cancel"),
	yamlpos.Key("content"),
)

// subscribeKeys are the keys of a resource test's subscribe block.
var subscribeKeys = yamlpos.NewObjectSpec("a subscribe block",
	yamlpos.Key("trigger"),
	yamlpos.Key("wait_ms"),
	yamlpos.Key("min_updates"),
).WithMisplaced(map[string]string{
	"timeout_ms": "the wait for updates is wait_ms",
	"tool":       "the tool call goes under trigger: {tool: NAME, args: {...}}",
})

// triggerKeys are the keys of a subscribe block's trigger.
var triggerKeys = yamlpos.NewObjectSpec("a trigger",
	yamlpos.RequiredKey("tool"),
	yamlpos.Key("args"),
).WithMisplaced(map[string]string{
	"arguments": `did you mean "args"?`,
})

// clientMocks reads a client block.
func (l *loader) clientMocks(e yamlpos.Entry, ptr string) *ClientMocks {
	f, ok := l.Object(e.Value, ptr, clientKeys)
	if !ok {
		return nil
	}
	c := &ClientMocks{Pos: l.pos(e.KeyNode, ptr)}
	good := f.Unknown == 0
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		switch fe.Key {
		case "roots":
			c.Roots, ok = l.roots(fe.Value, fp)
		case "sampling":
			c.Sampling = l.samplingMock(fe, fp)
			ok = c.Sampling != nil
		case "elicitation":
			c.Elicitation = l.elicitationMock(fe, fp)
			ok = c.Elicitation != nil
		}
		good = good && ok
	}
	if !good {
		return nil
	}
	return c
}

// roots reads a roots list: an array (possibly empty) of {uri, name}.
func (l *loader) roots(n *yaml.Node, ptr string) ([]*Root, bool) {
	items, ok := l.seq(n, ptr, "roots (an array of {uri, name})")
	if !ok {
		return nil, false
	}
	out := make([]*Root, 0, len(items))
	good := true
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, rootKeys)
		if !ok || f.Unknown > 0 || !f.Has("uri") {
			good = false
			continue
		}
		r := &Root{Pos: l.pos(item, ip)}
		for _, fe := range f.Entries {
			switch fe.Key {
			case "uri":
				r.URI, ok = l.NonEmptyStr(fe.Value, yamlpos.Child(ip, fe.Key), "the root's uri")
			case "name":
				r.Name, ok = l.Str(fe.Value, yamlpos.Child(ip, fe.Key), "the root's name")
			}
			good = good && ok
		}
		out = append(out, r)
	}
	return out, good
}

// samplingMock reads a sampling mock.
func (l *loader) samplingMock(e yamlpos.Entry, ptr string) *SamplingMock {
	f, ok := l.Object(e.Value, ptr, samplingKeys)
	if !ok || !f.Has("text") {
		return nil
	}
	s := &SamplingMock{Pos: l.pos(e.KeyNode, ptr)}
	good := f.Unknown == 0
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		switch fe.Key {
		case "text":
			s.Text, ok = l.Str(fe.Value, fp, "the sampling reply (text)")
		case "model":
			s.Model, ok = l.NonEmptyStr(fe.Value, fp, "the model name")
		case "stop_reason":
			s.StopReason, ok = l.NonEmptyStr(fe.Value, fp, "stop_reason (such as endTurn, maxTokens)")
		}
		good = good && ok
	}
	if !good {
		return nil
	}
	return s
}

// elicitationMock reads an elicitation mock; content goes with accept and
// accept_defaults only.
func (l *loader) elicitationMock(e yamlpos.Entry, ptr string) *ElicitationMock {
	f, ok := l.Object(e.Value, ptr, elicitationKeys)
	if !ok || !f.Has("action") {
		return nil
	}
	m := &ElicitationMock{Pos: l.pos(e.KeyNode, ptr)}
	good := f.Unknown == 0
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		switch fe.Key {
		case "action":
			m.Action, ok = l.Enum(fe.Value, fp, "elicitation action", ElicitAccept, ElicitAcceptDefaults, ElicitDecline, ElicitCancel)
		case "content":
			m.Content = l.args(fe.Value, fp, "content (an object of the accepted fields)")
			ok = m.Content != nil
		}
		good = good && ok
	}
	if good && m.Content != nil && (m.Action == ElicitDecline || m.Action == ElicitCancel) {
		l.C.Add(f.KeyNode("content"), yamlpos.Child(ptr, "content"),
			"content applies to the accept and accept_defaults actions only", "a "+m.Action+" answer carries no content")
		good = false
	}
	if !good {
		return nil
	}
	return m
}

// subscribe reads a resource test's subscribe block.
func (l *loader) subscribe(e yamlpos.Entry, ptr string) *Subscribe {
	f, ok := l.Object(e.Value, ptr, subscribeKeys)
	if !ok {
		return nil
	}
	s := &Subscribe{WaitMS: DefaultSubscribeWaitMS, MinUpdates: DefaultSubscribeMinUpdates, Pos: l.pos(e.KeyNode, ptr)}
	good := f.Unknown == 0
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		switch fe.Key {
		case "trigger":
			s.Trigger = l.trigger(fe, fp)
			ok = s.Trigger != nil
		case "wait_ms":
			s.WaitMS, ok = l.PositiveInt(fe.Value, fp, "wait_ms")
		case "min_updates":
			s.MinUpdates, ok = l.PositiveInt(fe.Value, fp, "min_updates")
		}
		good = good && ok
	}
	if !good {
		return nil
	}
	return s
}

// trigger reads the tool call of a subscribe block.
func (l *loader) trigger(e yamlpos.Entry, ptr string) *Trigger {
	f, ok := l.Object(e.Value, ptr, triggerKeys)
	if !ok || !f.Has("tool") {
		return nil
	}
	t := &Trigger{Args: json.RawMessage("{}"), Pos: l.pos(e.KeyNode, ptr)}
	good := f.Unknown == 0
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		switch fe.Key {
		case "tool":
			t.Tool, ok = l.NonEmptyStr(fe.Value, fp, "the trigger's tool name")
		case "args":
			var args json.RawMessage
			if args = l.args(fe.Value, fp, "args (an object of tool arguments)"); args != nil {
				t.Args = args
			}
			ok = args != nil
		}
		good = good && ok
	}
	if !good {
		return nil
	}
	return t
}

// optionalKeyTargets reports the test's own assertions that read an
// envelope key only some tests have: progress without progress: true,
// updates without a subscription. key is that envelope key, need the
// option that adds it.
func (l *loader) optionalKeyTargets(list []*Assertion, key, need string) {
	for _, a := range list {
		if a.Set != nil {
			l.optionalKeyTargets(a.Set.Assertions, key, need)
			continue
		}
		rest, ok := strings.CutPrefix(a.Target, key)
		if !ok || (rest != "" && rest[0] != '.' && rest[0] != '[') {
			continue
		}
		pos := a.Pos
		pos.Pointer += "/target"
		l.C.Errs = append(l.C.Errs, errAt(pos, "the target "+yamlpos.QuoteShort(a.Target)+" reads the "+key+" key, which only "+need+" has", ""))
	}
}
