package budget

import "github.com/mcptest/mcptest/core/models"

// The model router is the pricer a run uses: its table is the provider
// plugins' (and their providers: entries' overrides).
var _ Pricer = (*models.Router)(nil)
