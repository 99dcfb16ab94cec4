package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// evalKeys are the keys of one eval.
var evalKeys = yamlpos.NewObjectSpec("an eval",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("server"),
	yamlpos.RequiredKey("prompt"),
	yamlpos.Key("rubric"),
	yamlpos.Key("response"),
	yamlpos.Key("threshold"),
	yamlpos.Key("judge"),
	yamlpos.Key("matrix"),
	yamlpos.Key("scorer"),
	yamlpos.Key("tags"),
	yamlpos.Key("profile"),
)

// judgeKeys are the keys of an eval's judge block.
var judgeKeys = yamlpos.NewObjectSpec("the judge block",
	yamlpos.Key("model"),
	yamlpos.Key("jury"),
	yamlpos.Key("panel"),
	yamlpos.Key("aggregate"),
	yamlpos.Key("tie_break"),
)

// juryKeys are the keys of judge.jury.
var juryKeys = yamlpos.NewObjectSpec("a jury", yamlpos.RequiredKey("size"), yamlpos.RequiredKey("consensus"))

// matrixKeys are the axes of an eval matrix.
var matrixKeys = yamlpos.NewObjectSpec("the matrix block", yamlpos.Key("models"), yamlpos.Key("prompts"))

// scorerKeys are the keys of one external scorer.
var scorerKeys = yamlpos.NewObjectSpec("a scorer",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("type"),
	yamlpos.Key("command"),
	yamlpos.Key("env"),
	yamlpos.Key("cwd"),
	yamlpos.Key("timeout_ms"),
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
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, evalKeys)
		if !ok {
			continue
		}
		ev := &EvalTest{Threshold: DefaultRubricThreshold, Pos: l.pos(item, ip)}
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				ev.Name, _ = l.NonEmptyStr(e.Value, ep, "the eval name")
			case "server":
				ev.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
			case "prompt":
				ev.Prompt, _ = l.NonEmptyStr(e.Value, ep, "the prompt")
			case "rubric":
				ev.Rubric = l.rubric(e.Value, ep, true)
			case "response":
				if r, ok := l.Str(e.Value, ep, "the response to grade"); ok {
					ev.Response = &r
				}
			case "threshold":
				ev.Threshold, _ = l.Fraction(e.Value, ep, "threshold")
			case "judge":
				ev.Judge = l.judge(e.Value, ep)
			case "matrix":
				ev.Matrix = l.matrix(e.Value, ep)
			case "scorer":
				ev.Scorer = l.ref(e.Value, ep, "a scorer name", scorerRef, l.refs.scorers)
			case "tags":
				ev.Tags, _ = l.StringList(e.Value, ep, "tags", true)
			case "profile":
				ev.Profile, _ = l.Enum(e.Value, ep, "profile", ProfileQuick, ProfileStandard, ProfileFull)
			}
		}
		s.Evals = append(s.Evals, ev)
	}
}

// judge reads an eval's judge block.
func (l *loader) judge(n *yaml.Node, ptr string) *Judge {
	f, ok := l.Object(n, ptr, judgeKeys)
	if !ok {
		return nil
	}
	j := &Judge{}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "model":
			j.Model, _ = l.NonEmptyStr(e.Value, ep, "the judge model")
		case "jury":
			jf, ok := l.Object(e.Value, ep, juryKeys)
			if !ok {
				continue
			}
			j.Jury = &Jury{}
			for _, je := range jf.Entries {
				jp := yamlpos.Child(ep, je.Key)
				if je.Key == "size" {
					j.Jury.Size, _ = l.PositiveInt(je.Value, jp, "size")
				} else {
					j.Jury.Consensus, _ = l.Fraction(je.Value, jp, "consensus")
				}
			}
		case "panel":
			j.Panel, _ = l.StringList(e.Value, ep, "panel (an array of models)", true)
			if len(j.Panel) == 0 && yamlpos.Deref(e.Value).Kind == yaml.SequenceNode {
				l.C.Add(e.Value, ep, "a panel needs at least one model", "")
			}
		case "aggregate":
			j.Aggregate, _ = l.Enum(e.Value, ep, "panel aggregate", "mean", "median", "majority")
		case "tie_break":
			j.TieBreak, _ = l.Enum(e.Value, ep, "tie_break", "pass", "fail")
		}
	}
	for _, k := range []string{"aggregate", "tie_break"} {
		if f.Has(k) && !f.Has("panel") {
			l.C.Add(f.KeyNode(k), yamlpos.Child(ptr, k), k+" only applies to a panel", "add panel: [model, ...]")
		}
	}
	return j
}

// matrix reads an eval's matrix: models and/or prompts.
func (l *loader) matrix(n *yaml.Node, ptr string) *EvalMatrix {
	f, ok := l.Object(n, ptr, matrixKeys)
	if !ok {
		return nil
	}
	if !f.Has("models") && !f.Has("prompts") {
		l.C.Add(n, ptr, `a matrix needs "models", "prompts" or both`, "")
		return nil
	}
	m := &EvalMatrix{}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		list, ok := l.StringList(e.Value, ep, e.Key, true)
		if ok && len(list) == 0 {
			l.C.Add(e.Value, ep, "a matrix axis needs at least one entry", "")
		}
		if e.Key == "models" {
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
	seen := map[string]int{}
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, scorerKeys)
		if !ok {
			continue
		}
		sc := &Scorer{Env: map[string]string{}, TimeoutMS: DefaultScorerTimeoutMS, Pos: l.pos(item, ip)}
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				sc.Name, _ = l.NonEmptyStr(e.Value, ep, "the scorer name")
				// Evals name scorers, so a second entry of the same name
				// would make which one grades depend on order.
				if line, dup := seen[sc.Name]; dup && sc.Name != "" {
					l.C.Add(e.Value, ep, fmt.Sprintf("duplicate scorer name %q", sc.Name), fmt.Sprintf("first declared at line %d", line))
				}
				seen[sc.Name] = e.Value.Line
			case "type":
				sc.Type, _ = l.NonEmptyStr(e.Value, ep, "the scorer type")
				sc.TypePos = l.pos(e.Value, ep)
			case "command":
				sc.Command, _ = l.command(e.Value, ep)
			case "env":
				sc.Env, _ = l.StringMap(e.Value, ep, "env")
			case "cwd":
				sc.Cwd, _ = l.NonEmptyStr(e.Value, ep, "cwd")
			case "timeout_ms":
				sc.TimeoutMS, _ = l.PositiveInt(e.Value, ep, "timeout_ms")
			}
		}
		if sc.Type == "exec" && !f.Has("command") {
			l.C.Add(item, ip, `an exec scorer needs "command"`, `for example: command: ["python3", "score.py"]`)
		}
		s.Scorers = append(s.Scorers, sc)
	}
}
