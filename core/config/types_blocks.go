package config

import "encoding/json"

// ComplianceTest is one entry of the compliance block: a built-in protocol
// check against a server.
type ComplianceTest struct {
	// Name is the test name.
	Name string
	// Server is the server to check.
	Server string
	// Check is the check identifier: a compliance check id such as
	// "J01", a prefix of ids ending in "*" ("J*", "*" for every check),
	// or one of the sequences "initialize" and "tools/list".
	Check string
	// TestOptions holds expect (extra assertions on the captured
	// response, for the sequences), timeout_ms, tags and profile; the
	// scoring options are not read.
	TestOptions
	// Pos is the position of the test's mapping.
	Pos Pos
}

// Fixtures is the fixtures block: named JSON-RPC errors tool tests can
// inject instead of calling the server.
type Fixtures struct {
	// Server names the server the fixtures belong to (metadata); "" when
	// unset.
	Server string
	// Errors are the named error scenarios; names are unique.
	Errors []*FixtureError
	// Pos is the position of the fixtures key.
	Pos Pos
}

// FixtureError is one named error scenario. Exactly one of Tool and
// AppliesTo is set.
type FixtureError struct {
	// Name is the name inject_error refers to.
	Name string
	// Code is the JSON-RPC error code.
	Code int
	// Message is the error message.
	Message string
	// Tool limits the fixture to one tool.
	Tool string
	// AppliesTo is "any" for a fixture any tool may inject.
	AppliesTo string
	// Pos is the position of the entry's mapping.
	Pos Pos
}

// Composition is one entry of the compositions block: a graph of tool
// calls run in topological order.
type Composition struct {
	// Name is the composition's name.
	Name string
	// Server is the default server of its nodes; "" when the suite has a
	// single server or every node names one.
	Server string
	// Nodes are the tool calls in declaration order.
	Nodes []*CompositionNode
	// Output names the node whose output is the composition's output; ""
	// for the last node in topological order.
	Output string
	// Expect holds the assertions.
	Expect []*Assertion
	// ExpectOptions holds the long-form expect fields; nil when unset.
	ExpectOptions *ExpectOptions
	// Tags are the composition's tags.
	Tags []string
	// Pos is the position of the composition's mapping.
	Pos Pos
}

// CompositionNode is one tool call of a composition.
type CompositionNode struct {
	// ID names the node; ${ID.field} references read its output.
	ID string
	// Server is the server to call; "" for the composition's.
	Server string
	// Tool is the tool to call.
	Tool string
	// Args holds the arguments; a JSON object whose strings may hold
	// ${id.field} references, resolved at run time.
	Args json.RawMessage
	// Needs lists the nodes that must run first.
	Needs []string
	// Pos is the position of the node's mapping.
	Pos Pos
}

// Hooks is the hooks block: commands run around the run and each test.
type Hooks struct {
	// BeforeAll runs once before the first test.
	BeforeAll []*HookStep
	// AfterAll runs once after the last test.
	AfterAll []*HookStep
	// BeforeEach runs before each test.
	BeforeEach []*HookStep
	// AfterEach runs after each test.
	AfterEach []*HookStep
	// Pos is the position of the hooks key.
	Pos Pos
}

// HookStep is one hook command: plain, or context-aware (mode: context),
// which receives the run context as JSON and may return a patch.
type HookStep struct {
	// Command is the command to run.
	Command Command
	// Context is true for mode: context.
	Context bool
}
