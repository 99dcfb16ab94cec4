package config

// TrajectoryTest is one entry of the trajectories block (an mcptest
// extension of the v1 format): assertions over a JSONL trace that
// `mcptest intercept` wrote, judged with the agent trajectory targets
// (tool_names, tool_calls[i].name, tool_calls[i].args.<path>,
// tool_calls.length, redundant_tool_calls) and the ordinary matchers.
type TrajectoryTest struct {
	// Name is the test name.
	Name string
	// Trace is the trace file as written in the suite, relative to the
	// suite's directory when not absolute.
	Trace string
	// TracePath is Trace resolved against the suite's directory.
	TracePath string
	// Expect holds the assertions on the trace.
	Expect []*Assertion
	// ExpectOptions holds the long-form expect fields; nil when unset.
	ExpectOptions *ExpectOptions
	// Tags are the test's tags.
	Tags []string
	// Profile is quick, standard or full; "" means standard.
	Profile string
	// Pos is the position of the test's mapping.
	Pos Pos
}
