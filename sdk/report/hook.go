package report

// The phases a lifecycle hook runs in.
const (
	HookBeforeAll  = "beforeAll"
	HookAfterAll   = "afterAll"
	HookBeforeEach = "beforeEach"
	HookAfterEach  = "afterEach"
)

// Hook is the outcome of one lifecycle hook step. A run lists its
// beforeAll and afterAll steps; a test lists the beforeEach and afterEach
// steps that ran around it. Steps that never ran (an earlier step of the
// same before phase failed) are not listed.
type Hook struct {
	// Phase is beforeAll, afterAll, beforeEach or afterEach.
	Phase string `json:"phase"`
	// Suite is the suite file that declares the hook; set on run-level
	// hooks only (a test already names its file).
	Suite string `json:"suite,omitempty"`
	// Command is the command line as written in the suite.
	Command string `json:"command"`
	// Mode is "context" for a context-aware hook, empty for a plain one.
	Mode string `json:"mode,omitempty"`
	// Status is passed or failed. A failed before hook fails (errors) the
	// tests it guards; a failed after hook is only reported.
	Status Status `json:"status"`
	// ExitCode is the process's exit status; absent when it never started
	// or was killed.
	ExitCode *int `json:"exit_code,omitempty"`
	// DurationMS is the hook's wall-clock time.
	DurationMS float64 `json:"duration_ms"`
	// Error says why the hook failed: the exit status, a timeout, a start
	// failure or a rejected patch.
	Error string `json:"error,omitempty"`
	// Stdout is the tail of a plain hook's standard output (a context
	// hook's output is its patch, which may carry secrets, and is not
	// kept).
	Stdout string `json:"stdout,omitempty"`
	// Stderr is the tail of the hook's standard error.
	Stderr string `json:"stderr,omitempty"`
	// Skip is the reason a context hook gave for skipping.
	Skip string `json:"skip,omitempty"`
}
