package plan

import (
	"fmt"

	"github.com/mcptest/mcptest/core/config"
)

// fixtureScopes refuses a tool test that injects a fixture scoped to
// another tool: the fixture says which tool may answer with it.
func (b *builder) fixtureScopes(s *config.Suite, planned []*Test) {
	if s.Fixtures == nil {
		return
	}
	for _, t := range planned {
		if t.Kind != KindTool || t.Tool.InjectError == "" {
			continue
		}
		fe := FixtureError(s, t.Tool.InjectError)
		if fe == nil || fe.Tool == "" || fe.Tool == t.Tool.Tool {
			continue
		}
		pos := t.Options.KeyPos["inject_error"]
		b.errs = append(b.errs, posError(pos, fmt.Sprintf("fixture %q is scoped to tool %q; this test calls %q", fe.Name, fe.Tool, t.Tool.Tool),
			"scope the fixture with applies_to: any to inject it into any tool"))
	}
}

// FixtureError returns the suite's named error called name, or nil.
func FixtureError(s *config.Suite, name string) *config.FixtureError {
	if s.Fixtures == nil {
		return nil
	}
	for _, fe := range s.Fixtures.Errors {
		if fe.Name == name {
			return fe
		}
	}
	return nil
}
