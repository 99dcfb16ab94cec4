package config

// DefaultRubricThreshold is the pass threshold of a rubric or eval that
// sets none.
const DefaultRubricThreshold = 0.7

// EvalTest is one entry of the evals block: grade a response, or a live
// agent run, against a rubric.
type EvalTest struct {
	// Name is the test name.
	Name string
	// Server is the server a live run uses.
	Server string
	// Prompt is the prompt sent to the model.
	Prompt string
	// Response is a fixed candidate to grade; nil for a live run.
	Response *string
	// Rubric is the rubric; nil when unset.
	Rubric *Rubric
	// Threshold is the pass threshold of the free-form rubric (default
	// 0.7).
	Threshold float64
	// Judge configures the judge model, jury or panel; nil for the
	// default.
	Judge *Judge
	// Matrix fans the eval out across models and prompts; nil when unset.
	Matrix *EvalMatrix
	// Scorer names an entry of Suite.Scorers that grades the eval instead
	// of the judge; "" for the judge.
	Scorer string
	// Tags are the test's tags.
	Tags []string
	// Profile is quick, standard or full; "" means standard.
	Profile string
	// Pos is the position of the test's mapping.
	Pos Pos
}

// Rubric is a rubric in one of its forms: free-form text (Text), a
// reference to a named rubric (Ref), a preset (Preset), weighted criteria
// (Criteria) or a decision tree (Tree).
type Rubric struct {
	// Text is the free-form rubric; "" for the structured forms.
	Text string
	// Ref names an entry of Suite.Rubrics; "" when unset.
	Ref string
	// Preset names a built-in rubric; "" when unset.
	Preset string
	// Threshold is the pass threshold; nil for the default (0.7, or the
	// referenced rubric's).
	Threshold *float64
	// Strict requires a perfect score; nil when unset.
	Strict *bool
	// RequireEvidence makes every criterion's judge cite a span.
	RequireEvidence bool
	// Aggregation combines criterion scores: mean (default), min, max or
	// median.
	Aggregation string
	// Scale is how scores read to a person; nil for 0..1.
	Scale *Scale
	// Criteria are the weighted criteria (appended to a preset's own).
	Criteria []*Criterion
	// Tree is the decision tree; nil for other forms.
	Tree *TreeNode
	// Pos is the position of the rubric.
	Pos Pos
}

// Criterion is one weighted criterion of a rubric.
type Criterion struct {
	// Name is the criterion's name.
	Name string
	// Description is what the judge checks.
	Description string
	// Weight is the criterion's weight (default 1).
	Weight float64
	// Required makes the eval fail when the criterion does not hold.
	Required bool
	// Guard makes the eval fail when the criterion holds.
	Guard bool
	// Examples are labelled calibration anchors.
	Examples []*Example
	// When limits the criterion to candidates that match; nil for always.
	When *When
	// Threshold overrides the rubric threshold for this criterion.
	Threshold *float64
	// Pos is the position of the criterion's mapping.
	Pos Pos
}

// Example is a calibration anchor: a response and the score it deserves.
type Example struct {
	// Response is the sample response.
	Response string
	// Score is its score, 0..1.
	Score float64
}

// When is a criterion's deterministic predicate: exactly one of Contains
// and Regex is set.
type When struct {
	// Contains is a substring the candidate must contain.
	Contains string
	// Regex is a pattern the candidate must match.
	Regex string
}

// TreeNode is a node of a decision-tree rubric: a question (Ask with Yes
// and No) or a leaf (Score with an optional Reason).
type TreeNode struct {
	// Ask is the yes/no question; "" for a leaf.
	Ask string
	// Yes and No are the branches of a question.
	Yes, No *TreeNode
	// Score is the leaf's score, 0..1; nil for a question.
	Score *float64
	// Reason explains a leaf's score.
	Reason string
	// Pos is the position of the node.
	Pos Pos
}

// Scale is how a rubric score reads to a person: "unit" (0..1),
// "percent", or "likert" between Min and Max.
type Scale struct {
	// Kind is unit, percent or likert.
	Kind string
	// Min and Max bound a likert scale.
	Min, Max int
}

// Judge is the judge block of an eval.
type Judge struct {
	// Model overrides the judge model; "" for the default.
	Model string
	// Jury grades the rubric several times; nil when unset.
	Jury *Jury
	// Panel grades once per model; nil when unset.
	Panel []string
	// Aggregate combines panel verdicts: mean (default), median or
	// majority.
	Aggregate string
	// TieBreak settles an even majority split: fail (default) or pass.
	TieBreak string
}

// Jury grades a rubric Size times and passes on a Consensus fraction.
type Jury struct {
	// Size is the number of gradings, at least 1.
	Size int
	// Consensus is the fraction of passing gradings needed, 0..1.
	Consensus float64
}

// EvalMatrix fans an eval out across models and/or prompts.
type EvalMatrix struct {
	// Models lists judge models; nil when unset.
	Models []string
	// Prompts lists prompts; nil when unset.
	Prompts []string
}

// Scorer is one entry of the scorers block: an external grader.
type Scorer struct {
	// Name is the scorer's name.
	Name string
	// Type is the scorer type; "exec" ships with mcptest.
	Type string
	// Command is the argv of an exec scorer.
	Command []string
	// Env holds extra environment variables; never nil.
	Env map[string]string
	// Cwd is the working directory; "" for mcptest's.
	Cwd string
	// TimeoutMS is the per-call timeout (default 30000).
	TimeoutMS int
	// Pos is the position of the scorer's mapping, TypePos that of its
	// type (where an unavailable type is reported).
	Pos, TypePos Pos
}
