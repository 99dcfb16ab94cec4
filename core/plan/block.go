package plan

// blocks names the suite block each kind of test comes from.
var blocks = map[string]string{KindTool: "tools", KindResource: "resources", KindPrompt: "prompts",
	KindComposition: "compositions", KindList: "lists", KindCompletion: "completions",
	KindCompliance: "compliance", KindAgent: "agents", KindTrajectory: "trajectories", KindEval: "evals"}

// Block names the suite block t comes from (tools, resources, ...), as
// reports and hook payloads give it.
func (t *Test) Block() string { return blocks[t.Kind] }
