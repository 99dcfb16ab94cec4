package config

import (
	"gopkg.in/yaml.v3"
)

// dumpBlocks writes every block after the servers, variables and
// performance.
func dumpBlocks(root *ymap, s *Suite) {
	if len(s.ProviderOrder) > 0 {
		pm := newMap()
		for _, name := range s.ProviderOrder {
			p := s.Providers[name]
			m := newMap()
			m.setStr("type", p.Type)
			m.setStr("base_url", p.BaseURL)
			m.setStr("api_key_env", p.APIKeyEnv)
			m.setStr("organization", p.Organization)
			pm.set(name, m.n)
		}
		root.set("providers", pm.n)
	}
	if b := s.Budget; b != nil {
		m := newMap()
		m.setInt("per_test_usd_cents", b.PerTestUSDCents)
		m.setInt("per_suite_usd_cents", b.PerSuiteUSDCents)
		root.set("budget", m.n)
	}
	if f := s.Fixtures; f != nil {
		root.set("fixtures", dumpFixtures(f))
	}
	root.set("faults", listOf(s.Faults, dumpFault))
	if len(s.RubricOrder) > 0 {
		rm := newMap()
		for _, name := range s.RubricOrder {
			rm.set(name, dumpRubric(s.Rubrics[name]))
		}
		root.set("rubrics", rm.n)
	}
	root.set("scorers", listOf(s.Scorers, dumpScorer))
	if h := s.Hooks; h != nil {
		hm := newMap()
		hm.set("beforeAll", dumpHookSteps(h.BeforeAll))
		hm.set("afterAll", dumpHookSteps(h.AfterAll))
		hm.set("beforeEach", dumpHookSteps(h.BeforeEach))
		hm.set("afterEach", dumpHookSteps(h.AfterEach))
		root.set("hooks", hm.n)
	}
	root.set("tools", listOf(s.Tools, dumpTool))
	root.set("resources", listOf(s.Resources, dumpResource))
	root.set("prompts", listOf(s.Prompts, dumpPrompt))
	root.set("lists", listOf(s.Lists, dumpList))
	root.set("completions", listOf(s.Completions, dumpCompletion))
	root.set("agents", listOf(s.Agents, dumpAgent))
	root.set("compliance", listOf(s.Compliance, dumpCompliance))
	root.set("evals", listOf(s.Evals, dumpEval))
	root.set("compositions", listOf(s.Compositions, dumpComposition))
}

// listOf writes a list with f, or nothing when the list is empty.
func listOf[T any](list []T, f func(T) *yaml.Node) *yaml.Node {
	if len(list) == 0 {
		return nil
	}
	n := seqOf()
	for _, v := range list {
		n.Content = append(n.Content, f(v))
	}
	return n
}

func dumpFixtures(f *Fixtures) *yaml.Node {
	m := newMap()
	m.setStr("server", f.Server)
	if f.Errors != nil {
		m.set("errors", listOf(f.Errors, func(e *FixtureError) *yaml.Node {
			em := newMap()
			em.setStr("name", e.Name)
			em.set("code", intNode(e.Code))
			em.set("message", str(e.Message))
			em.setStr("tool", e.Tool)
			em.setStr("applies_to", e.AppliesTo)
			return em.n
		}))
	}
	return m.n
}

func dumpFault(f *Fault) *yaml.Node {
	m := newMap()
	m.setStr("name", f.Name)
	tm := newMap()
	tm.setStr("tool", f.Tool)
	tm.setStr("server", f.Server)
	m.set("target", tm.n)
	m.setStr("kind", f.Kind)
	m.setInt("delay_ms", f.DelayMS)
	m.setInt("failures", f.Failures)
	return m.n
}

func dumpScorer(sc *Scorer) *yaml.Node {
	m := newMap()
	m.setStr("name", sc.Name)
	m.setStr("type", sc.Type)
	if sc.Command != nil {
		m.set("command", strSeq(sc.Command))
	}
	if len(sc.Env) > 0 {
		m.set("env", strMap(sc.Env))
	}
	m.setStr("cwd", sc.Cwd)
	m.set("timeout_ms", intNode(sc.TimeoutMS))
	return m.n
}

func dumpHookSteps(steps []*HookStep) *yaml.Node {
	return listOf(steps, func(h *HookStep) *yaml.Node {
		if !h.Context {
			return str(h.Command.Line)
		}
		m := newMap()
		m.set("command", str(h.Command.Line))
		m.set("mode", literal("context"))
		return m.n
	})
}

func dumpAgent(a *AgentTest) *yaml.Node {
	m := newMap()
	m.setStr("name", a.Name)
	m.set("models", listOf(a.Models, func(r ModelRef) *yaml.Node {
		if r.Provider == "" {
			return str(r.ID)
		}
		rm := newMap()
		rm.setStr("provider", r.Provider)
		rm.setStr("id", r.ID)
		return rm.n
	}))
	m.set("servers", strSeq(a.Servers))
	m.setStr("prompt", a.Prompt)
	m.setStr("system_prompt", a.SystemPrompt)
	if t := a.Turns; t != nil {
		if t.Simulate != nil {
			sm := newMap()
			sm.setStr("goal", t.Simulate.Goal)
			sm.setStr("persona", t.Simulate.Persona)
			sm.set("max_turns", intNode(t.Simulate.MaxTurns))
			tm := newMap()
			tm.set("simulate", sm.n)
			m.set("turns", tm.n)
		} else {
			m.set("turns", listOf(t.Scripted, func(u string) *yaml.Node {
				um := newMap()
				um.set("user", str(u))
				return um.n
			}))
		}
	}
	m.set("max_turns", intNode(a.MaxTurns))
	m.set("max_tokens", intNode(a.MaxTokens))
	m.setInt("token_budget", a.TokenBudget)
	m.setInt("max_tool_calls", a.MaxToolCalls)
	if a.TimeBudget > 0 {
		m.set("time_budget", durationNode(a.TimeBudget))
	}
	if a.Inject != nil {
		m.set("inject", strSeq(a.Inject))
	}
	if r := a.Recovery; r != nil {
		rm := newMap()
		rm.setInt("max_detection_ms", r.MaxDetectionMS)
		rm.setInt("max_recovery_ms", r.MaxRecoveryMS)
		rm.setTrue("require_clean_timeout", r.RequireCleanTimeout)
		m.set("recovery", rm.n)
	}
	m.set("expect", dumpExpect(a.Expect, a.ExpectOptions))
	if ev := a.Eval; ev != nil {
		em := newMap()
		for _, mt := range ev.Metrics {
			tm := newMap()
			tm.set("threshold", floatNode(mt.Threshold))
			em.set(mt.Name, tm.n)
		}
		if ev.Rubric != nil {
			em.set("rubric", dumpRubric(ev.Rubric))
		}
		m.set("eval", em.n)
	}
	if a.Tags != nil {
		m.set("tags", strSeq(a.Tags))
	}
	m.setStr("profile", a.Profile)
	return m.n
}

func dumpCompliance(c *ComplianceTest) *yaml.Node {
	m := newMap()
	m.setStr("name", c.Name)
	m.setStr("server", c.Server)
	m.setStr("check", c.Check)
	dumpOptions(m, &c.TestOptions)
	return m.n
}

func dumpEval(e *EvalTest) *yaml.Node {
	m := newMap()
	m.setStr("name", e.Name)
	m.setStr("server", e.Server)
	m.setStr("prompt", e.Prompt)
	if e.Rubric != nil {
		m.set("rubric", dumpRubric(e.Rubric))
	}
	if e.Response != nil {
		m.set("response", str(*e.Response))
	}
	m.set("threshold", floatNode(e.Threshold))
	if j := e.Judge; j != nil {
		jm := newMap()
		jm.setStr("model", j.Model)
		if j.Jury != nil {
			ym := newMap()
			ym.set("size", intNode(j.Jury.Size))
			ym.set("consensus", floatNode(j.Jury.Consensus))
			jm.set("jury", ym.n)
		}
		if j.Panel != nil {
			jm.set("panel", strSeq(j.Panel))
		}
		jm.setStr("aggregate", j.Aggregate)
		jm.setStr("tie_break", j.TieBreak)
		m.set("judge", jm.n)
	}
	if x := e.Matrix; x != nil {
		xm := newMap()
		if x.Models != nil {
			xm.set("models", strSeq(x.Models))
		}
		if x.Prompts != nil {
			xm.set("prompts", strSeq(x.Prompts))
		}
		m.set("matrix", xm.n)
	}
	if e.Tags != nil {
		m.set("tags", strSeq(e.Tags))
	}
	m.setStr("profile", e.Profile)
	return m.n
}

func dumpRubric(r *Rubric) *yaml.Node {
	if r.Text != "" {
		return str(r.Text)
	}
	m := newMap()
	m.setStr("ref", r.Ref)
	m.setStr("preset", r.Preset)
	m.setFloat("threshold", r.Threshold)
	if r.Strict != nil {
		m.set("strict", boolNode(*r.Strict))
	}
	m.setTrue("require_evidence", r.RequireEvidence)
	m.setStr("aggregation", r.Aggregation)
	if sc := r.Scale; sc != nil {
		if sc.Kind == "likert" {
			lm := newMap()
			lm.set("min", intNode(sc.Min))
			lm.set("max", intNode(sc.Max))
			sm := newMap()
			sm.set("likert", lm.n)
			m.set("scale", sm.n)
		} else {
			m.set("scale", literal(sc.Kind))
		}
	}
	m.set("criteria", listOf(r.Criteria, dumpCriterion))
	if r.Tree != nil {
		m.set("tree", dumpTree(r.Tree))
	}
	return m.n
}

func dumpCriterion(c *Criterion) *yaml.Node {
	m := newMap()
	m.setStr("name", c.Name)
	m.setStr("description", c.Description)
	if c.Weight != 1 {
		m.set("weight", floatNode(c.Weight))
	}
	m.setTrue("required", c.Required)
	m.setTrue("guard", c.Guard)
	m.set("examples", listOf(c.Examples, func(e *Example) *yaml.Node {
		em := newMap()
		em.set("response", str(e.Response))
		em.set("score", floatNode(e.Score))
		return em.n
	}))
	if w := c.When; w != nil {
		wm := newMap()
		wm.setStr("contains", w.Contains)
		wm.setStr("regex", w.Regex)
		m.set("when", wm.n)
	}
	m.setFloat("threshold", c.Threshold)
	return m.n
}

func dumpTree(t *TreeNode) *yaml.Node {
	m := newMap()
	if t.Score != nil {
		m.set("score", floatNode(*t.Score))
		m.setStr("reason", t.Reason)
		return m.n
	}
	m.setStr("ask", t.Ask)
	if t.Yes != nil {
		m.set("yes", dumpTree(t.Yes))
	}
	if t.No != nil {
		m.set("no", dumpTree(t.No))
	}
	return m.n
}

func dumpComposition(c *Composition) *yaml.Node {
	m := newMap()
	m.setStr("name", c.Name)
	m.setStr("server", c.Server)
	m.set("nodes", listOf(c.Nodes, func(n *CompositionNode) *yaml.Node {
		nm := newMap()
		nm.setStr("id", n.ID)
		nm.setStr("tool", n.Tool)
		nm.setStr("server", n.Server)
		nm.set("args", jsonNode(n.Args))
		if n.Needs != nil {
			nm.set("needs", strSeq(n.Needs))
		}
		return nm.n
	}))
	m.setStr("output", c.Output)
	m.set("expect", dumpExpect(c.Expect, c.ExpectOptions))
	if c.Tags != nil {
		m.set("tags", strSeq(c.Tags))
	}
	return m.n
}
