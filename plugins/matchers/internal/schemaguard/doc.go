// Package schemaguard compiles and runs the inline JSON Schemas of the
// matcher plugins (the schema matcher, and the schema options of is-json
// and is-valid-tools-call) with github.com/santhosh-tekuri/jsonschema/v6,
// guarded so that a schema can neither reach outside the suite nor stall a
// run:
//
//   - ErrSchemaTooDeep: the schema's JSON nesting is deeper than the cap
//     (DefaultMaxDepth, 64). Checked first, on the raw text, before
//     anything is decoded or compiled.
//   - ErrSchemaExternalRef: a $ref (or $dynamicRef, $recursiveRef) that does
//     not start with "#". Refused before compiling, and the compiler has a
//     loader that refuses every URL, so nothing is ever fetched.
//   - ErrSchemaValidationTimedOut: one validation ran past its wall-clock
//     budget (DefaultBudget, 2 s). See validate.go for what happens to the
//     work.
//
// Compile (or a Cache) turns a schema into a *Schema, a Validator runs it,
// and LeafErrors flattens a *jsonschema.ValidationError into Error entries
// {instance_path, schema_path, message}.
package schemaguard

import "time"

// The documented defaults of the guards.
const (
	DefaultMaxDepth = 64
	DefaultBudget   = 2 * time.Second
)
