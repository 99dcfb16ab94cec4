package config

import (
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// agentKeys are the keys of one agent test.
var agentKeys = yamlpos.NewObjectSpec("an agent test",
	yamlpos.RequiredKey("name"),
	yamlpos.Key("model"),
	yamlpos.Key("models"),
	yamlpos.RequiredKey("servers"),
	yamlpos.Key("prompt"),
	yamlpos.Key("turns"),
	yamlpos.Key("system_prompt"),
	yamlpos.Key("max_turns"),
	yamlpos.Key("max_tokens"),
	yamlpos.Key("token_budget"),
	yamlpos.Key("max_tool_calls"),
	yamlpos.Key("time_budget"),
	yamlpos.Key("inject"),
	yamlpos.Key("recovery"),
	yamlpos.Key("expect"),
	yamlpos.Key("eval"),
	yamlpos.Key("tags"),
	yamlpos.Key("profile"),
).WithMisplaced(map[string]string{
	"server":  "an agent test takes a list: servers: [name]",
	"timeout": "the run's deadline is time_budget (a duration such as 30s)",
})

// modelRefKeys are the keys of a model of a declared provider.
var modelRefKeys = yamlpos.NewObjectSpec("a model", yamlpos.RequiredKey("provider"), yamlpos.RequiredKey("id"))

// turnKeys are the keys of one scripted turn.
var turnKeys = yamlpos.NewObjectSpec("a turn", yamlpos.RequiredKey("user"))

// turnsKeys are the keys of a simulated conversation.
var turnsKeys = yamlpos.NewObjectSpec("the turns block", yamlpos.RequiredKey("simulate"))

// simulateKeys are the keys of turns.simulate.
var simulateKeys = yamlpos.NewObjectSpec("a simulated user", yamlpos.RequiredKey("goal"), yamlpos.Key("persona"), yamlpos.Key("max_turns"))

// recoveryKeys are the keys of an agent test's recovery gate.
var recoveryKeys = yamlpos.NewObjectSpec("the recovery block",
	yamlpos.RequiredKey("max_detection_ms"),
	yamlpos.Key("max_recovery_ms"),
	yamlpos.Key("require_clean_timeout"),
)

// agentEvalKeys are the judged metrics of an agent test.
var agentEvalKeys = yamlpos.NewObjectSpec("the eval block",
	yamlpos.Key("mcp_task_completion"),
	yamlpos.Key("mcp_use"),
	yamlpos.Key("argument_correctness"),
	yamlpos.Key("plan_quality"),
	yamlpos.Key("multi_turn_mcp_use"),
	yamlpos.Key("rubric"),
)

// metricKeys are the keys of one judged metric.
var metricKeys = yamlpos.NewObjectSpec("a metric", yamlpos.Key("threshold"))

// agents reads the agents block into s.
func (l *loader) agents(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the agents block (an array of agent tests)")
	if !ok {
		return
	}
	for i, item := range items {
		if a := l.agent(item, yamlpos.Index(ptr, i)); a != nil {
			s.Agents = append(s.Agents, a)
		}
	}
}

// agent reads one agent test.
func (l *loader) agent(n *yaml.Node, ptr string) *AgentTest {
	f, ok := l.Object(n, ptr, agentKeys)
	if !ok {
		return nil
	}
	a := &AgentTest{MaxTurns: DefaultAgentMaxTurns, MaxTokens: DefaultAgentMaxTokens, Pos: l.pos(n, ptr)}
	l.Exclusive(f, agentKeys, true, "model", "models")
	if !f.Has("prompt") && !f.Has("turns") {
		l.C.Add(n, ptr, `missing required key "prompt" in an agent test`, "give a prompt, or a turns: block")
	}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "name":
			a.Name, _ = l.NonEmptyStr(e.Value, ep, "the test name")
		case "model":
			if m, ok := l.modelRef(e.Value, ep); ok {
				a.Models = []ModelRef{m}
			}
		case "models":
			if items, ok := l.nonEmptySeq(e.Value, ep, "models"); ok {
				for i, item := range items {
					if m, ok := l.modelRef(item, yamlpos.Index(ep, i)); ok {
						a.Models = append(a.Models, m)
					}
				}
			}
		case "servers":
			if items, ok := l.nonEmptySeq(e.Value, ep, "servers (an array of server names)"); ok {
				for i, item := range items {
					a.Servers = append(a.Servers, l.ref(item, yamlpos.Index(ep, i), "a server name", serverRef, l.refs.servers))
				}
			}
		case "prompt":
			a.Prompt, _ = l.NonEmptyStr(e.Value, ep, "the prompt")
		case "system_prompt":
			a.SystemPrompt, _ = l.Str(e.Value, ep, "the system prompt")
		case "turns":
			a.Turns = l.turns(e.Value, ep)
		case "max_turns":
			a.MaxTurns, _ = l.PositiveInt(e.Value, ep, "max_turns")
		case "max_tokens":
			a.MaxTokens, _ = l.PositiveInt(e.Value, ep, "max_tokens")
		case "token_budget":
			a.TokenBudget, _ = l.PositiveInt(e.Value, ep, "token_budget")
		case "max_tool_calls":
			a.MaxToolCalls, _ = l.PositiveInt(e.Value, ep, "max_tool_calls")
		case "time_budget":
			a.TimeBudget, _ = l.Duration(e.Value, ep, "time_budget")
		case "inject":
			if items, ok := l.nonEmptySeq(e.Value, ep, "inject (an array of fault names)"); ok {
				for i, item := range items {
					a.Inject = append(a.Inject, l.ref(item, yamlpos.Index(ep, i), "a fault name", faultRef, l.refs.faults))
				}
			}
		case "recovery":
			a.Recovery = l.recovery(e.Value, ep)
		case "expect":
			a.Expect, a.ExpectOptions = l.expect(e.Value, ep)
		case "eval":
			a.Eval = l.agentEval(e.Value, ep)
		case "tags":
			a.Tags, _ = l.StringList(e.Value, ep, "tags", true)
		case "profile":
			a.Profile, _ = l.Enum(e.Value, ep, "profile", ProfileQuick, ProfileStandard, ProfileFull)
		}
	}
	return a
}

// modelRef reads a model: a bare id, or {provider, id}.
func (l *loader) modelRef(n *yaml.Node, ptr string) (ModelRef, bool) {
	if yamlpos.Deref(n).Kind != yaml.MappingNode {
		id, ok := l.NonEmptyStr(n, ptr, "a model id")
		return ModelRef{ID: id}, ok
	}
	f, ok := l.Object(n, ptr, modelRefKeys)
	if !ok {
		return ModelRef{}, false
	}
	var m ModelRef
	good := f.Has("provider") && f.Has("id")
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "provider":
			m.Provider = l.ref(e.Value, ep, "a provider name", providerRef, l.refs.providers)
		case "id":
			var ok bool
			m.ID, ok = l.NonEmptyStr(e.Value, ep, "a model id")
			good = good && ok
		}
	}
	return m, good
}

// turns reads a turns block: scripted user messages, or {simulate: ...}.
func (l *loader) turns(n *yaml.Node, ptr string) *Turns {
	d := yamlpos.Deref(n)
	if d.Kind == yaml.SequenceNode {
		if len(d.Content) == 0 {
			l.C.Add(n, ptr, "turns needs at least one turn, found an empty array", "")
			return nil
		}
		t := &Turns{}
		for i, item := range d.Content {
			ip := yamlpos.Index(ptr, i)
			f, ok := l.Object(item, ip, turnKeys)
			if !ok {
				continue
			}
			if un, up := f.Get("user"); un != nil {
				msg, _ := l.NonEmptyStr(un, up, "the user message")
				t.Scripted = append(t.Scripted, msg)
			}
		}
		return t
	}
	f, ok := l.Object(n, ptr, turnsKeys)
	if !ok {
		return nil
	}
	sn, sp := f.Get("simulate")
	if sn == nil {
		return nil
	}
	sf, ok := l.Object(sn, sp, simulateKeys)
	if !ok {
		return nil
	}
	sim := &Simulation{MaxTurns: DefaultSimulateMaxTurns}
	for _, e := range sf.Entries {
		ep := yamlpos.Child(sp, e.Key)
		switch e.Key {
		case "goal":
			sim.Goal, _ = l.NonEmptyStr(e.Value, ep, "the goal")
		case "persona":
			sim.Persona, _ = l.Str(e.Value, ep, "the persona")
		case "max_turns":
			sim.MaxTurns, _ = l.PositiveInt(e.Value, ep, "max_turns")
		}
	}
	return &Turns{Simulate: sim}
}

// recovery reads an agent test's recovery gate.
func (l *loader) recovery(n *yaml.Node, ptr string) *Recovery {
	f, ok := l.Object(n, ptr, recoveryKeys)
	if !ok {
		return nil
	}
	r := &Recovery{}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "max_detection_ms":
			r.MaxDetectionMS, _ = l.PositiveInt(e.Value, ep, "max_detection_ms")
		case "max_recovery_ms":
			r.MaxRecoveryMS, _ = l.PositiveInt(e.Value, ep, "max_recovery_ms")
		case "require_clean_timeout":
			r.RequireCleanTimeout, _ = l.Boolean(e.Value, ep, "require_clean_timeout")
		}
	}
	return r
}

// agentEval reads an agent test's eval block.
func (l *loader) agentEval(n *yaml.Node, ptr string) *AgentEval {
	f, ok := l.Object(n, ptr, agentEvalKeys)
	if !ok {
		return nil
	}
	ev := &AgentEval{}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		if e.Key == "rubric" {
			ev.Rubric = l.rubric(e.Value, ep, true)
			continue
		}
		m := &Metric{Name: e.Key, Threshold: DefaultMetricThreshold}
		if !yamlpos.IsNull(e.Value) {
			mf, ok := l.Object(e.Value, ep, metricKeys)
			if !ok {
				continue
			}
			if tn, tp := mf.Get("threshold"); tn != nil {
				m.Threshold, _ = l.Fraction(tn, tp, "threshold")
			}
		}
		ev.Metrics = append(ev.Metrics, m)
	}
	return ev
}
