package compliance

import (
	"context"
	"encoding/json"
)

// registerPrompts adds the checks of this file to the registry (loadRegistry).
func registerPrompts() {
	register(
		&Check{ID: "P01", Title: "prompts/get with an unknown name or without a required argument gets -32602", Severity: Should,
			Section: "server/prompts.mdx#error-handling", Needs: []Capability{CapPrompts}, run: checkP01},
	)
}

// promptInfo is one listed prompt.
type promptInfo struct {
	Name      string
	Arguments []struct {
		Name     string `json:"name"`
		Required bool   `json:"required"`
	}
}

func listedPrompts(ctx context.Context, s *Session) ([]promptInfo, error) {
	items, _, err := listAll(ctx, s, "prompts/list", "prompts")
	if err != nil {
		return nil, err
	}
	out := make([]promptInfo, 0, len(items))
	for _, it := range items {
		var p promptInfo
		if json.Unmarshal(it, &p) == nil && p.Name != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// checkP01 asks for a prompt that does not exist, and for a listed prompt
// without its required arguments.
func checkP01(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	const unknown = "mcptest-no-such-prompt"
	r, err := s.Call(ctx, "prompts/get", map[string]any{"name": unknown, "arguments": map[string]any{}})
	if err != nil {
		e.add(Finding{Name: "prompts/get " + unknown, Status: Fail, Must: true, Expected: "error -32602", Actual: actual(r, err),
			Note: "every request must be answered"})
	} else {
		expectCode(e, "prompts/get "+unknown, r, nil, -32602, false, "")
	}
	prompts, err := listedPrompts(ctx, s)
	if err != nil {
		return nil
	}
	for _, p := range prompts {
		needs := false
		for _, a := range p.Arguments {
			needs = needs || a.Required
		}
		if !needs {
			continue
		}
		r, err := s.Call(ctx, "prompts/get", map[string]any{"name": p.Name, "arguments": map[string]any{}})
		expectCode(e, "prompts/get "+p.Name+" without its required arguments", r, err, -32602, false, "")
		break
	}
	return nil
}
