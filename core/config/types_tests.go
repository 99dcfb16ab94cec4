package config

import "encoding/json"

// Test profiles: which invocations a test belongs to (--profile).
const (
	ProfileQuick    = "quick"
	ProfileStandard = "standard"
	ProfileFull     = "full"
)

// TestOptions are the fields tool, resource and prompt tests share with
// defaultTest. After loading, a test's options include what defaultTest
// contributed: its assertions appended after the test's own, its other
// options wherever the test left them unset.
type TestOptions struct {
	// Expect holds the assertions and assert-sets in order; it may be
	// empty.
	Expect []*Assertion
	// ExpectOptions holds the step-level checks of the long form of expect
	// (duration and token budgets, response headers); nil when unset.
	ExpectOptions *ExpectOptions
	// TimeoutMS is the per-test timeout in milliseconds; 0 when unset, in
	// which case Suite.DefaultTimeoutMS applies.
	TimeoutMS int
	// Tags are the test's tags, used by tag filters; nil when unset.
	Tags []string
	// Profile is quick, standard or full; "" means standard.
	Profile string
	// Threshold is the combined score (0..1) the test needs to pass; nil
	// when every assertion must pass.
	Threshold *float64
	// DerivedMetrics are the test's named weighted aggregations, in
	// evaluation order.
	DerivedMetrics []*DerivedMetric
	// Transform rewrites the request and/or response (tool tests and
	// defaultTest only); nil when unset.
	Transform *Transform
	// KeyPos holds the position of the scoring and behaviour keys the test
	// sets or inherits from defaultTest (with defaultTest's position):
	// threshold, derivedMetrics, transform, inject_error and data, so later
	// stages can point at the field; nil when there are none.
	KeyPos map[string]Pos
	// Row is set on a test expanded from a row of its data (tool,
	// resource and prompt tests); nil otherwise.
	Row *DataRow
}

// ToolTest is one entry of the tools block: call one tool on one server and
// judge the result.
type ToolTest struct {
	// Index is the position of the test in the merged tools list (0-based).
	Index int
	// Name is the human-readable test name.
	Name string
	// Server is the name of the server to call; it is a key of
	// Suite.Servers.
	Server string
	// Tool is the name of the tool to call.
	Tool string
	// Args holds the tool arguments; it is always a JSON object, "{}" when
	// the test has no args.
	Args json.RawMessage
	// InjectError names a fixture of Suite.Fixtures to synthesize instead
	// of calling the server; "" when unset.
	InjectError string
	// Captures are the values the test keeps from its response for later
	// tests' ${capture:NAME} references, in declaration order; nil when
	// unset.
	Captures []*Capture
	// Client overrides the server's client mocks during the test; nil
	// when unset.
	Client *ClientMocks
	// Progress makes the call carry a progress token and the envelope a
	// progress summary.
	Progress bool
	// LogLevel is sent with logging/setLevel before the call; "" when
	// unset. It is one of LogLevels.
	LogLevel string
	TestOptions
	// Pos is the position of the test's mapping (pointer "/tools/<i>").
	Pos Pos
}

// ResourceTest is one entry of the resources block: read one resource
// (resources/read) and judge the result.
type ResourceTest struct {
	// Index is the position of the test in the merged resources list.
	Index int
	// Name is the human-readable test name.
	Name string
	// Server is the name of the server to read from.
	Server string
	// URI is the resource URI to read.
	URI string
	// Subscribe subscribes to the URI and waits for updates before the
	// read; nil when unset.
	Subscribe *Subscribe
	TestOptions
	// Pos is the position of the test's mapping.
	Pos Pos
}

// PromptTest is one entry of the prompts block: fetch one prompt
// (prompts/get) and judge the result.
type PromptTest struct {
	// Index is the position of the test in the merged prompts list.
	Index int
	// Name is the human-readable test name.
	Name string
	// Server is the name of the server to ask.
	Server string
	// Prompt is the prompt name.
	Prompt string
	// Args holds the prompt arguments; always a JSON object, "{}" when
	// unset.
	Args json.RawMessage
	TestOptions
	// Pos is the position of the test's mapping.
	Pos Pos
}

// Command is a command line written as one string: a hook or a transform.
// It is split with POSIX shell rules and run directly, without a shell.
type Command struct {
	// Line is the command as written (after interpolation).
	Line string
	// Argv is Line split into words; it has at least one element.
	Argv []string
	// Pos is the position of the string.
	Pos Pos
}

// Transform is the transform block of a tool test: commands that rewrite
// the request before it is sent and the response before assertions run.
// At least one is set.
type Transform struct {
	// Request receives {"name", "arguments"} and prints the replacement.
	Request *Command
	// Response receives {"result"} and prints the replacement.
	Response *Command
	// Pos is the position of the transform key.
	Pos Pos
}

// DerivedMetric is one entry of derivedMetrics: a named weighted
// aggregation of assertion, assert-set and earlier metric scores.
type DerivedMetric struct {
	// Name is the metric's name.
	Name string
	// Threshold, when set, makes the metric gate the test.
	Threshold *float64
	// Aggregation is "weighted_sum" or "weighted_average".
	Aggregation string
	// Terms are the weighted references, in order.
	Terms []*MetricTerm
	// Pos is the position of the metric's mapping.
	Pos Pos
}

// MetricTerm is one weighted reference of a derived metric.
type MetricTerm struct {
	// Ref names an assertion, an assert-set or an earlier derived metric.
	Ref string
	// Weight is the term's weight (default 1).
	Weight float64
	// Pos is the position of the term.
	Pos Pos
}

// Capture is one entry of a tool test's capture map: the value at Target in
// the test's response envelope, kept under Name for later tests.
type Capture struct {
	// Name is what ${capture:Name} refers to.
	Name string
	// Target is a target path into the envelope, such as
	// result.structuredContent.id; checked when the suite is planned.
	Target string
	// Pos is the position of the entry's value.
	Pos Pos
}
