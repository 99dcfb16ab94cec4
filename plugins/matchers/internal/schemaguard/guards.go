package schemaguard

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The guard errors. Each names the guard in its text, so a user who sees
// only the message still knows which limit fired; errors.Is tells them
// apart in code.
var (
	// ErrSchemaExternalRef reports a reference to anything outside the
	// schema document itself.
	ErrSchemaExternalRef = errors.New("SchemaExternalRef")
	// ErrSchemaTooDeep reports a schema nested deeper than the cap.
	ErrSchemaTooDeep = errors.New("SchemaTooDeep")
	// ErrSchemaValidationTimedOut reports a validation that ran past its
	// wall-clock budget.
	ErrSchemaValidationTimedOut = errors.New("SchemaValidationTimedOut")
)

// checkDepth refuses a JSON text nested deeper than max, where a scalar has
// depth 0 and an object or array one more than its deepest member. It scans
// the raw bytes (skipping string contents) so it can run before the text is
// decoded, and stops at the first level past the cap.
func checkDepth(raw []byte, max int) error {
	depth := 0
	inString, escaped := false, false
	for _, b := range raw {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > max {
				return fmt.Errorf("%w: the schema is nested more than %d levels deep", ErrSchemaTooDeep, max)
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

// refKeywords are the keywords whose string value is a reference resolved
// by the compiler.
var refKeywords = map[string]bool{"$ref": true, "$dynamicRef": true, "$recursiveRef": true}

// dataKeywords hold instance data, not subschemas: a "$ref" inside them is
// just a string and must not be refused.
var dataKeywords = map[string]bool{"const": true, "enum": true, "default": true, "examples": true}

// namedSchemaKeywords map names (property names, definition names) to
// subschemas, so their keys are names and never keywords.
var namedSchemaKeywords = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
	"dependentSchemas": true, "dependencies": true,
}

// checkRefs refuses any reference that does not start with "#". It walks
// the decoded schema knowing which members are subschemas, data or names,
// so a property called "$ref" or a const holding one is not mistaken for a
// reference. Unknown keywords are walked as if they held subschemas, which
// can only refuse more. The compiler's loader refuses every URL as well
// (see refusingLoader), so a reference this walk missed still cannot load.
func checkRefs(schema any) error {
	return walkRefs(schema, "")
}

// walkRefs checks one (possible) subschema found at the JSON pointer ptr.
func walkRefs(v any, ptr string) error {
	switch v := v.(type) {
	case []any:
		for i, item := range v {
			if err := walkRefs(item, fmt.Sprintf("%s/%d", ptr, i)); err != nil {
				return err
			}
		}
	case map[string]any:
		// Sorted, so the reported reference is the same on every run.
		for _, key := range slices.Sorted(maps.Keys(v)) {
			member := v[key]
			at := ptr + "/" + escapePointer(key)
			switch {
			case refKeywords[key]:
				if ref, ok := member.(string); ok && !strings.HasPrefix(ref, "#") {
					return fmt.Errorf("%w: %s %q at %s points outside the schema; only same-document references (starting with #) are allowed",
						ErrSchemaExternalRef, key, ref, at)
				}
			case dataKeywords[key]:
				// instance data: nothing to resolve
			case namedSchemaKeywords[key]:
				if named, ok := member.(map[string]any); ok {
					for _, name := range slices.Sorted(maps.Keys(named)) {
						if err := walkRefs(named[name], at+"/"+escapePointer(name)); err != nil {
							return err
						}
					}
				}
			default:
				if err := walkRefs(member, at); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// refusingLoader is the compiler's URL loader: it refuses every URL, so
// compiling a schema can never touch the network or the file system. The
// validator's own copies of the official metaschemas are embedded and do
// not go through it. The first refused URL is kept for the error message.
type refusingLoader struct {
	refused *string
}

// Load refuses url.
func (l refusingLoader) Load(url string) (any, error) {
	if *l.refused == "" {
		*l.refused = url
	}
	return nil, fmt.Errorf("%w: loading %q is not allowed", ErrSchemaExternalRef, url)
}

// Pointer joins tokens into a JSON pointer (RFC 6901); no tokens is ""
// (the whole document).
func Pointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(escapePointer(t))
	}
	return sb.String()
}

// escapePointer escapes one JSON pointer token (RFC 6901).
func escapePointer(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}
