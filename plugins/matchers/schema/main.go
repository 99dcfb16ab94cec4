// Command schema is the mcptest matcher plugin for the `schema` matcher: it
// validates the extracted value against an inline JSON Schema.
//
// Argument shape:
//
//	schema: a JSON Schema, as an object (or the boolean schemas true and
//	        false). Draft 2020-12 unless the schema names another draft in
//	        $schema (only the drafts bundled with the validator resolve).
//
// The schema is compiled with github.com/santhosh-tekuri/jsonschema/v6 and
// guarded three ways by the package internal/schemaguard, which the format
// plugin shares; each guard is a distinct error that names it and is
// reported as a suite bug (sdk.ErrInvalidArgument, exit code 2), both when
// the host checks arguments before the run and when an item is matched:
//
//   - ErrSchemaTooDeep: the schema's JSON nesting is deeper than 64. This
//     runs first, on the raw bytes, before anything is decoded or compiled.
//   - ErrSchemaExternalRef: a $ref (or $dynamicRef, $recursiveRef) that
//     does not start with "#". Refused before compiling, and the compiler
//     has a loader that refuses every URL, so nothing is ever fetched.
//   - ErrSchemaValidationTimedOut: one validation ran past its wall-clock
//     budget (2 s). See schemaguard's validate.go for what happens to the
//     work.
//
// A value that does not match fails with
//
//	{"errors": [{"instance_path", "schema_path", "message"}, ...], "note"}
//
// listing every leaf cause the validator reported, as JSON pointers, sorted
// by instance path. Numbers keep their exact value (json.Number), so 64-bit
// and larger integers are compared digit for digit.
package main

import (
	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/sdk"
)

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "schema"
	pluginVersion = "0.1.0"
)

// matcherKey is the only key this plugin serves.
const matcherKey = "schema"

func main() {
	sdk.Serve(newPlugin())
}

// newPlugin returns the plugin definition with the documented limits.
func newPlugin() *sdk.Plugin {
	return pluginWith(limits{maxDepth: schemaguard.DefaultMaxDepth, budget: schemaguard.DefaultBudget})
}

// pluginWith returns the plugin definition with the given limits; tests use
// it to shorten the validation budget.
func pluginWith(l limits) *sdk.Plugin {
	return &sdk.Plugin{
		Name:     pluginName,
		Version:  pluginVersion,
		TuneGC:   true,
		Matchers: map[string]sdk.Matcher{matcherKey: newMatcher(l)},

		// Vetting only parses the argument: verdicts may be remembered.
		Capabilities: []string{sdk.CapabilityVetPure, sdk.CapabilityNoHost},
	}
}
