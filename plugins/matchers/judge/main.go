// Command judge is the mcptest matcher plugin of the model-graded
// matchers: llm-judge (a rubric graded by one judge model), llm-jury
// (several jurors and a quorum, with Krippendorff's alpha beside the
// verdict), similar (embedding cosine similarity to a reference text),
// and factuality, answer-relevance and context-faithfulness (llm-judge
// with a fixed rubric embedding a reference, a question or a context).
//
// The plugin holds no key and names no vendor: every model call goes to
// mcptest through sdk.Host, which routes it to the provider plugin of the
// model with the suite's keys, and masks secrets in what comes back.
//
// A judge reply must be one JSON object ({"score", "pass", "reason"},
// internal/judgereply). A reply that is not gets one repair turn saying
// what was wrong; a single judge still unreadable errors the assertion
// with the start of its reply, and a juror still unreadable abstains.
// A model without a key defers the item (the host reports the assertion
// deferred, or errored under --require-models); nothing is passed that
// was not graded.
//
// These matchers are not deterministic, so the loader refuses them under
// not: and inside anyOf, allOf and oneOf.
package main

import "github.com/mcptest/mcptest/sdk"

// pluginName and pluginVersion identify this plugin to the host.
const (
	pluginName    = "judge"
	pluginVersion = "0.1.0"
)

func main() {
	sdk.Serve(newPlugin())
}

// newPlugin returns the plugin definition.
func newPlugin() *sdk.Plugin {
	one := judgeMatcher{}
	return &sdk.Plugin{
		Name:    pluginName,
		Version: pluginVersion,
		// Vetting only parses the argument: verdicts may be remembered.
		Capabilities: []string{sdk.CapabilityVetPure},
		Matchers: map[string]sdk.Matcher{
			keyJudge:        one,
			keyJury:         juryMatcher{},
			keySimilar:      similarMatcher{},
			keyFactuality:   one,
			keyRelevance:    one,
			keyFaithfulness: one,
		},
	}
}
