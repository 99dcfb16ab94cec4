package main

import (
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// The graded run renders the same live and from its saved report.
func TestEvalsLiveMatchesSaved(t *testing.T) {
	rendertest.LiveMatchesSaved(t, newPlugin(), "gitlab", reporttest.Evals())
}
