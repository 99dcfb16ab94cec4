package run_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/config"
)

// TestCheckArgumentsInBatches vets more arguments than one batch holds,
// most of them repeats (vetted once, then answered from the cache) and a
// bad one repeated across batches: every bad leaf is reported, located,
// in plan order, exactly as a one-call check did.
func TestCheckArgumentsInBatches(t *testing.T) {
	var b strings.Builder
	b.WriteString("servers:\n  demo:\n    command: [\"DEMO\"]\ntools:\n")
	const n = 2500
	var want []string
	for i := range n {
		arg := `{eq: false}`
		switch {
		case i%700 == 3:
			arg = `{re: "("}` // invalid, and repeated
			want = append(want, fmt.Sprintf("/tools/%d/expect/0/matcher/re: invalid matcher argument: invalid regex", i))
		case i%3 == 0:
			arg = fmt.Sprintf(`{eq: "unique %d"}`, i) // never repeated
		}
		fmt.Fprintf(&b, "  - {name: t%d, server: demo, tool: echo, expect: [{target: result, matcher: %s}]}\n", i, arg)
	}
	pl, h := setupScoring(t, b.String(), "")
	err := assert.CheckArguments(context.Background(), h, pl)
	var errs config.Errors
	if !errors.As(err, &errs) || len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d: %v", len(errs), len(want), err)
	}
	for i, w := range want {
		if !strings.Contains(errs[i].Error(), w) {
			t.Errorf("error %d = %v, want %s", i, errs[i], w)
		}
	}
}
