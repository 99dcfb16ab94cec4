package report

import "encoding/json"

// Status is the outcome of a test or an assertion.
type Status string

// The statuses. Errored means the test could not be judged (a server or a
// plugin failed, or the suite is wrong); it is neither a pass nor a failure.
// Warned is a test status only: a compliance test that broke nothing but
// SHOULD requirements. It is reported, but it does not fail the run.
const (
	StatusPassed  Status = "passed"
	StatusFailed  Status = "failed"
	StatusWarned  Status = "warned"
	StatusErrored Status = "errored"
	StatusSkipped Status = "skipped"
	// StatusDeferred: an agent test, judged metric or model-graded
	// assertion that could not run because its model's key is not set. It
	// is neither a pass nor a failure, and is counted on its own.
	StatusDeferred Status = "deferred"
)

// Test is the result of one test.
type Test struct {
	// ID is the test's stable identity: suite file, block, index and name.
	ID   string `json:"id"`
	Name string `json:"name"`
	// File, Line and Col locate the test in its suite.
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	// Block is the suite block the test came from: tools, resources, ...
	Block      string      `json:"block"`
	Server     string      `json:"server,omitempty"`
	Tool       string      `json:"tool,omitempty"`
	Tags       []string    `json:"tags,omitempty"`
	Status     Status      `json:"status"`
	DurationMS float64     `json:"duration_ms"`
	Assertions []Assertion `json:"assertions,omitempty"`
	// Error explains an errored or skipped test.
	Error *Error `json:"error,omitempty"`
	// Response is the envelope assertions were evaluated against,
	// truncated when large.
	Response json.RawMessage `json:"response,omitempty"`
	// Stderr is the tail of the server's stderr, kept for failed and errored
	// tests.
	Stderr string `json:"stderr,omitempty"`
	// Frames are the JSON-RPC messages exchanged for this test.
	Frames []Frame `json:"frames,omitempty"`
	// Hooks are the beforeEach and afterEach steps that ran around the
	// test, in order; absent when the suite declares none.
	Hooks []Hook `json:"hooks,omitempty"`
	// Score is the test's weighted score; set only for tests that declare a
	// threshold, so reports of plain suites keep their shape.
	Score *float64 `json:"score,omitempty"`
	// Threshold is the score the test had to reach.
	Threshold *float64 `json:"threshold,omitempty"`
	// DerivedMetrics are the test's derived metrics, in declaration order;
	// set only for tests that declare some (and were judged).
	DerivedMetrics []DerivedMetric `json:"derived_metrics,omitempty"`
	// ProtocolVersion is the MCP revision the test ran against when the
	// suite fans out over several.
	ProtocolVersion string `json:"protocol_version,omitempty"`
	// Trial is the 1-based trial of a test run several times (mcptest run
	// --trials N), and TrialOf the test's ID without the trial suffix;
	// both are absent without --trials.
	Trial   int    `json:"trial,omitempty"`
	TrialOf string `json:"trial_of,omitempty"`
	// CacheHit is set when the test's answer came from the result cache:
	// an identical earlier request of the run, or the cache folder.
	CacheHit bool `json:"cache_hit,omitempty"`
	// LatencyMS is how long the server took to answer the test's request,
	// and LatencyBudgetMS its suite's p95 budget; both are set only for
	// tests of a suite with performance.p95_latency_ms that reached their
	// server (OverLatencyBudget compares them).
	LatencyMS       *float64 `json:"latency_ms,omitempty"`
	LatencyBudgetMS int      `json:"latency_budget_ms,omitempty"`
	// Nodes are the nodes of a composition, in the order they ran or were
	// skipped; absent for other tests.
	Nodes []Node `json:"nodes,omitempty"`
	// Check describes a compliance check, for tests that are one.
	Check *Check `json:"check,omitempty"`
	// Agent is the trace of an agent test's run; nil for other tests.
	Agent *Agent `json:"agent,omitempty"`
	// Eval is the grade of a test of the evals block; nil for other tests
	// and for a deferred eval.
	Eval *Eval `json:"eval,omitempty"`
}

// Check identifies a compliance check and what the specification demands.
type Check struct {
	// ID is the check's stable identifier, such as "J01". On a test that
	// runs several checks (a suite entry with a prefix such as "J*", "*"
	// or a sequence) it is the entry's pattern, and each assertion names
	// its own check.
	ID string `json:"id"`
	// Title says what is checked, in one line.
	Title string `json:"title"`
	// Severity is the level of the requirement that was broken, or of the
	// check when nothing was: "MUST" (a failure) or "SHOULD" (a warning).
	Severity string `json:"severity"`
	// Revision and Section locate the requirement in the specification.
	Revision string `json:"revision,omitempty"`
	Section  string `json:"section,omitempty"`
}

// Assertion is the outcome of one expect entry: a plain or composed
// matcher on one target, an assert-set (Matcher "assert-set", its members
// in Assertions), or a check of the whole step from the long form of expect
// (Matcher "max_duration_ms", "max_response_tokens", "response_headers" or
// "response_headers_absent").
type Assertion struct {
	Index   int    `json:"index"`
	Target  string `json:"target"`
	Matcher string `json:"matcher"`
	Message string `json:"message,omitempty"`
	// Name is the name derived metrics refer to the entry by, when it has
	// one.
	Name   string `json:"name,omitempty"`
	Status Status `json:"status"`
	// Score is set when the matcher produced one; for an assert-set it is
	// the set's weighted pass fraction.
	Score *float64 `json:"score,omitempty"`
	// Weight is the entry's weight in a combined score; set only where one
	// is computed (the test declares a threshold, or the entry is an
	// assert-set or one of its members).
	Weight *float64 `json:"weight,omitempty"`
	// Threshold is the pass fraction an assert-set needed.
	Threshold *float64 `json:"threshold,omitempty"`
	// Assertions are the members of an assert-set, judged.
	Assertions []Assertion `json:"assertions,omitempty"`
	// Failure is the matcher's structured failure: expected, actual, diff,
	// path, note and matcher-specific fields.
	Failure json.RawMessage `json:"failure,omitempty"`
	// Error explains an errored assertion, or says which key a deferred
	// one waits for.
	Error string `json:"error,omitempty"`
	// Plugin names the plugin that judged the assertion, as name@version.
	Plugin string `json:"plugin,omitempty"`
	// Check is the compliance check the assertion reports, on a test that
	// runs several (its severity is the level of what was broken); nil
	// elsewhere. Reporters name a finding by this check, not the test's.
	Check *Check `json:"check,omitempty"`
	// Eval is the grade of a judged metric of an agent test (or of a
	// model-graded matcher's verdict); nil elsewhere.
	Eval *Eval `json:"eval,omitempty"`
}

// DerivedMetric is the value of one derived metric of a test.
type DerivedMetric struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	// Threshold is set when the metric gates the test; Passed then says
	// whether Value reached it.
	Threshold *float64 `json:"threshold,omitempty"`
	Passed    *bool    `json:"passed,omitempty"`
	// Unresolved lists the references that named no assertion, assert-set
	// or earlier metric; each counted as 0.
	Unresolved []string `json:"unresolved,omitempty"`
}

// Error describes why a test could not be judged, or why it failed when no
// assertion says so (a score below the threshold, a gated derived metric,
// a call that failed with nothing to check).
type Error struct {
	// Kind is a short machine-readable class: "server_exited", "timeout",
	// "transport", "plugin_crashed", "invalid_argument", "rpc_error".
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Frame is one JSON-RPC message on the wire, as sent or received.
type Frame struct {
	// Direction is "send" or "recv".
	Direction string `json:"direction"`
	// AtMS is the offset from the test's start.
	AtMS float64         `json:"at_ms"`
	Data json.RawMessage `json:"data"`
	// Truncated is set when Data was cut to the frame size limit; Data is
	// then a JSON string holding the prefix.
	Truncated bool `json:"truncated,omitempty"`
}

// Header returns the part of the test known before it runs (identity,
// location, server, tool, tags), as test_started events carry it.
func (t *Test) Header() Test {
	return Test{ID: t.ID, Name: t.Name, File: t.File, Line: t.Line, Col: t.Col, Block: t.Block,
		Server: t.Server, Tool: t.Tool, Tags: t.Tags, ProtocolVersion: t.ProtocolVersion, Check: t.Check,
		Trial: t.Trial, TrialOf: t.TrialOf}
}

// IsWarning reports whether the test is a warning: a compliance test that
// broke only SHOULD requirements (status warned). A warning is reported
// but does not fail the run. Under `compliance run --strict` such a test
// is failed instead, and is not a warning.
func (t *Test) IsWarning() bool {
	return t.Status == StatusWarned
}

// FindingCheck returns the compliance check an assertion of t reports:
// the assertion's own check when it has one, else the test's (nil for
// tests that are not compliance checks).
func (t *Test) FindingCheck(a *Assertion) *Check {
	if a != nil && a.Check != nil {
		return a.Check
	}
	return t.Check
}
