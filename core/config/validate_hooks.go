package config

import (
	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// hooksKeys are the phases of the hooks block.
var hooksKeys = yamlpos.NewObjectSpec("the hooks block",
	yamlpos.Key("beforeAll"),
	yamlpos.Key("afterAll"),
	yamlpos.Key("beforeEach"),
	yamlpos.Key("afterEach"),
).WithMisplaced(map[string]string{
	"before_all":  `did you mean "beforeAll"?`,
	"after_all":   `did you mean "afterAll"?`,
	"before_each": `did you mean "beforeEach"?`,
	"after_each":  `did you mean "afterEach"?`,
})

// hookStepKeys are the keys of a context-aware hook step.
var hookStepKeys = yamlpos.NewObjectSpec("a hook step",
	yamlpos.RequiredKey("command"),
	yamlpos.RequiredKey("mode").WithHint("a hook written as a map must say mode: context; write a plain hook as a string"),
)

// hooks reads the hooks block: each phase is a command string or a list of
// steps, each a command string or {command, mode: context}.
func (l *loader) hooks(e yamlpos.Entry, ptr string) *Hooks {
	f, ok := l.Object(e.Value, ptr, hooksKeys)
	if !ok {
		return nil
	}
	h := &Hooks{Pos: l.pos(e.KeyNode, ptr)}
	for _, fe := range f.Entries {
		steps := l.hookSteps(fe.Value, yamlpos.Child(ptr, fe.Key))
		switch fe.Key {
		case "beforeAll":
			h.BeforeAll = steps
		case "afterAll":
			h.AfterAll = steps
		case "beforeEach":
			h.BeforeEach = steps
		case "afterEach":
			h.AfterEach = steps
		}
	}
	return h
}

// hookSteps reads one phase.
func (l *loader) hookSteps(n *yaml.Node, ptr string) []*HookStep {
	d := yamlpos.Deref(n)
	if d.Kind != yaml.SequenceNode {
		if s := l.hookStep(n, ptr); s != nil {
			return []*HookStep{s}
		}
		return nil
	}
	if len(d.Content) == 0 {
		l.C.Add(n, ptr, "a hook phase needs at least one command, found an empty array", "")
		return nil
	}
	var out []*HookStep
	for i, item := range d.Content {
		if s := l.hookStep(item, yamlpos.Index(ptr, i)); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// hookStep reads one step: a plain command, or a map that must declare
// mode: context so the richer contract is never chosen by accident.
func (l *loader) hookStep(n *yaml.Node, ptr string) *HookStep {
	if yamlpos.Deref(n).Kind != yaml.MappingNode {
		c := l.commandLine(n, ptr, "a hook command")
		if c == nil {
			return nil
		}
		return &HookStep{Command: *c}
	}
	f, ok := l.Object(n, ptr, hookStepKeys)
	if !ok {
		return nil
	}
	if !f.Has("mode") {
		return nil // reported as a missing required key
	}
	step := &HookStep{Context: true}
	good := f.Has("command")
	for _, e := range f.Entries {
		ep := yamlpos.Child(ptr, e.Key)
		switch e.Key {
		case "command":
			c := l.commandLine(e.Value, ep, "a hook command")
			if c == nil {
				good = false
				continue
			}
			step.Command = *c
		case "mode":
			if _, ok := l.Enum(e.Value, ep, "hook mode", "context"); !ok {
				good = false
			}
		}
	}
	if !good {
		return nil
	}
	return step
}
