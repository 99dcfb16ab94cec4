package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Limits that keep a pathological schema or value from stalling a run;
// they match the schema matcher's.
const (
	// maxSchemaDepth is the deepest JSON nesting a schema may have.
	maxSchemaDepth = 64
	// validationBudget is the wall-clock time one validation may take.
	validationBudget = 2 * time.Second
	// maxListedErrors caps the schema errors a failure lists.
	maxListedErrors = 20
)

// schemaURL is where the argument's schema lives for the compiler. A $ref
// that resolves anywhere else is external, and is refused by noFetch.
const schemaURL = "mem:///matcher-argument.json"

// printer renders validation messages in English.
var printer = message.NewPrinter(language.English)

// externalRefError is what noFetch returns for every URL it is asked for.
type externalRefError struct{ url string }

// Error says which reference was refused and why.
func (e *externalRefError) Error() string {
	return fmt.Sprintf("SchemaExternalRef: $ref to %q refused: a schema must be self-contained (refer only within it, with #...)", e.url)
}

// noFetch is the compiler's URL loader. It loads nothing, so a schema can
// never make mcptest read a file or reach the network; the standard
// meta-schemas come from the compiler's embedded copies without it.
type noFetch struct{}

// Load refuses url.
func (noFetch) Load(url string) (any, error) {
	return nil, &externalRefError{url: url}
}

// compileSchema checks and compiles a decoded JSON Schema (draft 2020-12
// unless it names another with $schema).
func compileSchema(doc any) (*jsonschema.Schema, error) {
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, fmt.Errorf(`field "schema" must be a JSON Schema (an object or a boolean), got %s`, describe(doc))
	}
	if d := depth(doc, 0); d > maxSchemaDepth {
		return nil, fmt.Errorf("SchemaTooDeep: the schema is nested more than %d levels deep", maxSchemaDepth)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noFetch{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("invalid JSON Schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		if ext := externalRef(err); ext != nil {
			return nil, ext
		}
		return nil, fmt.Errorf("invalid JSON Schema: %s", oneLine(err.Error()))
	}
	return sch, nil
}

// externalRef finds the refusal of noFetch in a compile error. The
// compiler wraps loader errors in a type without Unwrap, so errors.As alone
// does not reach it.
func externalRef(err error) *externalRefError {
	var ext *externalRefError
	if errors.As(err, &ext) {
		return ext
	}
	var load *jsonschema.LoadURLError
	if errors.As(err, &load) && errors.As(load.Err, &ext) {
		return ext
	}
	return nil
}

// depth returns the JSON nesting depth of v: 0 for a scalar, one more
// than its deepest member for an object or array (so {} is 1). It stops
// once past the cap, so a huge schema costs no more than the cap to measure.
func depth(v any, at int) int {
	if at > maxSchemaDepth {
		return at
	}
	var members []any
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			members = append(members, e)
		}
	case []any:
		members = v
	default:
		return at
	}
	deepest := at + 1
	for _, e := range members {
		deepest = max(deepest, depth(e, at+1))
	}
	return deepest
}

// schemaError is one reason a value does not match a schema, as the
// failure lists it.
type schemaError struct {
	InstancePath string `json:"instance_path"`
	SchemaPath   string `json:"schema_path"`
	Message      string `json:"message"`
}

// validate checks v against sch under the validation budget. It returns
// the reasons v does not match (none when it does); an error means the
// value could not be judged.
func validate(ctx context.Context, sch *jsonschema.Schema, v any) ([]schemaError, error) {
	done := make(chan error, 1)
	go func() {
		// This goroutine is outside the SDK's per-item panic recovery.
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("schema validation panicked: %v", r)
			}
		}()
		done <- sch.Validate(v)
	}()
	timer := time.NewTimer(validationBudget)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		// The goroutine is left to finish on its own: validation cannot be
		// interrupted, and its result no longer matters.
		return nil, fmt.Errorf("SchemaValidationTimedOut: validation took longer than %s", validationBudget)
	case <-ctx.Done():
		return nil, fmt.Errorf("schema validation: %w", ctx.Err())
	}
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, fmt.Errorf("schema validation: %w", err)
	}
	return flatten(ve), nil
}

// flatten lists the leaf causes of a validation error, sorted by where in
// the value they are, since those say what to fix.
func flatten(ve *jsonschema.ValidationError) []schemaError {
	var out []schemaError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, schemaError{
				InstancePath: pointer(e.InstanceLocation),
				SchemaPath:   schemaPath(e),
				Message:      e.ErrorKind.LocalizedString(printer),
			})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.SortStableFunc(out, func(a, b schemaError) int {
		if c := strings.Compare(a.InstancePath, b.InstancePath); c != 0 {
			return c
		}
		return strings.Compare(a.SchemaPath, b.SchemaPath)
	})
	return out
}

// schemaPath is the JSON pointer, within the argument's schema, of the
// keyword that failed.
func schemaPath(e *jsonschema.ValidationError) string {
	_, frag, _ := strings.Cut(e.SchemaURL, "#")
	return frag + pointer(e.ErrorKind.KeywordPath())
}

// pointer joins tokens into a JSON pointer ("" is the whole value).
func pointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return sb.String()
}

// schemaFailureFields are the failure fields for schema errors: the list
// (capped) and a count when it was cut.
func schemaFailureFields(errs []schemaError) map[string]any {
	extra := map[string]any{}
	if len(errs) > maxListedErrors {
		extra["errors_total"] = len(errs)
		errs = errs[:maxListedErrors]
	}
	extra["errors"] = errs
	return extra
}

// oneLine folds a multi-line library message into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// errorsNote is a failure note for schema errors: the headline, then the
// first error and how many more there are.
func errorsNote(headline string, errs []schemaError) string {
	first := errs[0]
	where := first.InstancePath
	if where == "" {
		where = "the top level"
	}
	msg := fmt.Sprintf("%s: at %s, %s", headline, where, first.Message)
	if n := len(errs) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more %s)", n, plural(n, "error", "errors"))
	}
	return msg
}

// plural picks the word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
