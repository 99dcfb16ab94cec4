package main

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// activeValidations reads how many validation goroutines run a schema.
func activeValidations(g *gate) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.active
}

// waitDrained waits until no validation of c runs, or fails the test.
func waitDrained(t *testing.T, c *compiled, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for activeValidations(c.gate) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("validations still running %s later", within)
		}
		time.Sleep(time.Millisecond)
	}
}

func mustInstance(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(s)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestValidationTimeout runs a schema needing 2^40 steps: it must time out
// as a suite bug, the runaway must really stop (not just be abandoned), and
// the schema must stay usable afterwards.
func TestValidationTimeout(t *testing.T) {
	conn, m := serveWith(t, limits{maxDepth: defaultMaxDepth, budget: 200 * time.Millisecond})
	schema := explosion(40)
	before := interruptions.Load()
	start := time.Now()
	mustInvalid(t, matchOne(t, conn, `{"a":1}`, schema),
		"invalid matcher argument: schema: SchemaValidationTimedOut: validation did not finish within 200ms")
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the timed-out match took %s", took)
	}
	c, err := m.cache.get([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	waitDrained(t, c, 5*time.Second)
	if interruptions.Load() == before {
		t.Error("the runaway validation finished without being interrupted")
	}
	// Without properties to track, the same schema is quick: the gate has
	// reopened and the schema still validates.
	if r := matchOne(t, conn, `{}`, schema); !r.Pass || r.Error != "" {
		t.Errorf("after a timeout: %+v", r)
	}
}

// TestInterruptedValidationRetries trips the gate under a validation that
// has budget left: it is interrupted, starts again, and returns its real
// result.
func TestInterruptedValidationRetries(t *testing.T) {
	c, err := compileSchema([]byte(explosion(16)), defaultMaxDepth)
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(time.Minute)
	before := interruptions.Load()
	done := make(chan error, 1)
	go func() { done <- v.validate(context.Background(), c, mustInstance(t, `{"a":1}`)) }()
	for activeValidations(c.gate) == 0 {
		time.Sleep(time.Millisecond)
	}
	c.gate.trip()
	if err := <-done; err != nil {
		t.Fatalf("validate: %v", err)
	}
	if interruptions.Load() == before {
		t.Error("the trip did not interrupt the validation")
	}
}

// TestSlotsBoundRunningValidations fills every slot, as runaway
// validations would, and checks a new validation waits on its own budget
// instead of adding CPU work.
func TestSlotsBoundRunningValidations(t *testing.T) {
	c, err := compileSchema([]byte(`{"type":"integer"}`), defaultMaxDepth)
	if err != nil {
		t.Fatal(err)
	}
	v := newValidator(50 * time.Millisecond)
	for i := 0; i < cap(v.slots); i++ {
		v.slots <- struct{}{}
	}
	err = v.validate(context.Background(), c, mustInstance(t, `1`))
	if !errors.Is(err, ErrSchemaValidationTimedOut) {
		t.Fatalf("error %v, want a timeout while waiting for a slot", err)
	}
	if n := activeValidations(c.gate); n != 0 {
		t.Errorf("%d validations registered after giving up", n)
	}
	<-v.slots
	if err := v.validate(context.Background(), c, mustInstance(t, `1`)); err != nil {
		t.Errorf("with a free slot: %v", err)
	}
}

func TestValidationCancelled(t *testing.T) {
	c, err := compileSchema([]byte(explosion(40)), defaultMaxDepth)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	err = newValidator(time.Minute).validate(ctx, c, mustInstance(t, `{"a":1}`))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	waitDrained(t, c, 5*time.Second)
}
