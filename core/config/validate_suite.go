package config

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
	"github.com/mcptest/mcptest/internal/suggest"
)

// suiteKeys are the top-level keys of the v1 format.
var suiteKeys = yamlpos.NewObjectSpec("the suite",
	yamlpos.Key("servers"),
	yamlpos.Key("imports"),
	yamlpos.Key("variables"),
	yamlpos.Key("tools"),
	yamlpos.Key("resources"),
	yamlpos.Key("prompts"),
	yamlpos.Key("lists"),
	yamlpos.Key("completions"),
	yamlpos.Key("agents"),
	yamlpos.Key("trajectories"),
	yamlpos.Key("faults"),
	yamlpos.Key("providers"),
	yamlpos.Key("budget"),
	yamlpos.Key("compliance"),
	yamlpos.Key("evals"),
	yamlpos.Key("rubrics"),
	yamlpos.Key("scorers"),
	yamlpos.Key("fixtures"),
	yamlpos.Key("compositions"),
	yamlpos.Key("hooks"),
	yamlpos.Key("defaultTest"),
	yamlpos.Key("model_compatibility"),
	yamlpos.Key("performance"),
	yamlpos.Key("target_versions"),
).WithMisplaced(map[string]string{
	"name":   "tests go in a list under tools:, resources:, prompts: or agents:",
	"server": "servers are declared in a map under servers:",
	"tool":   "tool tests go in a list under tools:",
	"expect": "assertions belong to a test; for every test at once, use defaultTest.expect",
})

// performanceKeys are the keys of the performance block.
var performanceKeys = yamlpos.NewObjectSpec("the performance block",
	yamlpos.Key("default_timeout_ms"),
	yamlpos.Key("p95_latency_ms"),
)

// ProtocolVersions are the MCP protocol revisions target_versions accepts,
// oldest first.
var ProtocolVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// fragment reads one file into a partial suite; the fragments of a suite
// and its imports are merged afterwards. The variables and imports blocks
// were read before, and are skipped here.
func (l *loader) fragment(root *yaml.Node) *Suite {
	s := &Suite{File: l.C.File, Servers: map[string]*Server{}, Providers: map[string]*Provider{},
		Rubrics: map[string]*Rubric{}, Blocks: map[string]Pos{}}
	f, ok := l.Object(root, "", suiteKeys)
	if !ok {
		return s
	}
	for _, e := range f.Entries {
		ptr := yamlpos.Child("", e.Key)
		s.Blocks[e.Key] = l.pos(e.KeyNode, ptr)
		v := e.Value
		switch e.Key {
		case "servers":
			l.servers(s, v, ptr)
		case "tools":
			l.tools(s, v, ptr)
		case "resources":
			l.resources(s, v, ptr)
		case "prompts":
			l.prompts(s, v, ptr)
		case "lists":
			l.lists(s, v, ptr)
		case "completions":
			l.completions(s, v, ptr)
		case "agents":
			l.agents(s, v, ptr)
		case "trajectories":
			l.trajectories(s, v, ptr)
		case "faults":
			l.faults(s, v, ptr)
		case "providers":
			l.providers(s, v, ptr)
		case "budget":
			s.Budget = l.budget(v, ptr)
		case "compliance":
			l.compliance(s, v, ptr)
		case "evals":
			l.evals(s, v, ptr)
		case "rubrics":
			l.rubrics(s, v, ptr)
		case "scorers":
			l.scorers(s, v, ptr)
		case "fixtures":
			s.Fixtures = l.fixtures(e, ptr)
		case "compositions":
			l.compositions(s, v, ptr)
		case "hooks":
			s.Hooks = l.hooks(e, ptr)
		case "defaultTest":
			s.defaultTest = l.defaultTest(e, ptr)
		case "model_compatibility":
			s.ModelCompatibility, _ = l.StringList(v, ptr, "model_compatibility", true)
		case "performance":
			l.performance(s, v, ptr)
		case "target_versions":
			s.TargetVersions = l.targetVersions(v, ptr)
		}
	}
	return s
}

// performance reads the performance block.
func (l *loader) performance(s *Suite, n *yaml.Node, ptr string) {
	f, ok := l.Object(n, ptr, performanceKeys)
	if !ok {
		return
	}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "default_timeout_ms":
			s.DefaultTimeoutMS, _ = l.PositiveInt(e.Value, ep, "default_timeout_ms")
		case "p95_latency_ms":
			s.P95LatencyMS, _ = l.PositiveInt(e.Value, ep, "p95_latency_ms")
		}
	}
}

// targetVersions reads target_versions: known protocol revisions, with
// duplicates dropped and the declared order kept.
func (l *loader) targetVersions(n *yaml.Node, ptr string) []string {
	items, ok := l.seq(n, ptr, "target_versions")
	if !ok {
		return nil
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		v, ok := l.Str(item, ip, "a protocol revision")
		if !ok {
			continue
		}
		if !slices.Contains(ProtocolVersions, v) {
			hint := "known revisions: " + strings.Join(ProtocolVersions, ", ")
			if s := suggest.Closest(v, ProtocolVersions); s != "" {
				hint = fmt.Sprintf("did you mean %q? (%s)", s, hint)
			}
			l.C.Add(item, ip, fmt.Sprintf("unknown protocol revision %q", v), hint)
			continue
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// pos is the position of node n (as written) with pointer ptr.
func (l *loader) pos(n *yaml.Node, ptr string) Pos {
	return Pos{File: l.C.File, Line: n.Line, Col: n.Column, Pointer: ptr}
}
