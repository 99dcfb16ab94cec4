package config

import "time"

// Defaults of agent tests.
const (
	DefaultAgentMaxTurns    = 10
	DefaultAgentMaxTokens   = 1024
	DefaultSimulateMaxTurns = 6
	DefaultMetricThreshold  = 0.5
)

// AgentTest is one entry of the agents block: a model drives the tools of
// one or more servers from a prompt, and the trace is judged.
type AgentTest struct {
	// Name is the test name.
	Name string
	// Models lists the models to run, one row each (model: is one entry).
	Models []ModelRef
	// Servers lists the servers whose tools the model sees.
	Servers []string
	// Prompt is the user prompt; "" when Turns supplies the user side.
	Prompt string
	// SystemPrompt is the system prompt; "" for none.
	SystemPrompt string
	// Turns drives a multi-turn conversation; nil for a single prompt.
	Turns *Turns
	// MaxTurns caps tool-use iterations (default 10).
	MaxTurns int
	// MaxTokens is the per-call max_tokens (default 1024).
	MaxTokens int
	// TokenBudget caps the tokens of the whole run; 0 for none.
	TokenBudget int
	// MaxToolCalls caps the tool calls of the whole run; 0 for none.
	MaxToolCalls int
	// TimeBudget is the wall-clock deadline of the run; 0 for none.
	TimeBudget time.Duration
	// Inject names faults of Suite.Faults to inject.
	Inject []string
	// Recovery gates the run on recovering from the injected faults.
	Recovery *Recovery
	// Expect holds the assertions on the trace.
	Expect []*Assertion
	// ExpectOptions holds the long-form expect fields; nil when unset.
	ExpectOptions *ExpectOptions
	// Eval holds the judged metrics; nil when unset.
	Eval *AgentEval
	// Tags are the test's tags.
	Tags []string
	// Profile is quick, standard or full; "" means standard.
	Profile string
	// Pos is the position of the test's mapping.
	Pos Pos
}

// ModelRef is one model of an agent test: a bare model id (its provider
// family is detected from the name) or a model of a declared provider.
type ModelRef struct {
	// ID is the model id.
	ID string
	// Provider names an entry of Suite.Providers; "" for auto-detection.
	Provider string
}

// Turns is a multi-turn conversation: scripted user messages, or a
// simulated user.
type Turns struct {
	// Scripted lists the user messages in order; nil when simulated.
	Scripted []string
	// Simulate configures an LLM playing the user; nil when scripted.
	Simulate *Simulation
}

// Simulation is a simulated user.
type Simulation struct {
	// Goal is what the simulated user wants done.
	Goal string
	// Persona describes the user; "" for none.
	Persona string
	// MaxTurns caps the conversation (default 6).
	MaxTurns int
}

// Recovery is the recovery gate of an agent test that injects faults.
type Recovery struct {
	// MaxDetectionMS is the per-call timeout budget.
	MaxDetectionMS int
	// MaxRecoveryMS caps the total recovery time; 0 for unbounded.
	MaxRecoveryMS int
	// RequireCleanTimeout also requires a clean timeout.
	RequireCleanTimeout bool
}

// AgentEval is the eval block of an agent test: judged metrics.
type AgentEval struct {
	// Metrics are the built-in metrics in declaration order.
	Metrics []*Metric
	// Rubric is a custom rubric; nil when unset.
	Rubric *Rubric
}

// Metric is one built-in judged metric of an agent eval, such as mcp_use.
type Metric struct {
	// Name is the metric key.
	Name string
	// Threshold is the score needed to pass (default 0.5).
	Threshold float64
}

// Fault is one entry of the faults block: a tool that behaves like an
// unresponsive backend when an agent test injects it.
type Fault struct {
	// Name is the name agent tests refer to with inject:.
	Name string
	// Tool limits the fault to one tool; "" for any tool.
	Tool string
	// Server limits the fault to one server; "" for any server.
	Server string
	// Kind is hang, wedged, slow or recover_after.
	Kind string
	// DelayMS is the answer delay of a slow fault.
	DelayMS int
	// Failures is how many calls hang before a recover_after fault
	// answers.
	Failures int
	// Pos is the position of the fault's mapping.
	Pos Pos
}

// Provider is one entry of the providers block: an OpenAI-compatible
// endpoint.
type Provider struct {
	// Name is the key under providers.
	Name string
	// Type is the wire protocol; "openai" is the only one.
	Type string
	// BaseURL is the endpoint base URL.
	BaseURL string
	// APIKeyEnv names the environment variable holding the key; "" for an
	// unauthenticated endpoint. The value is in Suite.Secrets.
	APIKeyEnv string
	// Organization is sent as OpenAI-Organization; "" for none.
	Organization string
	// Prices are the entry's model prices, overriding the provider
	// plugin's table; nil when unset.
	Prices []ModelPrice
	// Pos is the position of the provider's key.
	Pos Pos
}

// ModelPrice is what a model costs, in US dollars per million tokens.
type ModelPrice struct {
	// Model is a model id, or a prefix ending in "*".
	Model string
	// InputPerMTok prices a million prompt tokens.
	InputPerMTok float64
	// OutputPerMTok prices a million completion tokens.
	OutputPerMTok float64
}

// Budget holds the spend caps of agent runs, in US cents; 0 disables a
// cap.
type Budget struct {
	// PerTestUSDCents caps one agent test.
	PerTestUSDCents int
	// PerSuiteUSDCents caps the whole suite.
	PerSuiteUSDCents int
}
