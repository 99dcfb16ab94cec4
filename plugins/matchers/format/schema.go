package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
)

// Schemas are compiled and validated by schemaguard, as for the schema
// matcher: the same guards (SchemaTooDeep at 64 levels, SchemaExternalRef
// before compiling, SchemaValidationTimedOut after 2 seconds) and the same
// checks. Only the failure shape is this plugin's own (see flatten).

// printer renders validation messages in English.
var printer = message.NewPrinter(language.English)

// compileSchema checks and compiles a decoded JSON Schema (draft 2020-12
// unless it names another with $schema).
func compileSchema(doc any) (*schemaguard.Schema, error) {
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, fmt.Errorf(`field "schema" must be a JSON Schema (an object or a boolean), got %s`, jsonvalue.Describe(doc))
	}
	// The guards read the schema's text (the depth cap scans it before
	// anything recurses into it), so the decoded schema is written back;
	// json.Number keeps every number as the suite wrote it.
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON Schema: %w", err)
	}
	return schemaguard.Compile(raw, schemaguard.DefaultMaxDepth)
}

// validate checks v against sch under the validation budget. It returns
// the reasons v does not match (none when it does); an error means the
// value could not be judged.
func (f *family) validate(ctx context.Context, sch *schemaguard.Schema, v any) ([]schemaguard.Error, error) {
	err := f.validator.Validate(ctx, sch, v)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	switch {
	case errors.As(err, &ve):
		return flatten(ve), nil
	case errors.Is(err, schemaguard.ErrSchemaValidationTimedOut):
		return nil, err
	}
	return nil, fmt.Errorf("schema validation: %w", err)
}

// flatten lists the leaf causes of a validation error, sorted by where in
// the value they are, since those say what to fix. Unlike the schema
// matcher's list, the schema path is where the keyword sits in the schema
// (not the path through $ref) and messages keep the validator's wording.
func flatten(ve *jsonschema.ValidationError) []schemaguard.Error {
	var out []schemaguard.Error
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, schemaguard.Error{
				InstancePath: schemaguard.Pointer(e.InstanceLocation),
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
	slices.SortStableFunc(out, func(a, b schemaguard.Error) int {
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
	return frag + schemaguard.Pointer(e.ErrorKind.KeywordPath())
}

// errorsNote is a failure note for schema errors: the headline, then the
// first error and how many more there are.
func errorsNote(headline string, errs []schemaguard.Error) string {
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
