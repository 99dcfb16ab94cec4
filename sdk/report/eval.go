package report

// Eval is the grade of an eval (a test of the evals block), of one judged
// metric of an agent test (on the metric's Assertion), or of a
// model-graded matcher that keeps its detail. Scores are always on the
// 0..1 scale; Display is the only place another scale (likert, percent)
// appears. The core masks secrets in every string before a reporter sees
// it and bounds the candidate's length.
type Eval struct {
	// Form is the rubric's form: "text", "criteria", "tree", "scorer" or
	// "metric". Preset and Ref name the preset or the rubrics: entry the
	// rubric came from; Scorer the scorers: entry; Metric the built-in
	// agent metric (mcp_use, ...).
	Form   string `json:"form"`
	Preset string `json:"preset,omitempty"`
	Ref    string `json:"ref,omitempty"`
	Scorer string `json:"scorer,omitempty"`
	Metric string `json:"metric,omitempty"`
	// Candidate says what was graded: "response" (a fixed response),
	// "agent" (a live agent run, graded as a whole) or "value" (a
	// matcher's target value).
	Candidate string `json:"candidate"`
	// Prompt is the prompt the candidate answers; Response the graded text
	// (for an agent run, its final reply), bounded.
	Prompt   string `json:"prompt,omitempty"`
	Response string `json:"response,omitempty"`
	// JudgeModel is the judge's model id ("" for a scorer).
	JudgeModel string `json:"judge_model,omitempty"`
	// Cell is the matrix cell this row grades; nil outside a matrix.
	Cell *EvalCell `json:"cell,omitempty"`
	// Score is the grade in 0..1 and Threshold the score needed; Strict
	// requires 1. Passed is the verdict (deferred evals have no Eval).
	Score     float64 `json:"score"`
	Threshold float64 `json:"threshold"`
	Strict    bool    `json:"strict,omitempty"`
	Passed    bool    `json:"passed"`
	// Aggregation is how criterion scores combined: mean, min, max or
	// median; "" outside the criteria form.
	Aggregation string `json:"aggregation,omitempty"`
	// Scale is how the score reads to a person; nil for 0..1. Display is
	// the score in that scale, such as "4.0/5" or "80%".
	Scale   *EvalScale `json:"scale,omitempty"`
	Display string     `json:"display,omitempty"`
	// Reason is the judge's (or scorer's) overall reason; for a failed
	// eval it says which gate failed (threshold, a required criterion, a
	// guard, missing evidence).
	Reason string `json:"reason,omitempty"`
	// Criteria are the criteria of the criteria form, in declaration
	// order (a preset's first).
	Criteria []EvalCriterion `json:"criteria,omitempty"`
	// Path is the walk of a decision tree, root first; the last step is
	// the leaf.
	Path []EvalStep `json:"path,omitempty"`
	// Jurors are the individual gradings of a jury (one per juror) or a
	// panel (one per model); absent for a single judge.
	Jurors []EvalJuror `json:"jurors,omitempty"`
	// Jury describes how the jurors' gradings combined; nil for a single
	// judge.
	Jury *EvalJury `json:"jury,omitempty"`
	// Calls is the number of judge (or scorer) calls the grade needed,
	// CachedCalls how many of them the verdict cache answered; Cached is
	// true when every call was answered from the cache.
	Calls       int  `json:"calls"`
	CachedCalls int  `json:"cached_calls,omitempty"`
	Cached      bool `json:"cached,omitempty"`
	// CostUSD is what the grade's model calls cost (the judge's, plus the
	// live agent run's for an agent candidate); nil when no price is known
	// (a scorer that answered cost_usd: null, an unpriced model).
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// EvalCell is one cell of an eval matrix: the judge model and the prompt
// this row grades ("" for an axis the matrix does not set).
type EvalCell struct {
	Model  string `json:"model,omitempty"`
	Prompt string `json:"prompt,omitempty"`
}

// EvalScale is a rubric's display scale: "unit", "percent" or "likert"
// between Min and Max.
type EvalScale struct {
	Kind string `json:"kind"`
	Min  int    `json:"min,omitempty"`
	Max  int    `json:"max,omitempty"`
}

// EvalCriterion is one criterion's grade.
type EvalCriterion struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Weight      float64 `json:"weight"`
	// Score is the criterion's score in 0..1; nil when Skipped (its when:
	// predicate did not hold) or when every juror abstained.
	Score *float64 `json:"score,omitempty"`
	// Threshold is the score the criterion needed (its own or the
	// rubric's).
	Threshold float64 `json:"threshold"`
	Passed    bool    `json:"passed"`
	Required  bool    `json:"required,omitempty"`
	Guard     bool    `json:"guard,omitempty"`
	Skipped   bool    `json:"skipped,omitempty"`
	Reason    string  `json:"reason,omitempty"`
	// Evidence is the span the judge cited (require_evidence);
	// EvidenceFound says whether it occurs verbatim in the candidate (a
	// criterion whose evidence is missing or not found scores 0).
	Evidence      string `json:"evidence,omitempty"`
	EvidenceFound bool   `json:"evidence_found,omitempty"`
	Cached        bool   `json:"cached,omitempty"`
}

// EvalStep is one step of a decision-tree walk: a question and the answer
// taken, or (the last step) the leaf's score and reason.
type EvalStep struct {
	// Ask is the question; "" for the leaf.
	Ask string `json:"ask,omitempty"`
	// Answer is "yes" or "no" (a judge score of 0.5 or more is yes), and
	// JudgeScore the judge's raw score.
	Answer     string   `json:"answer,omitempty"`
	JudgeScore *float64 `json:"judge_score,omitempty"`
	// Score and Reason are the leaf's.
	Score  *float64 `json:"score,omitempty"`
	Reason string   `json:"reason,omitempty"`
	Cached bool     `json:"cached,omitempty"`
}

// EvalJuror is one juror's (or panel model's) grading.
type EvalJuror struct {
	// Index is the juror's 0-based index; Model its model, and Provider
	// the providers: entry (or provider family) that served it, "" when
	// unknown.
	Index    int    `json:"index"`
	Model    string `json:"model"`
	Provider string `json:"provider,omitempty"`
	// Score and Passed are its grading; Abstained is true when its reply
	// stayed unparseable after one repair (it counts neither for nor
	// against the quorum) and Error says why.
	Score     *float64 `json:"score,omitempty"`
	Passed    bool     `json:"passed"`
	Abstained bool     `json:"abstained,omitempty"`
	Error     string   `json:"error,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	Cached    bool     `json:"cached,omitempty"`
	CostUSD   *float64 `json:"cost_usd,omitempty"`
}

// EvalJury is how a jury's or panel's gradings combined.
type EvalJury struct {
	// Kind is "jury" or "panel".
	Kind string `json:"kind"`
	// Size is the number of jurors; Abstained how many abstained.
	Size      int `json:"size"`
	Abstained int `json:"abstained,omitempty"`
	// Consensus is the pass fraction a jury needed; Aggregate and
	// TieBreak how a panel combined (mean, median, majority; pass, fail).
	Consensus float64 `json:"consensus,omitempty"`
	Aggregate string  `json:"aggregate,omitempty"`
	TieBreak  string  `json:"tie_break,omitempty"`
	// PassFraction is the share of non-abstaining jurors that passed.
	PassFraction float64 `json:"pass_fraction"`
	// Alpha is Krippendorff's alpha (interval metric) over the jurors'
	// scores; nil when it is undefined (fewer than two gradings, or no
	// variance at all).
	Alpha *float64 `json:"alpha,omitempty"`
}

// Costs is what a run's model calls cost: in total, per suite file and
// per eval test (Tests lists only tests that cost something). Summarize
// computes it from the tests' Eval and Agent costs; nil when nothing in
// the run had a price.
type Costs struct {
	TotalUSD float64     `json:"total_usd"`
	Suites   []SuiteCost `json:"suites,omitempty"`
	// Calls and CachedCalls count judge and scorer calls across the run.
	Calls       int `json:"calls,omitempty"`
	CachedCalls int `json:"cached_calls,omitempty"`
	// MaxUSD is the --max-cost budget, when one was set, and Stopped is
	// true when the budget stopped calls.
	MaxUSD  *float64 `json:"max_usd,omitempty"`
	Stopped bool     `json:"stopped,omitempty"`
}

// SuiteCost is one suite file's cost.
type SuiteCost struct {
	Suite string  `json:"suite"`
	USD   float64 `json:"usd"`
}
