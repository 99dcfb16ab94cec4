package catalog

// Severity says whether a change can break a client written against the
// old catalog.
type Severity string

// The severities.
const (
	Breaking    Severity = "breaking"
	NonBreaking Severity = "non-breaking"
)

// The rules a change is classified by. Their names are part of each
// change's report id, so they never change once released.
const (
	// Breaking.
	RuleToolRemoved      = "tool-removed"
	RulePromptRemoved    = "prompt-removed"
	RuleResourceRemoved  = "resource-removed"
	RuleTemplateRemoved  = "template-removed"
	RuleRequiredAdded    = "required-argument-added"
	RuleMadeRequired     = "argument-made-required"
	RulePropertyRemoved  = "property-removed"
	RuleTypeChanged      = "type-changed"
	RuleEnumValueRemoved = "enum-value-removed"
	RuleOutputNarrowed   = "output-schema-narrowed"
	// Non-breaking.
	RuleToolAdded          = "tool-added"
	RulePromptAdded        = "prompt-added"
	RuleResourceAdded      = "resource-added"
	RuleTemplateAdded      = "template-added"
	RuleOptionalAdded      = "optional-argument-added"
	RuleDescriptionChanged = "description-changed"
	RuleEnumValueAdded     = "enum-value-added"
	RuleRequirementRelaxed = "requirement-relaxed"
	RuleTypeWidened        = "type-widened"
	RuleOutputWidened      = "output-schema-widened"
	RuleMetadataChanged    = "metadata-changed"
)

// RuleInfo describes one rule.
type RuleInfo struct {
	Name     string
	Severity Severity
	// Title says what the rule detects, in one line.
	Title string
}

// Rules lists every rule in the order docs/catalog.md documents them.
var Rules = []RuleInfo{
	{RuleToolRemoved, Breaking, "a tool was removed"},
	{RulePromptRemoved, Breaking, "a prompt was removed"},
	{RuleResourceRemoved, Breaking, "a resource was removed"},
	{RuleTemplateRemoved, Breaking, "a resource template was removed"},
	{RuleRequiredAdded, Breaking, "a new required argument (or property) was added"},
	{RuleMadeRequired, Breaking, "an optional argument became required"},
	{RulePropertyRemoved, Breaking, "an argument or property was removed"},
	{RuleTypeChanged, Breaking, "an argument's type changed to one that refuses values it used to accept"},
	{RuleEnumValueRemoved, Breaking, "an allowed value was dropped from an enum"},
	{RuleOutputNarrowed, Breaking, "the output schema promises less: removed, a property dropped or no longer required, a type or enum changed"},
	{RuleToolAdded, NonBreaking, "a tool was added"},
	{RulePromptAdded, NonBreaking, "a prompt was added"},
	{RuleResourceAdded, NonBreaking, "a resource was added"},
	{RuleTemplateAdded, NonBreaking, "a resource template was added"},
	{RuleOptionalAdded, NonBreaking, "a new optional argument was added"},
	{RuleDescriptionChanged, NonBreaking, "a description changed"},
	{RuleEnumValueAdded, NonBreaking, "an allowed value was added to an enum"},
	{RuleRequirementRelaxed, NonBreaking, "a required argument became optional"},
	{RuleTypeWidened, NonBreaking, "an argument's type now accepts more values"},
	{RuleOutputWidened, NonBreaking, "the output schema promises more: added, or a new property"},
	{RuleMetadataChanged, NonBreaking, "a title, annotation, name or MIME type changed"},
}

// ruleSeverity returns the severity of a rule.
func ruleSeverity(rule string) Severity {
	for _, r := range Rules {
		if r.Name == rule {
			return r.Severity
		}
	}
	return Breaking
}

// RuleTitle returns the title of a rule, or the rule itself when unknown.
func RuleTitle(rule string) string {
	for _, r := range Rules {
		if r.Name == rule {
			return r.Title
		}
	}
	return rule
}
