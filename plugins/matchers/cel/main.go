// Command cel is the mcptest matcher plugin for the `cel` matcher: a
// boolean predicate written in CEL (Common Expression Language, cel-go)
// over the extracted value.
//
// Argument shape:
//
//	cel: string, a CEL expression that must evaluate to a bool.
//
// The extracted value is bound as the variable `value` (type dyn). The
// host binds the whole response envelope when the assertion's target is
// empty; the plugin sees no difference. JSON maps to CEL as follows:
// objects become map(string, dyn), arrays list(dyn), strings string,
// booleans bool, null null_type; a number written as an integer becomes
// int when it fits 64 bits signed, uint when it fits unsigned, and double
// otherwise; any number with a fraction or exponent becomes double. So
// `value.count == 3` and `value.count + 1 == 4` work on {"count": 3}.
//
// The environment is CEL's standard library (with its regex helper
// `matches`, RE2 syntax) plus cel-go's strings extension (lowerAscii,
// split, trim ...). Numbers of different types compare with each other.
//
// The expression is the suite's code, so everything that stops it from
// giving a verdict is a suite bug (sdk.ErrInvalidArgument, exit code 2),
// not a failed assertion: a parse or type error (also reported before the
// run by CheckArgument), an evaluation error (a missing map key, a bad
// regex, a failed conversion, running past the 2 s budget), and a result
// that is not a bool. A false result fails the assertion with
//
//	{"expected": "<the expression>", "actual": <the value>, "note"}
//
// where a huge actual value is cut short (see failure.go).
package main

import (
	"time"

	"github.com/mcptest/mcptest/sdk"
)

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "cel"
	pluginVersion = "0.1.0"
)

// matcherKey is the only key this plugin serves.
const matcherKey = "cel"

func main() {
	sdk.Serve(newPlugin())
}

// newPlugin returns the plugin definition with the documented budget.
func newPlugin() *sdk.Plugin {
	return pluginWith(defaultBudget)
}

// pluginWith returns the plugin definition with the given evaluation
// budget; tests use it to shorten the budget.
func pluginWith(budget time.Duration) *sdk.Plugin {
	m, err := newMatcher(budget)
	if err != nil {
		// The environment is fixed at build time; failing to build it is a
		// programming error that every test would catch.
		panic(err)
	}
	return &sdk.Plugin{
		Name:     pluginName,
		Version:  pluginVersion,
		TuneGC:   true,
		Matchers: map[string]sdk.Matcher{matcherKey: m},

		// Vetting only parses the argument: verdicts may be remembered.
		Capabilities: []string{sdk.CapabilityVetPure, sdk.CapabilityNoHost},
	}
}
