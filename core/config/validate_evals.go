package config

import (
	"gopkg.in/yaml.v3"
)

// evalKeys are the keys of one eval.
var evalKeys = newObjectSpec("an eval",
	requiredKey("name"),
	requiredKey("server"),
	requiredKey("prompt"),
	key("rubric"),
	key("response"),
	key("threshold"),
	key("judge"),
	key("matrix"),
	key("tags"),
	key("profile"),
)

// judgeKeys are the keys of an eval's judge block.
var judgeKeys = newObjectSpec("the judge block",
	key("model"),
	key("jury"),
	key("panel"),
	key("aggregate"),
	key("tie_break"),
)

// juryKeys are the keys of judge.jury.
var juryKeys = newObjectSpec("a jury", requiredKey("size"), requiredKey("consensus"))

// matrixKeys are the axes of an eval matrix.
var matrixKeys = newObjectSpec("the matrix block", key("models"), key("prompts"))

// scorerKeys are the keys of one external scorer.
var scorerKeys = newObjectSpec("a scorer",
	requiredKey("name"),
	requiredKey("type"),
	key("command"),
	key("env"),
	key("cwd"),
	key("timeout_ms"),
)

// DefaultScorerTimeoutMS is the per-call timeout of a scorer that sets
// none.
const DefaultScorerTimeoutMS = 30000

// evals reads the evals block into s.
func (l *loader) evals(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the evals block (an array of evals)")
	if !ok {
		return
	}
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, evalKeys)
		if !ok {
			continue
		}
		ev := &EvalTest{Threshold: DefaultRubricThreshold, Pos: l.pos(item, ip)}
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				ev.Name, _ = l.nonEmptyStr(e.value, ep, "the eval name")
			case "server":
				ev.Server = l.ref(e.value, ep, "a server name", serverRef, l.refs.servers)
			case "prompt":
				ev.Prompt, _ = l.nonEmptyStr(e.value, ep, "the prompt")
			case "rubric":
				ev.Rubric = l.rubric(e.value, ep, true)
			case "response":
				if r, ok := l.str(e.value, ep, "the response to grade"); ok {
					ev.Response = &r
				}
			case "threshold":
				ev.Threshold, _ = l.fraction(e.value, ep, "threshold")
			case "judge":
				ev.Judge = l.judge(e.value, ep)
			case "matrix":
				ev.Matrix = l.matrix(e.value, ep)
			case "tags":
				ev.Tags, _ = l.stringList(e.value, ep, "tags", true)
			case "profile":
				ev.Profile, _ = l.enum(e.value, ep, "profile", ProfileQuick, ProfileStandard, ProfileFull)
			}
		}
		s.Evals = append(s.Evals, ev)
	}
}

// judge reads an eval's judge block.
func (l *loader) judge(n *yaml.Node, ptr string) *Judge {
	f, ok := l.object(n, ptr, judgeKeys)
	if !ok {
		return nil
	}
	j := &Judge{}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "model":
			j.Model, _ = l.nonEmptyStr(e.value, ep, "the judge model")
		case "jury":
			jf, ok := l.object(e.value, ep, juryKeys)
			if !ok {
				continue
			}
			j.Jury = &Jury{}
			for _, je := range jf.entries {
				jp := child(ep, je.key)
				if je.key == "size" {
					j.Jury.Size, _ = l.positiveInt(je.value, jp, "size")
				} else {
					j.Jury.Consensus, _ = l.fraction(je.value, jp, "consensus")
				}
			}
		case "panel":
			j.Panel, _ = l.stringList(e.value, ep, "panel (an array of models)", true)
			if len(j.Panel) == 0 && deref(e.value).Kind == yaml.SequenceNode {
				l.c.add(e.value, ep, "a panel needs at least one model", "")
			}
		case "aggregate":
			j.Aggregate, _ = l.enum(e.value, ep, "panel aggregate", "mean", "median", "majority")
		case "tie_break":
			j.TieBreak, _ = l.enum(e.value, ep, "tie_break", "pass", "fail")
		}
	}
	for _, k := range []string{"aggregate", "tie_break"} {
		if f.has(k) && !f.has("panel") {
			l.c.add(f.keyNode(k), child(ptr, k), k+" only applies to a panel", "add panel: [model, ...]")
		}
	}
	return j
}

// matrix reads an eval's matrix: models and/or prompts.
func (l *loader) matrix(n *yaml.Node, ptr string) *EvalMatrix {
	f, ok := l.object(n, ptr, matrixKeys)
	if !ok {
		return nil
	}
	if !f.has("models") && !f.has("prompts") {
		l.c.add(n, ptr, `a matrix needs "models", "prompts" or both`, "")
		return nil
	}
	m := &EvalMatrix{}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		list, ok := l.stringList(e.value, ep, e.key, true)
		if ok && len(list) == 0 {
			l.c.add(e.value, ep, "a matrix axis needs at least one entry", "")
		}
		if e.key == "models" {
			m.Models = list
		} else {
			m.Prompts = list
		}
	}
	return m
}

// scorers reads the scorers block into s.
func (l *loader) scorers(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the scorers block (an array of scorers)")
	if !ok {
		return
	}
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, scorerKeys)
		if !ok {
			continue
		}
		sc := &Scorer{Env: map[string]string{}, TimeoutMS: DefaultScorerTimeoutMS, Pos: l.pos(item, ip)}
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				sc.Name, _ = l.nonEmptyStr(e.value, ep, "the scorer name")
			case "type":
				sc.Type, _ = l.nonEmptyStr(e.value, ep, "the scorer type")
			case "command":
				sc.Command, _ = l.command(e.value, ep)
			case "env":
				sc.Env, _ = l.stringMap(e.value, ep, "env")
			case "cwd":
				sc.Cwd, _ = l.nonEmptyStr(e.value, ep, "cwd")
			case "timeout_ms":
				sc.TimeoutMS, _ = l.positiveInt(e.value, ep, "timeout_ms")
			}
		}
		if sc.Type == "exec" && !f.has("command") {
			l.c.add(item, ip, `an exec scorer needs "command"`, `for example: command: ["python3", "score.py"]`)
		}
		s.Scorers = append(s.Scorers, sc)
	}
}
