// Command text is the mcptest matcher plugin for the text and structural
// matchers of the suite format: exact, contains, icontains, regex,
// starts-with, contains-all, contains-any and levenshtein.
//
// Values arrive as JSON. They are decoded with json.Number, so integers of
// any size keep every digit and numbers compare by value (1 equals 1.0).
//
// The string matchers (icontains, regex, starts-with, levenshtein, and
// contains, contains-all and contains-any when the actual value is text)
// work on the actual value's text: a JSON string is used as it is, and any
// other value is first turned into its compact JSON text, so `{"a":1}` or
// `42` can still be searched. Failures say when that happened.
//
// Argument shapes:
//
//	exact:        any JSON value
//	contains:     any JSON value (string: substring; object: subset;
//	              array: multiset; other: equality)
//	icontains:    string
//	starts-with:  string
//	regex:        string, Go RE2 syntax
//	contains-all: array
//	contains-any: array
//	levenshtein:  {value: string, max: integer >= 0}
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "text"
	pluginVersion = "0.1.0"
)

func main() {
	sdk.Serve(newPlugin())
}

// newPlugin returns the plugin definition, one Matcher per key, all backed
// by the same family so they share the compiled-regex cache.
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
		// exact passes an actual value written as its argument without
		// looking further (family.go, samePasses): the host need not
		// start this process for such an assertion.
		Capabilities: []string{sdk.CapabilityVetPure, sdk.CapabilityNoHost, sdk.Reflexive("exact")},
	}
}
