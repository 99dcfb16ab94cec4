package schemaguard

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Why this file exists: the interrupt hook (validate.go) is a user
// vocabulary, and asserting user vocabularies makes the library check a
// 2019-09 or 2020-12 schema against the metaschemas of the default
// vocabularies only, not the whole dialect. Annotation keywords would then
// go unchecked ({"format": 5} would compile). To keep the standard's
// behaviour, such schemas are first checked against their full official
// metaschema, compiled once from the copies embedded in the library.
// Older drafts are checked in full by the compiler itself.

// The dialects checked here, by their metaschema URL.
const (
	draft2020URL = "https://json-schema.org/draft/2020-12/schema"
	draft2019URL = "https://json-schema.org/draft/2019-09/schema"
)

// metaschemas holds the compiled official metaschemas.
var metaschemas struct {
	once   sync.Once
	byURL  map[string]*jsonschema.Schema
	errOut error
}

// checkMetaschema checks a decoded schema against the full metaschema of
// its dialect (2020-12 when it names none). Schemas of other drafts are
// left to the compiler.
func checkMetaschema(doc any) error {
	url := draft2020URL
	if obj, ok := doc.(map[string]any); ok {
		if s, ok := obj["$schema"].(string); ok {
			url = normaliseMetaURL(s)
		}
	}
	metaschemas.once.Do(compileMetaschemas)
	if metaschemas.errOut != nil {
		return metaschemas.errOut
	}
	meta, ok := metaschemas.byURL[url]
	if !ok {
		return nil
	}
	if err := meta.Validate(doc); err != nil {
		return invalidSchema(err)
	}
	return nil
}

// invalidSchemaError is a schema its metaschema rejects. It reads as one
// line listing the problems (the library's own text is an indented tree)
// and unwraps to the library's error.
type invalidSchemaError struct {
	msg string
	err error
}

// Error lists the problems.
func (e *invalidSchemaError) Error() string { return e.msg }

// Unwrap returns the library's error.
func (e *invalidSchemaError) Unwrap() error { return e.err }

// invalidSchema describes err, a metaschema's verdict on a schema, on one
// line when it carries the validator's details.
func invalidSchema(err error) error {
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return fmt.Errorf("the schema is not valid JSON Schema: %w", err)
	}
	var parts []string
	for _, e := range LeafErrors(verr) {
		parts = append(parts, fmt.Sprintf("at %s: %s", PointerOrRoot(e.InstancePath), e.Message))
	}
	return &invalidSchemaError{msg: "the schema is not valid JSON Schema: " + strings.Join(parts, "; "), err: err}
}

// compileMetaschemas compiles the official metaschemas; they are embedded
// in the library, and the refusing loader makes sure of it.
func compileMetaschemas() {
	var refused string
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{refused: &refused})
	metaschemas.byURL = map[string]*jsonschema.Schema{}
	for _, url := range []string{draft2020URL, draft2019URL} {
		sch, err := c.Compile(url)
		if err != nil {
			metaschemas.errOut = fmt.Errorf("compile the metaschema %s: %w", url, err)
			return
		}
		metaschemas.byURL[url] = sch
	}
}

// normaliseMetaURL maps the spellings of a $schema URL the library accepts
// (http or https, with or without an empty fragment) to one.
func normaliseMetaURL(s string) string {
	s = strings.TrimSuffix(s, "#")
	if rest, ok := strings.CutPrefix(s, "http://"); ok {
		s = "https://" + rest
	}
	return s
}

// PointerOrRoot shows the empty JSON pointer as "the root" in messages.
func PointerOrRoot(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}
