package config

import (
	"encoding/json"
	"strings"

	"gopkg.in/yaml.v3"
)

// clientKeys are the keys of a client block (a server's or a tool test's).
var clientKeys = newObjectSpec("a client block",
	key("roots"),
	key("sampling"),
	key("elicitation"),
).withMisplaced(map[string]string{
	"capabilities":        "each feature written here is declared: write roots, sampling or elicitation",
	"client_capabilities": "each feature written here is declared: write roots, sampling or elicitation",
	"elicit":              `did you mean "elicitation"?`,
})

// rootKeys are the keys of one root of a client block.
var rootKeys = newObjectSpec("a root", requiredKey("uri"), key("name"))

// samplingKeys are the keys of a sampling mock.
var samplingKeys = newObjectSpec("a sampling mock",
	requiredKey("text").withHint(`the canned reply, for example: sampling: {text: "42"}`),
	key("model"),
	key("stop_reason"),
).withMisplaced(map[string]string{
	"stopReason": `write stop_reason`,
	"content":    "the reply is one text block: write text",
})

// elicitationKeys are the keys of an elicitation mock.
var elicitationKeys = newObjectSpec("an elicitation mock",
	requiredKey("action").withHint("one of: accept, accept_defaults, decline, cancel"),
	key("content"),
)

// subscribeKeys are the keys of a resource test's subscribe block.
var subscribeKeys = newObjectSpec("a subscribe block",
	key("trigger"),
	key("wait_ms"),
	key("min_updates"),
).withMisplaced(map[string]string{
	"timeout_ms": "the wait for updates is wait_ms",
	"tool":       "the tool call goes under trigger: {tool: NAME, args: {...}}",
})

// triggerKeys are the keys of a subscribe block's trigger.
var triggerKeys = newObjectSpec("a trigger",
	requiredKey("tool"),
	key("args"),
).withMisplaced(map[string]string{
	"arguments": `did you mean "args"?`,
})

// clientMocks reads a client block.
func (l *loader) clientMocks(e entry, ptr string) *ClientMocks {
	f, ok := l.object(e.value, ptr, clientKeys)
	if !ok {
		return nil
	}
	c := &ClientMocks{Pos: l.pos(e.keyNode, ptr)}
	good := f.unknown == 0
	for _, fe := range f.entries {
		fp := child(ptr, fe.key)
		switch fe.key {
		case "roots":
			c.Roots, ok = l.roots(fe.value, fp)
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
		ip := index(ptr, i)
		f, ok := l.object(item, ip, rootKeys)
		if !ok || f.unknown > 0 || !f.has("uri") {
			good = false
			continue
		}
		r := &Root{Pos: l.pos(item, ip)}
		for _, fe := range f.entries {
			switch fe.key {
			case "uri":
				r.URI, ok = l.nonEmptyStr(fe.value, child(ip, fe.key), "the root's uri")
			case "name":
				r.Name, ok = l.str(fe.value, child(ip, fe.key), "the root's name")
			}
			good = good && ok
		}
		out = append(out, r)
	}
	return out, good
}

// samplingMock reads a sampling mock.
func (l *loader) samplingMock(e entry, ptr string) *SamplingMock {
	f, ok := l.object(e.value, ptr, samplingKeys)
	if !ok || !f.has("text") {
		return nil
	}
	s := &SamplingMock{Pos: l.pos(e.keyNode, ptr)}
	good := f.unknown == 0
	for _, fe := range f.entries {
		fp := child(ptr, fe.key)
		switch fe.key {
		case "text":
			s.Text, ok = l.str(fe.value, fp, "the sampling reply (text)")
		case "model":
			s.Model, ok = l.nonEmptyStr(fe.value, fp, "the model name")
		case "stop_reason":
			s.StopReason, ok = l.nonEmptyStr(fe.value, fp, "stop_reason (such as endTurn, maxTokens)")
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
func (l *loader) elicitationMock(e entry, ptr string) *ElicitationMock {
	f, ok := l.object(e.value, ptr, elicitationKeys)
	if !ok || !f.has("action") {
		return nil
	}
	m := &ElicitationMock{Pos: l.pos(e.keyNode, ptr)}
	good := f.unknown == 0
	for _, fe := range f.entries {
		fp := child(ptr, fe.key)
		switch fe.key {
		case "action":
			m.Action, ok = l.enum(fe.value, fp, "elicitation action", ElicitAccept, ElicitAcceptDefaults, ElicitDecline, ElicitCancel)
		case "content":
			m.Content = l.args(fe.value, fp, "content (an object of the accepted fields)")
			ok = m.Content != nil
		}
		good = good && ok
	}
	if good && m.Content != nil && (m.Action == ElicitDecline || m.Action == ElicitCancel) {
		l.c.add(f.keyNode("content"), child(ptr, "content"),
			"content applies to the accept and accept_defaults actions only", "a "+m.Action+" answer carries no content")
		good = false
	}
	if !good {
		return nil
	}
	return m
}

// subscribe reads a resource test's subscribe block.
func (l *loader) subscribe(e entry, ptr string) *Subscribe {
	f, ok := l.object(e.value, ptr, subscribeKeys)
	if !ok {
		return nil
	}
	s := &Subscribe{WaitMS: DefaultSubscribeWaitMS, MinUpdates: DefaultSubscribeMinUpdates, Pos: l.pos(e.keyNode, ptr)}
	good := f.unknown == 0
	for _, fe := range f.entries {
		fp := child(ptr, fe.key)
		switch fe.key {
		case "trigger":
			s.Trigger = l.trigger(fe, fp)
			ok = s.Trigger != nil
		case "wait_ms":
			s.WaitMS, ok = l.positiveInt(fe.value, fp, "wait_ms")
		case "min_updates":
			s.MinUpdates, ok = l.positiveInt(fe.value, fp, "min_updates")
		}
		good = good && ok
	}
	if !good {
		return nil
	}
	return s
}

// trigger reads the tool call of a subscribe block.
func (l *loader) trigger(e entry, ptr string) *Trigger {
	f, ok := l.object(e.value, ptr, triggerKeys)
	if !ok || !f.has("tool") {
		return nil
	}
	t := &Trigger{Args: json.RawMessage("{}"), Pos: l.pos(e.keyNode, ptr)}
	good := f.unknown == 0
	for _, fe := range f.entries {
		fp := child(ptr, fe.key)
		switch fe.key {
		case "tool":
			t.Tool, ok = l.nonEmptyStr(fe.value, fp, "the trigger's tool name")
		case "args":
			var args json.RawMessage
			if args = l.args(fe.value, fp, "args (an object of tool arguments)"); args != nil {
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
		l.c.errs = append(l.c.errs, errAt(pos, "the target "+quoteShort(a.Target)+" reads the "+key+" key, which only "+need+" has", ""))
	}
}
