package config

import "encoding/json"

// Suite is one loaded suite file: the typed form of a v1 YAML suite.
//
// Load returns a Suite only when the file has no error at all, so every
// field below is valid: every ToolTest names a server in Servers, every
// Assertion has exactly one matcher, every Args is a JSON object.
type Suite struct {
	// File is the path of the suite file as it was given to Load.
	File string
	// Dir is the absolute directory of the file; relative paths in the
	// suite (snapshots, cassettes, imports) resolve against it.
	Dir string
	// Servers holds the declared servers by name.
	Servers map[string]*Server
	// ServerOrder lists the server names in declaration order.
	ServerOrder []string
	// Tools holds the tool-call tests in file order.
	Tools []*ToolTest
	// DefaultTimeoutMS is performance.default_timeout_ms, the timeout of a
	// test that sets no timeout_ms; 0 when the suite does not set it.
	DefaultTimeoutMS int
}

// Pos locates a value in a suite file: the 1-based line and column of the
// YAML node and the JSON pointer of the field (for example
// "/tools/2/expect/0/matcher"). Later stages use it to report errors
// against the place the user wrote.
type Pos struct {
	File      string
	Line, Col int
	Pointer   string
}

// Server is one entry of the servers block. In this build every server is
// a subprocess (stdio) server.
type Server struct {
	// Name is the key under servers.
	Name string
	// Command is the argv to spawn; it has at least one element and the
	// first one (the executable) is not empty.
	Command []string
	// Env holds extra environment variables for the child process; it is
	// never nil.
	Env map[string]string
	// Pos is the position of the server's key.
	Pos Pos
}

// ToolTest is one entry of the tools block: call one tool on one server and
// judge the result.
type ToolTest struct {
	// Index is the position of the test in the tools array (0-based).
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
	// Expect holds the assertions in file order; it may be empty.
	Expect []*Assertion
	// TimeoutMS is the per-test timeout in milliseconds; 0 when unset, in
	// which case Suite.DefaultTimeoutMS applies.
	TimeoutMS int
	// Tags are the test's tags, used by tag filters; nil when unset.
	Tags []string
	// Pos is the position of the test's mapping (pointer "/tools/<i>").
	Pos Pos
}

// Assertion is one entry of an expect block: where to look in the result
// and how to judge it.
type Assertion struct {
	// Target is the path of the value to judge, e.g.
	// "result.content[0].text". It may be empty.
	Target string
	// Matcher is the single matcher of the assertion.
	Matcher Matcher
	// Message is the author's description used in failure output; empty
	// when unset.
	Message string
	// Pos is the position of the assertion's mapping.
	Pos Pos
}

// Matcher is the one-key matcher object of an assertion, such as
// {contains: "hello"}. The key is not checked against a list here: it is
// resolved later against the installed matcher plugins.
type Matcher struct {
	// Key is the matcher name, e.g. "contains".
	Key string
	// Arg is the matcher's argument converted from YAML to JSON ("null"
	// when the argument is ~).
	Arg json.RawMessage
	// Pos is the position of the matcher key; its Pointer is that of the
	// matcher object (".../matcher").
	Pos Pos
}
