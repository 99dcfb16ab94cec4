package models

import "strings"

// Provider families: each is also the provider key its plugin serves.
const (
	FamilyAnthropic = "anthropic"
	FamilyOpenAI    = "openai"
	FamilyGemini    = "gemini"
	FamilyMistral   = "mistral"
	// FamilyStub is the deterministic offline model, chosen only by the
	// model id "stub" (never as a fallback for a missing key).
	FamilyStub = "stub"
)

// StubModel is the model id of the deterministic stub.
const StubModel = "stub"

// family is one auto-detected provider family: the model-name prefixes
// that select it, the variables its key is read from (first set wins),
// and the variable that overrides its API address.
type family struct {
	name     string
	prefixes []string
	// oDigit also selects the family for "o" followed by a digit (o1, o3).
	oDigit  bool
	keyEnvs []string
	// orgEnv names an optional organization variable.
	orgEnv  string
	baseEnv string
}

// families is the spec's table of auto-detected families, in its order.
var families = []family{
	{name: FamilyAnthropic, prefixes: []string{"claude-"}, keyEnvs: []string{"ANTHROPIC_API_KEY"}, baseEnv: "ANTHROPIC_BASE_URL"},
	{name: FamilyOpenAI, prefixes: []string{"gpt-", "chatgpt-", "text-", "davinci-"}, oDigit: true,
		keyEnvs: []string{"OPENAI_API_KEY"}, orgEnv: "OPENAI_ORG_ID", baseEnv: "OPENAI_BASE_URL"},
	{name: FamilyGemini, prefixes: []string{"gemini-", "models/gemini-"}, keyEnvs: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}, baseEnv: "GOOGLE_GEMINI_BASE_URL"},
	{name: FamilyMistral, prefixes: []string{"mistral-", "codestral-", "magistral-", "ministral-", "devstral-", "pixtral-", "open-mistral-", "open-mixtral-"},
		keyEnvs: []string{"MISTRAL_API_KEY"}, baseEnv: "MISTRAL_BASE_URL"},
}

// Detect returns the family a bare model id belongs to by the spec's
// prefix table, "stub" for the stub model, and false for any other id
// (which needs a providers: entry).
func Detect(model string) (string, bool) {
	if model == StubModel {
		return FamilyStub, true
	}
	if f, ok := detect(model); ok {
		return f.name, true
	}
	return "", false
}

func detect(model string) (*family, bool) {
	for i := range families {
		f := &families[i]
		for _, p := range f.prefixes {
			if strings.HasPrefix(model, p) {
				return f, true
			}
		}
		if f.oDigit && len(model) >= 2 && model[0] == 'o' && model[1] >= '0' && model[1] <= '9' {
			return f, true
		}
	}
	return nil, false
}

func familyByName(name string) (*family, bool) {
	for i := range families {
		if families[i].name == name {
			return &families[i], true
		}
	}
	return nil, false
}

// KeyEnvs returns the variables a family's key is read from, in order;
// nil for the stub and unknown families.
func KeyEnvs(familyName string) []string {
	if f, ok := familyByName(familyName); ok {
		return f.keyEnvs
	}
	return nil
}

// prefixList describes the table for an error about an undetected id.
func prefixList() string {
	var all []string
	for _, f := range families {
		all = append(all, f.prefixes...)
		if f.oDigit {
			all = append(all, "o<digit>")
		}
	}
	return strings.Join(all, ", ")
}
