package schemaguard

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard/guardtest"
)

// waitDrained waits until no validation of s runs, or fails the test. It
// polls: an interrupted validation unwinds on its own goroutine and
// announces no event when it has.
func waitDrained(t *testing.T, s *Schema, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for s.Running() != 0 {
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

func mustCompile(t *testing.T, schema string) *Schema {
	t.Helper()
	s, err := Compile([]byte(schema), DefaultMaxDepth)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestValidationTimeout runs a schema needing 2^40 steps: it must time out,
// the runaway must really stop (not just be abandoned), and the schema must
// stay usable afterwards.
func TestValidationTimeout(t *testing.T) {
	s := mustCompile(t, guardtest.Explosion(40))
	v := NewValidator(200 * time.Millisecond)
	before := Interruptions()
	err := v.Validate(context.Background(), s, mustInstance(t, `{"a":1}`))
	if !errors.Is(err, ErrSchemaValidationTimedOut) || err.Error() != "SchemaValidationTimedOut: validation did not finish within 200ms" {
		t.Fatalf("error %v, want a timeout", err)
	}
	waitDrained(t, s, 5*time.Second)
	if Interruptions() == before {
		t.Error("the runaway validation finished without being interrupted")
	}
	if err := v.Validate(context.Background(), s, mustInstance(t, `{}`)); err != nil {
		t.Errorf("after a timeout: %v", err)
	}
}

// TestInterruptedValidationRetries trips the gate under a validation that
// has budget left: it is interrupted, starts again, and returns its real
// result.
func TestInterruptedValidationRetries(t *testing.T) {
	c := mustCompile(t, guardtest.Explosion(16))
	v := NewValidator(time.Minute)
	before := Interruptions()
	done := make(chan error, 1)
	go func() { done <- v.Validate(context.Background(), c, mustInstance(t, `{"a":1}`)) }()
	// A bounded poll: a validation announces no event when it starts.
	for deadline := time.Now().Add(10 * time.Second); c.Running() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the validation did not start within 10s")
		}
	}
	c.gate.trip()
	if err := <-done; err != nil {
		t.Fatalf("validate: %v", err)
	}
	if Interruptions() == before {
		t.Error("the trip did not interrupt the validation")
	}
}

// TestSlotsBoundRunningValidations fills every slot, as runaway
// validations would, and checks a new validation waits on its own budget
// instead of adding CPU work.
func TestSlotsBoundRunningValidations(t *testing.T) {
	c := mustCompile(t, `{"type":"integer"}`)
	v := NewValidator(50 * time.Millisecond)
	for i := 0; i < cap(v.slots); i++ {
		v.slots <- struct{}{}
	}
	err := v.Validate(context.Background(), c, mustInstance(t, `1`))
	if !errors.Is(err, ErrSchemaValidationTimedOut) {
		t.Fatalf("error %v, want a timeout while waiting for a slot", err)
	}
	if n := c.Running(); n != 0 {
		t.Errorf("%d validations registered after giving up", n)
	}
	<-v.slots
	if err := v.Validate(context.Background(), c, mustInstance(t, `1`)); err != nil {
		t.Errorf("with a free slot: %v", err)
	}
}

func TestValidationCancelled(t *testing.T) {
	c := mustCompile(t, guardtest.Explosion(40))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	err := NewValidator(time.Minute).Validate(ctx, c, mustInstance(t, `{"a":1}`))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	waitDrained(t, c, 5*time.Second)
}

func TestValidateReportsLeafErrors(t *testing.T) {
	c := mustCompile(t, `{"items":{"type":"integer","maximum":1}}`)
	err := NewValidator(DefaultBudget).Validate(context.Background(), c, mustInstance(t, `[1,2,"x"]`))
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("error %v, want a validation error", err)
	}
	got := LeafErrors(verr)
	want := []Error{{"/1", "/items/maximum", "maximum: got 2, want 1"}, {"/2", "/items/type", "expected integer, got string"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("LeafErrors = %+v, want %+v", got, want)
	}
	fields := FailureFields(make([]Error, MaxListedErrors+5))
	if len(fields["errors"].([]Error)) != MaxListedErrors || fields["errors_total"] != MaxListedErrors+5 {
		t.Errorf("FailureFields = %v", fields)
	}
	if _, ok := FailureFields(got)["errors_total"]; ok {
		t.Error("errors_total set for a short list")
	}
}
