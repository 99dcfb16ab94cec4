package config

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// faultKeys are the keys of one fault.
var faultKeys = newObjectSpec("a fault",
	requiredKey("name"),
	requiredKey("target"),
	requiredKey("kind"),
	key("delay_ms"),
	key("failures"),
)

// faultTargetKeys are the keys of a fault's target.
var faultTargetKeys = newObjectSpec("a fault target", key("tool"), key("server"))

// faultKinds are the kinds of fault.
var faultKinds = []string{"hang", "wedged", "slow", "recover_after"}

// providerKeys are the keys of one provider.
var providerKeys = newObjectSpec("a provider",
	requiredKey("type"),
	requiredKey("base_url"),
	key("api_key_env"),
	key("organization"),
)

// budgetKeys are the keys of the budget block.
var budgetKeys = newObjectSpec("the budget block", key("per_test_usd_cents"), key("per_suite_usd_cents"))

// faults reads the faults block into s.
func (l *loader) faults(s *Suite, n *yaml.Node, ptr string) {
	items, ok := l.seq(n, ptr, "the faults block (an array of faults)")
	if !ok {
		return
	}
	seen := map[string]int{}
	for i, item := range items {
		ip := index(ptr, i)
		f, ok := l.object(item, ip, faultKeys)
		if !ok {
			continue
		}
		ft := &Fault{Pos: l.pos(item, ip)}
		for _, e := range f.entries {
			ep := child(ip, e.key)
			switch e.key {
			case "name":
				ft.Name, _ = l.nonEmptyStr(e.value, ep, "the fault name")
				if line, dup := seen[ft.Name]; dup && ft.Name != "" {
					l.c.add(e.value, ep, fmt.Sprintf("duplicate fault name %q", ft.Name), fmt.Sprintf("first declared at line %d", line))
				}
				seen[ft.Name] = e.value.Line
			case "target":
				l.faultTarget(ft, e.value, ep)
			case "kind":
				ft.Kind, _ = l.enum(e.value, ep, "fault kind", faultKinds...)
			case "delay_ms":
				ft.DelayMS, _ = l.positiveInt(e.value, ep, "delay_ms")
			case "failures":
				ft.Failures, _ = l.positiveInt(e.value, ep, "failures")
			}
		}
		switch {
		case ft.Kind == "slow" && !f.has("delay_ms"):
			l.c.add(item, ip, `a slow fault needs delay_ms`, "the milliseconds before the call answers")
		case ft.Kind == "recover_after" && !f.has("failures"):
			l.c.add(item, ip, `a recover_after fault needs failures`, "the number of calls that hang first")
		}
		s.Faults = append(s.Faults, ft)
	}
}

// faultTarget reads a fault's target: a tool, a server, or both.
func (l *loader) faultTarget(ft *Fault, n *yaml.Node, ptr string) {
	f, ok := l.object(n, ptr, faultTargetKeys)
	if !ok {
		return
	}
	if !f.has("tool") && !f.has("server") {
		l.c.add(n, ptr, `a fault target needs "tool", "server" or both`, "for example: target: {tool: search}")
	}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "tool":
			ft.Tool, _ = l.nonEmptyStr(e.value, ep, "the tool name")
		case "server":
			ft.Server = l.ref(e.value, ep, "a server name", serverRef, l.refs.servers)
		}
	}
}

// providers reads the providers block into s.
func (l *loader) providers(s *Suite, n *yaml.Node, ptr string) {
	es, ok := l.mapping(n, ptr, "the providers block (an object of named providers)")
	if !ok {
		return
	}
	for _, e := range es {
		pp := child(ptr, e.key)
		f, ok := l.object(e.value, pp, providerKeys)
		if !ok {
			continue
		}
		p := &Provider{Name: e.key, Pos: l.pos(e.keyNode, pp)}
		for _, fe := range f.entries {
			fp := child(pp, fe.key)
			switch fe.key {
			case "type":
				p.Type, _ = l.enum(fe.value, fp, "provider type", "openai")
			case "base_url":
				p.BaseURL, _ = l.httpURL(fe.value, fp, "base_url")
			case "api_key_env":
				p.APIKeyEnv, _ = l.nonEmptyStr(fe.value, fp, "api_key_env (an environment variable name)")
			case "organization":
				p.Organization, _ = l.nonEmptyStr(fe.value, fp, "organization")
			}
		}
		s.Providers[e.key] = p
		s.ProviderOrder = append(s.ProviderOrder, e.key)
	}
}

// budget reads the budget block.
func (l *loader) budget(n *yaml.Node, ptr string) *Budget {
	f, ok := l.object(n, ptr, budgetKeys)
	if !ok {
		return nil
	}
	b := &Budget{}
	for _, e := range f.entries {
		ep := child(ptr, e.key)
		switch e.key {
		case "per_test_usd_cents":
			b.PerTestUSDCents, _ = l.positiveInt(e.value, ep, "per_test_usd_cents")
		case "per_suite_usd_cents":
			b.PerSuiteUSDCents, _ = l.positiveInt(e.value, ep, "per_suite_usd_cents")
		}
	}
	return b
}
