package schemaguard

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// MaxListedErrors bounds the errors one failure lists; a large instance
// can produce thousands, and the first ones are enough to act on.
const MaxListedErrors = 20

// Error is one entry of a failure's "errors" list.
type Error struct {
	// InstancePath is the JSON pointer of the offending part of the value.
	InstancePath string `json:"instance_path"`
	// SchemaPath is the JSON pointer of the keyword that rejected it.
	SchemaPath string `json:"schema_path"`
	// Message says what is wrong.
	Message string `json:"message"`
}

// FailureFields are the failure fields for a list of schema errors:
// "errors", cut to MaxListedErrors, and "errors_total" with the full count
// when it was cut.
func FailureFields(errs []Error) map[string]any {
	extra := map[string]any{}
	if len(errs) > MaxListedErrors {
		extra["errors_total"] = len(errs)
		errs = errs[:MaxListedErrors]
	}
	extra["errors"] = errs
	return extra
}

// LeafErrors flattens the validator's detailed output to its leaves (the
// causes that explain themselves; the inner nodes only say "anyOf failed"
// or "properties failed"), without duplicates, ordered by instance path
// and then schema path (JSON pointers compared token by token, array
// indexes by value). The schema path follows $ref the way the validator
// walked it, and a type mismatch reads "expected X, got Y".
func LeafErrors(verr *jsonschema.ValidationError) []Error {
	var out []Error
	seen := map[Error]bool{}
	var walk func(u *jsonschema.OutputUnit)
	walk = func(u *jsonschema.OutputUnit) {
		if len(u.Errors) == 0 {
			if u.Error == nil {
				return
			}
			e := Error{InstancePath: u.InstanceLocation, SchemaPath: u.KeywordLocation, Message: message(u.Error)}
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
			return
		}
		for i := range u.Errors {
			walk(&u.Errors[i])
		}
	}
	walk(verr.DetailedOutput())
	slices.SortStableFunc(out, func(a, b Error) int {
		if c := comparePointers(a.InstancePath, b.InstancePath); c != 0 {
			return c
		}
		return comparePointers(a.SchemaPath, b.SchemaPath)
	})
	return out
}

// message is the text of one leaf. A type mismatch is worded "expected X,
// got Y", like the other matchers, and a false schema says what it means;
// every other kind keeps the validator's own wording.
func message(e *jsonschema.OutputError) string {
	switch k := e.Kind.(type) {
	case *kind.Type:
		return fmt.Sprintf("expected %s, got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.FalseSchema:
		// The library says only "false schema", which reads like a bug.
		return "no value is allowed here (the schema is false)"
	}
	return e.String()
}

// RefCycle returns an error describing a $ref loop the validator ran into,
// or nil: a schema whose references loop on themselves without consuming
// any of the value is broken, whatever the value.
func RefCycle(verr *jsonschema.ValidationError) error {
	if c, ok := verr.ErrorKind.(*kind.RefCycle); ok {
		return fmt.Errorf("the schema's references loop: %s and %s both lead to %s without moving into the value",
			c.KeywordLocation1, c.KeywordLocation2, c.URL)
	}
	for _, cause := range verr.Causes {
		if err := RefCycle(cause); err != nil {
			return err
		}
	}
	return nil
}

// comparePointers orders JSON pointers token by token, numbers by value, so
// /items/2 comes before /items/10.
func comparePointers(a, b string) int {
	at, bt := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(at) && i < len(bt); i++ {
		if at[i] == bt[i] {
			continue
		}
		an, aerr := strconv.Atoi(at[i])
		bn, berr := strconv.Atoi(bt[i])
		if aerr == nil && berr == nil {
			if an < bn {
				return -1
			}
			return 1
		}
		return strings.Compare(at[i], bt[i])
	}
	return len(at) - len(bt)
}
