package assert

import (
	"encoding/json"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
)

// An argument that holds one of the suites' credential values is marked
// private, so the host never remembers its verdict on disk; others are
// not, and a plan without secrets marks nothing.
func TestCheckRequestsOfSecretArgumentsArePrivate(t *testing.T) {
	f := &plugin.Found{Manifest: &plugin.Manifest{Name: "text"}}
	leaf := func(arg string) plan.Leaf {
		return plan.Leaf{Plugin: f, Matcher: &config.Matcher{Key: "contains", Arg: json.RawMessage(arg)}}
	}
	p := &plan.Plan{Suites: []*config.Suite{{}, {Secrets: []string{"tok-s3cret-value"}}}}
	c := &argChecker{seen: map[string]bool{}, verdicts: map[checkKey]error{}, secrets: planSecrets(p)}
	c.add(leaf(`"plain text"`))
	c.add(leaf(`"Bearer tok-s3cret-value"`))
	c.add(leaf(`{"nested": "tok-s3cret-value"}`))
	if len(c.reqs) != 3 {
		t.Fatalf("%d requests", len(c.reqs))
	}
	for i, want := range []bool{false, true, true} {
		if c.reqs[i].Private != want {
			t.Errorf("request %d (%s): private %v, want %v", i, c.reqs[i].Argument, c.reqs[i].Private, want)
		}
	}
	if planSecrets(&plan.Plan{Suites: []*config.Suite{{}}}) != nil {
		t.Error("a plan without secrets has a redactor")
	}
}
