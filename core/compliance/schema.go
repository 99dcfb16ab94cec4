package compliance

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schemas come from the server under test, so they are untrusted: nothing
// they reference is ever fetched, their nesting is capped before they are
// decoded, and a validation that runs too long is abandoned.
const (
	maxSchemaDepth     = 64
	schemaValidateTime = 2 * time.Second
	schemaURL          = "mcptest:///server-schema.json"
)

// errExternalRef means a schema needs a document the check will not load.
var errExternalRef = errors.New("the schema refers to a document outside itself, which is never fetched")

type refusingLoader struct{ url *string }

func (l refusingLoader) Load(url string) (any, error) {
	*l.url = url
	return nil, fmt.Errorf("%w: %s", errExternalRef, url)
}

// compileSchema compiles a JSON Schema the server sent; the 2020-12
// dialect applies unless the schema names another with $schema.
func compileSchema(raw []byte) (*jsonschema.Schema, error) {
	if depth(raw) > maxSchemaDepth {
		return nil, fmt.Errorf("the schema nests deeper than %d levels", maxSchemaDepth)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	var refused string
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refusingLoader{url: &refused})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("register the schema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if refused != "" {
		return nil, fmt.Errorf("%w (%s)", errExternalRef, refused)
	}
	if err != nil {
		return nil, fmt.Errorf("the schema does not compile: %w", err)
	}
	return sch, nil
}

// errValidationTimeout means a validation was abandoned.
var errValidationTimeout = errors.New("schema validation took too long and was abandoned")

// validate checks a JSON value against a compiled schema within a time
// budget. A runaway validation goroutine is left to finish on its own; the
// compliance command is short-lived, so the cost is bounded.
func validate(sch *jsonschema.Schema, raw []byte) error {
	if depth(raw) > maxSchemaDepth*4 {
		return fmt.Errorf("the value nests deeper than %d levels", maxSchemaDepth*4)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("schema validation panicked: %v", p)
			}
		}()
		done <- sch.Validate(inst)
	}()
	t := time.NewTimer(schemaValidateTime)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return errValidationTimeout
	}
}

// depth is the deepest nesting of arrays and objects in raw, ignoring
// brackets inside strings.
func depth(raw []byte) int {
	d, best, inStr, esc := 0, 0, false, false
	for _, c := range raw {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			d++
			best = max(best, d)
		case c == '}' || c == ']':
			d--
		}
	}
	return best
}
