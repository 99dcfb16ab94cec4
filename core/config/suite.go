package config

import (
	"maps"
	"os"

	"github.com/mcptest/mcptest/core/config/internal/vars"
)

// Suite is one loaded suite: the typed form of a v1 YAML suite file merged
// with the files it imports, its variables resolved and interpolated, and
// its defaultTest merged into every test.
//
// Load returns a Suite only when there is no error at all, so every field
// below is valid: every test names a server in Servers, every Assertion
// has exactly one matcher (or is an assert-set), every Args is a JSON
// object, every reference (fixture, rubric, provider, fault) resolves.
type Suite struct {
	// File is the path of the suite file as it was given to Load.
	File string
	// Dir is the absolute directory of the file; relative paths in the
	// suite (snapshots, imports, the .env file) resolve against it.
	Dir string
	// Imports lists the absolute paths of the imported files, in the order
	// they were merged (an import's own imports come before it).
	Imports []string

	// Servers holds the declared servers by name.
	Servers map[string]*Server
	// ServerOrder lists the server names in declaration order.
	ServerOrder []string
	// Variables lists the declared variables in declaration order, with
	// their resolved values.
	Variables []*Variable

	// Tools holds the tool-call tests in file order (imports first).
	Tools []*ToolTest
	// Resources holds the resource-read tests.
	Resources []*ResourceTest
	// Prompts holds the prompt-get tests.
	Prompts []*PromptTest
	// Lists holds the list tests (lists block).
	Lists []*ListTest
	// Completions holds the completion tests (completions block).
	Completions []*CompletionTest
	// Agents holds the agent tests.
	Agents []*AgentTest
	// Trajectories holds the assertions over intercept traces.
	Trajectories []*TrajectoryTest
	// Faults holds the named fault injections agents refer to.
	Faults []*Fault
	// Providers holds the custom model providers by name.
	Providers map[string]*Provider
	// ProviderOrder lists the provider names in declaration order.
	ProviderOrder []string
	// Budget holds the spend caps of agent runs; nil when unset.
	Budget *Budget
	// Compliance holds the protocol compliance checks.
	Compliance []*ComplianceTest
	// Evals holds the rubric evaluations.
	Evals []*EvalTest
	// Rubrics holds the reusable named rubrics by name.
	Rubrics map[string]*Rubric
	// RubricOrder lists the rubric names in declaration order.
	RubricOrder []string
	// Scorers holds the external scorers.
	Scorers []*Scorer
	// Fixtures holds the named error scenarios; nil when unset.
	Fixtures *Fixtures
	// Compositions holds the tool-call graphs.
	Compositions []*Composition
	// Hooks holds the lifecycle hooks; nil when unset.
	Hooks *Hooks
	// ModelCompatibility lists the model identifiers the suite targets
	// (metadata for reporters).
	ModelCompatibility []string
	// TargetVersions lists the MCP protocol revisions to run against, in
	// declaration order without duplicates; nil when unset.
	TargetVersions []string
	// DefaultTimeoutMS is performance.default_timeout_ms, the timeout of a
	// test that sets no timeout_ms; 0 when the suite does not set it.
	DefaultTimeoutMS int
	// P95LatencyMS is performance.p95_latency_ms, a soft latency budget; 0
	// when unset.
	P95LatencyMS int

	// Blocks holds the position of every top-level key written in the
	// suite or its imports (the last file that writes a key wins), so that
	// later stages can point at a block as a whole.
	Blocks map[string]Pos
	// Secrets holds the values read through bearer_token_env, env-backed
	// headers, OAuth client credentials and model provider keys, for
	// reports and logs to redact. It holds values, never names.
	Secrets []string
	// Warnings holds problems that do not stop the suite: unresolved
	// variables (unless MCPTEST_STRICT_VARS=1 makes them errors) and
	// deferred fields that are accepted but ignored.
	Warnings Errors
	// Overrides describes the command-line server overrides applied to the
	// suite, one entry per changed field, for the banner the CLI prints;
	// nil when none applies.
	Overrides []string

	// defaultTest is the defaultTest block, merged into the tests when the
	// fragments are complete.
	defaultTest *defaultTest
	// env holds the values of the dotenv files, consulted after the
	// process environment.
	env map[string]string
	// lookupEnv reads the process environment (os.LookupEnv unless a test
	// replaced it).
	lookupEnv func(string) (string, bool)
}

// LookupEnv returns the value of the environment variable name the way the
// suite sees it: the process environment first, then the dotenv files
// (.env beside the suite, --env-file). Transports use it for
// bearer_token_env and env-backed headers.
func (s *Suite) LookupEnv(name string) (string, bool) {
	lookup := s.lookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return vars.Env(lookup, s.env, name)
}

// DotenvValues returns a copy of the values read from the suite's dotenv
// files (the .env beside the suite, then --env-file), later files winning.
// The process environment still takes precedence over them; see
// LookupEnv. Hooks and transforms receive the names the process
// environment does not set, the same values interpolation saw.
func (s *Suite) DotenvValues() map[string]string {
	return maps.Clone(s.env)
}

// Pos locates a value in a suite file: the 1-based line and column of the
// YAML node and the JSON pointer of the field (for example
// "/tools/2/expect/0/matcher"). Later stages use it to report errors
// against the place the user wrote. File is the file that holds the value,
// which for an imported test is the imported file.
type Pos struct {
	File      string
	Line, Col int
	Pointer   string
}

// Variable is one entry of the variables block.
type Variable struct {
	// Name is the key under variables.
	Name string
	// Value is the literal value (value:), in its string form; nil when the
	// variable reads the environment instead.
	Value *string
	// FromEnv is the environment variable to read (from_env:); "" for a
	// literal.
	FromEnv string
	// Default is the fallback of a from_env variable; nil when unset.
	Default *string
	// Resolved is the value ${Name} expands to after the precedence rules
	// (process environment, dotenv, default, value).
	Resolved string
	// Unresolved is true when nothing provides a value; ${Name} then
	// expands to "" with a warning.
	Unresolved bool
	// Pos is the position of the variable's key.
	Pos Pos
}
