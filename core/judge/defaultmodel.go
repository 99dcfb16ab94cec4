package judge

import (
	"os"
	"strings"

	"github.com/mcptest/mcptest/core/models"
)

// JudgeModelEnv names the variable that chooses the default judge model.
const JudgeModelEnv = "MCPTEST_JUDGE_MODEL"

// defaultModels are the judge models tried, in this order, when neither
// the suite nor JudgeModelEnv names one: the first whose family has a key
// set wins. Each is a mid-sized model of its family with a shipped price,
// so --max-cost works without configuration.
var defaultModels = []struct{ family, model string }{
	{models.FamilyAnthropic, "claude-sonnet-4-5"},
	{models.FamilyOpenAI, "gpt-4.1-mini"},
	{models.FamilyGemini, "gemini-2.5-flash"},
	{models.FamilyMistral, "mistral-large-latest"},
}

// DefaultModel is the judge model used when an eval, metric or matcher
// names none: the value of MCPTEST_JUDGE_MODEL when it is set, else the
// default model of the first family (Anthropic, OpenAI, Gemini, Mistral)
// whose key variable is set. With no key at all it returns a
// *DeferredError (matching ErrDeferred and models.ErrNoKey) that names
// every variable that would do. getenv nil means os.Getenv.
func DefaultModel(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if m := strings.TrimSpace(getenv(JudgeModelEnv)); m != "" {
		return m, nil
	}
	var vars []string
	for _, d := range defaultModels {
		for _, env := range models.KeyEnvs(d.family) {
			if getenv(env) != "" {
				return d.model, nil
			}
			vars = append(vars, env)
		}
	}
	nk := &models.NoKeyError{Model: "(default judge)", Family: "any family", Vars: append([]string{JudgeModelEnv + " with its key"}, vars...)}
	return "", &DeferredError{Reason: "no judge model: set " + strings.Join(vars, ", ") + " or " + JudgeModelEnv, Err: nk}
}
