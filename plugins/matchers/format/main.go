// Command format is the mcptest matcher plugin for the format matchers of
// the suite format: is-json, is-xml, is-sql and is-valid-tools-call. Each
// asks whether a value is well-formed in some language, so a failure always
// says what the parser objected to and where (line and column).
//
// is-json, is-xml and is-sql judge text: the actual value must be a JSON
// string. Any other value fails with a note saying what it was, rather than
// being turned into text, because a value that is not a string is most
// often a target that points at the wrong place (or at nothing, which
// arrives as null and would otherwise parse as JSON).
//
// Argument shapes (~ is YAML null; true means the same as ~):
//
//	is-json:             ~ | true | {schema: <JSON Schema>}
//	is-xml:              ~ | true | {root: "name"}
//	is-sql:              ~ | true
//	is-valid-tools-call: ~ | true | {schema: <JSON Schema for the arguments>}
//
// In the objects the field may be left out ({} is the plain check). The
// suite loader itself admits only ~ and objects; true is accepted here for
// hosts and tests that send it.
//
// Schemas follow draft 2020-12 (another draft may be named with $schema)
// and are compiled and run by the package internal/schemaguard, as for the
// schema matcher: they must be self-contained (a $ref that does not start
// with "#" is refused before compiling), their nesting is capped at 64
// levels, and validation runs under a 2-second budget.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "format"
	pluginVersion = "0.1.0"
)

func main() {
	sdk.Serve(newPlugin())
}

// newPlugin returns the plugin definition: every key is served by the same
// family, so they share the compiled-schema cache and the SQL parser pool.
func newPlugin() *sdk.Plugin {
	fam := newFamily()
	ms := make(map[string]sdk.Matcher, len(fam.keys))
	for key := range fam.keys {
		ms[key] = fam
	}
	return &sdk.Plugin{
		Name:     pluginName,
		Version:  pluginVersion,
		TuneGC:   true,
		Matchers: ms,

		// Vetting only parses the argument: verdicts may be remembered.
		Capabilities: []string{sdk.CapabilityVetPure, sdk.CapabilityNoHost},
	}
}
