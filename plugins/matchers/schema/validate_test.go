package main

import (
	"testing"
	"time"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard/guardtest"
)

// TestValidationTimeout runs a schema needing 2^40 steps: it must time out
// as a suite bug, the runaway must really stop (not just be abandoned), and
// the schema must stay usable afterwards.
func TestValidationTimeout(t *testing.T) {
	h, m := serveWith(t, limits{maxDepth: schemaguard.DefaultMaxDepth, budget: 200 * time.Millisecond})
	schema := guardtest.Explosion(40)
	before := schemaguard.Interruptions()
	start := time.Now()
	h.MustInvalid(h.Match(matcherKey, `{"a":1}`, schema),
		"invalid matcher argument: schema: SchemaValidationTimedOut: validation did not finish within 200ms")
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the timed-out match took %s", took)
	}
	c, err := m.cache.Get([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	// A bounded poll: the interrupted validation unwinds on its own
	// goroutine, and the schema announces no event when it has.
	for deadline := time.Now().Add(5 * time.Second); c.Running() != 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("validations still running 5s later")
		}
	}
	if schemaguard.Interruptions() == before {
		t.Error("the runaway validation finished without being interrupted")
	}
	// Without properties to track, the same schema is quick: the gate has
	// reopened and the schema still validates.
	h.MustPass(h.Match(matcherKey, `{}`, schema))
}
