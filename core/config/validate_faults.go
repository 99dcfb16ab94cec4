package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// faultKeys are the keys of one fault.
var faultKeys = yamlpos.NewObjectSpec("a fault",
	yamlpos.RequiredKey("name"),
	yamlpos.RequiredKey("target"),
	yamlpos.RequiredKey("kind"),
	yamlpos.Key("delay_ms"),
	yamlpos.Key("failures"),
)

// faultTargetKeys are the keys of a fault's target.
var faultTargetKeys = yamlpos.NewObjectSpec("a fault target", yamlpos.Key("tool"), yamlpos.Key("server"))

// faultKinds are the kinds of fault.
var faultKinds = []string{"hang", "wedged", "slow", "recover_after"}

// providerKeys are the keys of one provider.
var providerKeys = yamlpos.NewObjectSpec("a provider",
	yamlpos.RequiredKey("type"),
	yamlpos.RequiredKey("base_url"),
	yamlpos.Key("api_key_env"),
	yamlpos.Key("organization"),
	yamlpos.Key("prices"),
)

// priceKeys are the keys of one model's price under a provider's prices.
var priceKeys = yamlpos.NewObjectSpec("a model price",
	yamlpos.RequiredKey("input_per_mtok"),
	yamlpos.RequiredKey("output_per_mtok"),
)

// budgetKeys are the keys of the budget block.
var budgetKeys = yamlpos.NewObjectSpec("the budget block", yamlpos.Key("per_test_usd_cents"), yamlpos.Key("per_suite_usd_cents"))

// faults reads the faults block into s.
func (l *loader) faults(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the faults block (an array of faults)")
	if !ok {
		return
	}
	seen := map[string]int{}
	for i, item := range items {
		ip := yamlpos.Index(ptr, i)
		f, ok := l.Object(item, ip, faultKeys)
		if !ok {
			continue
		}
		ft := &Fault{Pos: l.pos(item, ip)}
		for _, e := range f.Entries {
			ep := yamlpos.Child(ip, e.Key)
			switch e.Key {
			case "name":
				ft.Name, _ = l.NonEmptyStr(e.Value, ep, "the fault name")
				if line, dup := seen[ft.Name]; dup && ft.Name != "" {
					l.C.Add(e.Value, ep, fmt.Sprintf("duplicate fault name %q", ft.Name), fmt.Sprintf("first declared at line %d", line))
				}
				seen[ft.Name] = e.Value.Line
			case "target":
				l.faultTarget(ft, e.Value, ep)
			case "kind":
				ft.Kind, _ = l.Enum(e.Value, ep, "fault kind", faultKinds...)
			case "delay_ms":
				ft.DelayMS, _ = l.PositiveInt(e.Value, ep, "delay_ms")
			case "failures":
				ft.Failures, _ = l.PositiveInt(e.Value, ep, "failures")
			}
		}
		switch {
		case ft.Kind == "slow" && !f.Has("delay_ms"):
			l.C.Add(item, ip, `a slow fault needs delay_ms`, "the milliseconds before the call answers")
		case ft.Kind == "recover_after" && !f.Has("failures"):
			l.C.Add(item, ip, `a recover_after fault needs failures`, "the number of calls that hang first")
		}
		s.Faults = append(s.Faults, ft)
	}
}

// faultTarget reads a fault's target: a tool, a server, or both.
func (l *loader) faultTarget(ft *Fault, n *yaml.Node, ptr string) {
	f, ok := l.Object(n, ptr, faultTargetKeys)
	if !ok {
		return
	}
	if !f.Has("tool") && !f.Has("server") {
		l.C.Add(n, ptr, `a fault target needs "tool", "server" or both`, "for example: target: {tool: search}")
	}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "tool":
			ft.Tool, _ = l.NonEmptyStr(e.Value, ep, "the tool name")
		case "server":
			ft.Server = l.ref(e.Value, ep, "a server name", serverRef, l.refs.servers)
		}
	}
}

// providers reads the providers block into s.
func (l *loader) providers(s *Suite, n *yaml.Node, ptr string) {
	es, ok := l.Mapping(n, ptr, "the providers block (an object of named providers)")
	if !ok {
		return
	}
	for _, e := range es {
		pp := yamlpos.Child(ptr, e.Key)
		f, ok := l.Object(e.Value, pp, providerKeys)
		if !ok {
			continue
		}
		p := &Provider{Name: e.Key, Pos: l.pos(e.KeyNode, pp)}
		for _, fe := range f.Entries {
			fp := yamlpos.Child(pp, fe.Key)
			switch fe.Key {
			case "type":
				p.Type, _ = l.Enum(fe.Value, fp, "provider type", "openai")
			case "base_url":
				p.BaseURL, _ = l.httpURL(fe.Value, fp, "base_url")
			case "api_key_env":
				p.APIKeyEnv, _ = l.NonEmptyStr(fe.Value, fp, "api_key_env (an environment variable name)")
			case "organization":
				p.Organization, _ = l.NonEmptyStr(fe.Value, fp, "organization")
			case "prices":
				p.Prices = l.prices(fe.Value, fp)
			}
		}
		s.Providers[e.Key] = p
		s.ProviderOrder = append(s.ProviderOrder, e.Key)
	}
}

// prices reads a provider's prices: model id (or prefix*) to the US dollars
// of a million input and output tokens.
func (l *loader) prices(n *yaml.Node, ptr string) []ModelPrice {
	es, ok := l.Mapping(n, ptr, "prices (an object of model ids to {input_per_mtok, output_per_mtok})")
	if !ok {
		return nil
	}
	out := make([]ModelPrice, 0, len(es))
	for _, e := range es {
		mp := yamlpos.Child(ptr, e.Key)
		f, ok := l.Object(e.Value, mp, priceKeys)
		if !ok {
			continue
		}
		price := ModelPrice{Model: e.Key}
		for _, fe := range f.Entries {
			fp := yamlpos.Child(mp, fe.Key)
			switch fe.Key {
			case "input_per_mtok":
				price.InputPerMTok, _ = l.NonNegativeNumber(fe.Value, fp, "input_per_mtok (US dollars per million input tokens)")
			case "output_per_mtok":
				price.OutputPerMTok, _ = l.NonNegativeNumber(fe.Value, fp, "output_per_mtok (US dollars per million output tokens)")
			}
		}
		out = append(out, price)
	}
	return out
}

// budget reads the budget block.
func (l *loader) budget(n *yaml.Node, ptr string) *Budget {
	f, ok := l.Object(n, ptr, budgetKeys)
	if !ok {
		return nil
	}
	b := &Budget{}
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "per_test_usd_cents":
			b.PerTestUSDCents, _ = l.PositiveInt(e.Value, ep, "per_test_usd_cents")
		case "per_suite_usd_cents":
			b.PerSuiteUSDCents, _ = l.PositiveInt(e.Value, ep, "per_suite_usd_cents")
		}
	}
	return b
}
