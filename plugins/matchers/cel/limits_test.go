package main

import (
	"testing"
	"time"

	"github.com/mcptest/mcptest/sdk/plugintest"
)

// TestCELBudget runs a cubic expression over a large list: the interrupt
// must stop it at the budget and report a suite bug.
func TestCELBudget(t *testing.T) {
	h := plugintest.Matcher(t, pluginWith(100*time.Millisecond))
	start := time.Now()
	mustInvalid(t, h, h.Match(matcherKey, numbers(2000), expr("value.all(x, value.all(y, value.all(z, x + y + z >= 0)))")),
		`the CEL expression failed to evaluate: "value.all(x, value.all(y, value.all(z, x + y + z >= 0)))" did not finish within 100ms`)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the interrupted match took %s", took)
	}
}

// TestCELLinearOverLargeValue guards the choice not to use cel.CostLimit
// (see env.go): one pass over 200,000 elements is an ordinary check and
// must finish well inside the default budget.
func TestCELLinearOverLargeValue(t *testing.T) {
	h := serve(t)
	r := h.Match(matcherKey, `{"items":`+numbers(200000)+`}`, expr("value.items.all(x, x >= 0) && value.items.exists(x, x == 0)"))
	if !r.Pass || r.Error != "" {
		t.Fatalf("%+v", r)
	}
}
