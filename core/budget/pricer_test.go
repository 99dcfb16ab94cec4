package budget_test

import (
	"github.com/mcptest/mcptest/core/budget"
	"github.com/mcptest/mcptest/core/models"
)

// The model router is the pricer a run uses: its table is the provider
// plugins' (and their providers: entries' overrides). An external test
// package, because core/models reaches core/budget through the host's cost
// cap.
var _ budget.Pricer = (*models.Router)(nil)
