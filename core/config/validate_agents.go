package config

import (
	"gopkg.in/yaml.v3"
)

// agentKeys are the keys of one agent test.
var agentKeys = newObjectSpec("an agent test",
	requiredKey("name"),
	key("model"),
	key("models"),
	requiredKey("servers"),
	key("prompt"),
	key("turns"),
	key("system_prompt"),
	key("max_turns"),
	key("max_tokens"),
	key("token_budget"),
	key("max_tool_calls"),
	key("time_budget"),
	key("inject"),
	key("recovery"),
	key("expect"),
	key("eval"),
	key("tags"),
	key("profile"),
).withMisplaced(map[string]string{
	"server":  "an agent test takes a list: servers: [name]",
	"timeout": "the run's deadline is time_budget (a duration such as 30s)",
})

// modelRefKeys are the keys of a model of a declared provider.
var modelRefKeys = newObjectSpec("a model", requiredKey("provider"), requiredKey("id"))

// turnKeys are the keys of one scripted turn.
var turnKeys = newObjectSpec("a turn", requiredKey("user"))

// turnsKeys are the keys of a simulated conversation.
var turnsKeys = newObjectSpec("the turns block", requiredKey("simulate"))

// simulateKeys are the keys of turns.simulate.
var simulateKeys = newObjectSpec("a simulated user", requiredKey("goal"), key("persona"), key("max_turns"))

// recoveryKeys are the keys of an agent test's recovery gate.
var recoveryKeys = newObjectSpec("the recovery block",
	requiredKey("max_detection_ms"),
	key("max_recovery_ms"),
	key("require_clean_timeout"),
)

// agentEvalKeys are the judged metrics of an agent test.
var agentEvalKeys = newObjectSpec("the eval block",
	key("mcp_task_completion"),
	key("mcp_use"),
	key("argument_correctness"),
	key("plan_quality"),
	key("multi_turn_mcp_use"),
	key("rubric"),
)

// metricKeys are the keys of one judged metric.
var metricKeys = newObjectSpec("a metric", key("threshold"))

// agents reads the agents block into s.
func (l *loader) agents(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the agents block (an array of agent tests)")
	if !ok {
		return
	}
	for i, item := range items {
		if a := l.agent(item, index(ptr, i)); a != nil {
			s.Agents = append(s.Agents, a)
		}
	}
}

// agent reads one agent test.
func (l *loader) agent(n *yaml.Node, ptr string) *AgentTest {
	f, ok := l.object(n, ptr, agentKeys)
	if !ok {
		return nil
	}
	a := &AgentTest{MaxTurns: DefaultAgentMaxTurns, MaxTokens: DefaultAgentMaxTokens, Pos: l.pos(n, ptr)}
	l.exclusive(f, agentKeys, true, "model", "models")
	if !f.has("prompt") && !f.has("turns") {
		l.c.add(n, ptr, `missing required key "prompt" in an agent test`, "give a prompt, or a turns: block")
	}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "name":
			a.Name, _ = l.nonEmptyStr(e.value, ep, "the test name")
		case "model":
			if m, ok := l.modelRef(e.value, ep); ok {
				a.Models = []ModelRef{m}
			}
		case "models":
			if items, ok := l.nonEmptySeq(e.value, ep, "models"); ok {
				for i, item := range items {
					if m, ok := l.modelRef(item, index(ep, i)); ok {
						a.Models = append(a.Models, m)
					}
				}
			}
		case "servers":
			if items, ok := l.nonEmptySeq(e.value, ep, "servers (an array of server names)"); ok {
				for i, item := range items {
					a.Servers = append(a.Servers, l.ref(item, index(ep, i), "a server name", serverRef, l.refs.servers))
				}
			}
		case "prompt":
			a.Prompt, _ = l.nonEmptyStr(e.value, ep, "the prompt")
		case "system_prompt":
			a.SystemPrompt, _ = l.str(e.value, ep, "the system prompt")
		case "turns":
			a.Turns = l.turns(e.value, ep)
		case "max_turns":
			a.MaxTurns, _ = l.positiveInt(e.value, ep, "max_turns")
		case "max_tokens":
			a.MaxTokens, _ = l.positiveInt(e.value, ep, "max_tokens")
		case "token_budget":
			a.TokenBudget, _ = l.positiveInt(e.value, ep, "token_budget")
		case "max_tool_calls":
			a.MaxToolCalls, _ = l.positiveInt(e.value, ep, "max_tool_calls")
		case "time_budget":
			a.TimeBudget, _ = l.duration(e.value, ep, "time_budget")
		case "inject":
			if items, ok := l.nonEmptySeq(e.value, ep, "inject (an array of fault names)"); ok {
				for i, item := range items {
					a.Inject = append(a.Inject, l.ref(item, index(ep, i), "a fault name", faultRef, l.refs.faults))
				}
			}
		case "recovery":
			a.Recovery = l.recovery(e.value, ep)
		case "expect":
			a.Expect, a.ExpectOptions = l.expect(e.value, ep)
		case "eval":
			a.Eval = l.agentEval(e.value, ep)
		case "tags":
			a.Tags, _ = l.stringList(e.value, ep, "tags", true)
		case "profile":
			a.Profile, _ = l.enum(e.value, ep, "profile", ProfileQuick, ProfileStandard, ProfileFull)
		}
	}
	return a
}

// modelRef reads a model: a bare id, or {provider, id}.
func (l *loader) modelRef(n *yaml.Node, ptr string) (ModelRef, bool) {
	if deref(n).Kind != yaml.MappingNode {
		id, ok := l.nonEmptyStr(n, ptr, "a model id")
		return ModelRef{ID: id}, ok
	}
	f, ok := l.object(n, ptr, modelRefKeys)
	if !ok {
		return ModelRef{}, false
	}
	var m ModelRef
	good := f.has("provider") && f.has("id")
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "provider":
			m.Provider = l.ref(e.value, ep, "a provider name", providerRef, l.refs.providers)
		case "id":
			var ok bool
			m.ID, ok = l.nonEmptyStr(e.value, ep, "a model id")
			good = good && ok
		}
	}
	return m, good
}

// turns reads a turns block: scripted user messages, or {simulate: ...}.
func (l *loader) turns(n *yaml.Node, ptr string) *Turns {
	d := deref(n)
	if d.Kind == yaml.SequenceNode {
		if len(d.Content) == 0 {
			l.c.add(n, ptr, "turns needs at least one turn, found an empty array", "")
			return nil
		}
		t := &Turns{}
		for i, item := range d.Content {
			ip := index(ptr, i)
			f, ok := l.object(item, ip, turnKeys)
			if !ok {
				continue
			}
			if un, up := f.get("user"); un != nil {
				msg, _ := l.nonEmptyStr(un, up, "the user message")
				t.Scripted = append(t.Scripted, msg)
			}
		}
		return t
	}
	f, ok := l.object(n, ptr, turnsKeys)
	if !ok {
		return nil
	}
	sn, sp := f.get("simulate")
	if sn == nil {
		return nil
	}
	sf, ok := l.object(sn, sp, simulateKeys)
	if !ok {
		return nil
	}
	sim := &Simulation{MaxTurns: DefaultSimulateMaxTurns}
	for _, e := range sf.entries {
		ep := child(sp, e.key)
		switch e.key {
		case "goal":
			sim.Goal, _ = l.nonEmptyStr(e.value, ep, "the goal")
		case "persona":
			sim.Persona, _ = l.str(e.value, ep, "the persona")
		case "max_turns":
			sim.MaxTurns, _ = l.positiveInt(e.value, ep, "max_turns")
		}
	}
	return &Turns{Simulate: sim}
}

// recovery reads an agent test's recovery gate.
func (l *loader) recovery(n *yaml.Node, ptr string) *Recovery {
	f, ok := l.object(n, ptr, recoveryKeys)
	if !ok {
		return nil
	}
	r := &Recovery{}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "max_detection_ms":
			r.MaxDetectionMS, _ = l.positiveInt(e.value, ep, "max_detection_ms")
		case "max_recovery_ms":
			r.MaxRecoveryMS, _ = l.positiveInt(e.value, ep, "max_recovery_ms")
		case "require_clean_timeout":
			r.RequireCleanTimeout, _ = l.boolean(e.value, ep, "require_clean_timeout")
		}
	}
	return r
}

// agentEval reads an agent test's eval block.
func (l *loader) agentEval(n *yaml.Node, ptr string) *AgentEval {
	f, ok := l.object(n, ptr, agentEvalKeys)
	if !ok {
		return nil
	}
	ev := &AgentEval{}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		if e.key == "rubric" {
			ev.Rubric = l.rubric(e.value, ep, true)
			continue
		}
		m := &Metric{Name: e.key, Threshold: DefaultMetricThreshold}
		if !isNull(e.value) {
			mf, ok := l.object(e.value, ep, metricKeys)
			if !ok {
				continue
			}
			if tn, tp := mf.get("threshold"); tn != nil {
				m.Threshold, _ = l.fraction(tn, tp, "threshold")
			}
		}
		ev.Metrics = append(ev.Metrics, m)
	}
	return ev
}
