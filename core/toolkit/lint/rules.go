// Package lint checks the definitions a server lists (tools, resources,
// resource templates, prompts) against quality rules: each rule has a
// stable id and a level (MUST where the protocol demands it, SHOULD where
// clients and models need it, MAY for polish), and each finding points at
// the definition and field it is about.
package lint

// Level is how much a rule matters.
type Level string

// The levels: a MUST finding fails the run; SHOULD and MAY findings are
// warnings (they fail it only with --strict).
const (
	Must   Level = "MUST"
	Should Level = "SHOULD"
	May    Level = "MAY"
)

// Rule is one lint rule.
type Rule struct {
	// ID is stable; reports and SARIF use it as the rule id.
	ID    string
	Level Level
	// Title says what the rule asks for.
	Title string
}

// Limits used by the rules.
const (
	// MinDescription is the shortest description that can say what a
	// definition does.
	MinDescription = 12
	// MaxDescription is the longest description before it crowds a
	// model's context for little gain.
	MaxDescription = 2048
	// MaxName is the longest tool name the naming guidance allows.
	MaxName = 128
)

// The rules, in the order findings are reported.
var (
	RuleDuplicateName         = Rule{"lint/duplicate-name", Must, "names are unique within tools, within prompts, and resource URIs are unique"}
	RuleSchemaNotObject       = Rule{"lint/input-schema-not-object", Must, "a tool's inputSchema is a JSON Schema object of type \"object\""}
	RuleToolNameInvalid       = Rule{"lint/tool-name-invalid", Should, "tool names are 1 to 128 characters of A-Z, a-z, 0-9, _, - and ."}
	RuleDescriptionMissing    = Rule{"lint/description-missing", Should, "tools and prompts have a description"}
	RuleDescriptionUseless    = Rule{"lint/description-useless", Should, "a description says more than the name (at least 12 characters, not the name repeated)"}
	RuleDescriptionLong       = Rule{"lint/description-too-long", May, "descriptions stay under 2048 characters"}
	RuleRequiredNotInProps    = Rule{"lint/required-not-in-properties", Should, "every name in required is a property of the schema"}
	RuleParamUntyped          = Rule{"lint/parameter-untyped", Should, "every parameter declares a type (or enum, const, anyOf, oneOf, $ref)"}
	RuleParamUndescribed      = Rule{"lint/parameter-undescribed", May, "every parameter has a description"}
	RuleEnumWithoutType       = Rule{"lint/enum-without-type", Should, "a parameter with an enum also declares its type"}
	RuleAnnotationsMissing    = Rule{"lint/annotations-missing", May, "tools say whether they are read-only or destructive (readOnlyHint, destructiveHint)"}
	RuleResourceUndescribed   = Rule{"lint/resource-description-missing", May, "resources and resource templates have a description"}
	RuleResourceMimeMissing   = Rule{"lint/resource-mime-type-missing", May, "resources declare a mimeType"}
	RulePromptArgUndescribed  = Rule{"lint/prompt-argument-undescribed", May, "prompt arguments have a description"}
	RuleOutputSchemaNotObject = Rule{"lint/output-schema-not-object", Must, "a tool's outputSchema, when present, is a JSON Schema object of type \"object\""}
)

// Rules lists every rule.
func Rules() []Rule {
	return []Rule{RuleDuplicateName, RuleSchemaNotObject, RuleOutputSchemaNotObject, RuleToolNameInvalid, RuleDescriptionMissing,
		RuleDescriptionUseless, RuleDescriptionLong, RuleRequiredNotInProps, RuleParamUntyped, RuleParamUndescribed,
		RuleEnumWithoutType, RuleAnnotationsMissing, RuleResourceUndescribed, RuleResourceMimeMissing, RulePromptArgUndescribed}
}
