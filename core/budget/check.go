package budget

import (
	"fmt"

	"github.com/mcptest/mcptest/core/config"
)

// Check reports, at plan time, each agent test model that a budget cap
// applies to but whose price is unknown: such a cap could not be enforced,
// so the run must not start. Each error names the model and the agent
// test's position. A suite without caps, or without agent tests, passes.
func Check(s *config.Suite, p Pricer) config.Errors {
	if NewSuite(s.Budget) == nil {
		return nil
	}
	var errs config.Errors
	for i, a := range s.Agents {
		for j, ref := range a.Models {
			if p != nil {
				if _, ok := p.Price(ref); ok {
					continue
				}
			}
			ptr := a.Pos.Pointer
			if ptr == "" {
				ptr = fmt.Sprintf("/agents/%d", i)
			}
			errs = append(errs, &config.Error{File: a.Pos.File, Line: a.Pos.Line, Col: a.Pos.Col,
				Pointer: fmt.Sprintf("%s/models/%d", ptr, j),
				Msg:     fmt.Sprintf("budget: no price is known for model %s, so the budget block's caps cannot be enforced on agent test %q", describe(ref), a.Name),
				Hint:    "use a model whose provider plugin ships a price for it, give its providers entry prices, or remove the budget block"})
		}
	}
	return errs
}

// describe names a model as a suite writes it.
func describe(ref config.ModelRef) string {
	if ref.Provider != "" {
		return fmt.Sprintf("%q of provider %q", ref.ID, ref.Provider)
	}
	return fmt.Sprintf("%q", ref.ID)
}
