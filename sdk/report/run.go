package report

import (
	"sort"
	"time"
)

// SchemaVersion is the version of the report's JSON shape. It changes only
// when a field changes meaning or disappears; added fields keep it.
const SchemaVersion = "1"

// Run is the canonical report of one mcptest run.
type Run struct {
	SchemaVersion string    `json:"schema_version"`
	RunID         string    `json:"run_id"`
	Tool          ToolInfo  `json:"tool"`
	StartedAt     time.Time `json:"started_at"`
	FinishedAt    time.Time `json:"finished_at"`
	DurationMS    float64   `json:"duration_ms"`
	// Suites lists the suite files of the run, as given on the command line.
	Suites  []string `json:"suites"`
	Servers []Server `json:"servers,omitempty"`
	Tests   []Test   `json:"tests"`
	Summary Summary  `json:"summary"`
	// VersionSummaries count the tests per MCP protocol revision, in the
	// order the suites list them; absent unless a suite lists
	// target_versions. Summarize computes them with the summary. (They are
	// not part of Summary, which stays comparable with ==.)
	VersionSummaries []VersionSummary `json:"version_summaries,omitempty"`
	// MetricRollups summarise the tests' derived metrics across the run,
	// one per metric name in first-seen order; absent when no test
	// reported one.
	MetricRollups []MetricRollup `json:"metric_rollups,omitempty"`
	// Latency compares each suite's p95 latency budget with its tests'
	// latencies; absent unless a suite sets performance.p95_latency_ms.
	// Summarize computes it.
	Latency []LatencySummary `json:"latency,omitempty"`
	// Trials summarises a run whose tests ran several times (--trials):
	// pass@k and pass^k per test and overall, and the flaky tests.
	// Summarize computes it; absent without trials.
	Trials *Trials `json:"trials,omitempty"`
	// Costs is what the run's model calls cost, in total and per suite;
	// absent when nothing had a price.
	Costs *Costs `json:"costs,omitempty"`
	// EvalsNotRun counts the selected evals (matrix cells) a `mcptest
	// run` left out: evals run under `mcptest eval`. Zero otherwise.
	EvalsNotRun int `json:"evals_not_run,omitempty"`
	// ModelCompatibility lists the model identifiers the run's suites say
	// they target (their model_compatibility), in first-seen order without
	// repeats: metadata reporters label the run with. Absent when no suite
	// lists any.
	ModelCompatibility []string `json:"model_compatibility,omitempty"`
	// Errors lists problems of the run itself (a plugin that crashed, a
	// server that never started) that are not any single test's fault.
	Errors []RunError `json:"errors,omitempty"`
	// Hooks are the beforeAll and afterAll steps of the run's suites, in
	// the order they ran; absent when no suite declares any.
	Hooks    []Hook `json:"hooks,omitempty"`
	ExitCode int    `json:"exit_code"`
	// Shard is set on the report of one shard of a sharded run.
	Shard *Shard `json:"shard,omitempty"`
	// Partial is set on a merged report that lacks some shards of its run
	// (mcptest report merge --allow-partial): its tests are not the whole
	// run, whatever its summary says.
	Partial *Partial `json:"partial,omitempty"`
}

// SortServers orders server records the way every report lists them: by
// name, then suite file, then target revision, then transport, so a run
// and the merge of its shards list them alike.
func SortServers(servers []Server) {
	sort.SliceStable(servers, func(i, j int) bool {
		a, b := servers[i], servers[j]
		switch {
		case a.Name != b.Name:
			return a.Name < b.Name
		case a.Suite != b.Suite:
			return a.Suite < b.Suite
		case a.TargetVersion != b.TargetVersion:
			return a.TargetVersion < b.TargetVersion
		}
		return a.Transport < b.Transport
	})
}

// ServerLabel names servers[i] for people: its name, followed by its suite
// file in parentheses when a server of another suite has the same name.
func ServerLabel(servers []Server, i int) string {
	s := servers[i]
	for j := range servers {
		if servers[j].Name == s.Name && servers[j].Suite != s.Suite {
			return s.Name + " (" + s.Suite + ")"
		}
	}
	return s.Name
}

// Shard says which part of a sharded run a report covers.
type Shard struct {
	// Index is 1-based; Total is the number of shards.
	Index int `json:"index"`
	Total int `json:"total"`
}

// ToolInfo names the program that produced the report.
type ToolInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Server records what a server under test said about itself.
type Server struct {
	Name string `json:"name"`
	// Suite is the suite file that declares the server: two suites may
	// each declare a server of the same name, and each is its own entry.
	// Empty for a server given on the command line (compliance run).
	Suite     string `json:"suite,omitempty"`
	Transport string `json:"transport"`
	// TargetVersion is the revision mcptest asked this server for, set
	// when the suite lists target_versions: a server is then started once
	// per revision, and each start has its own entry.
	TargetVersion string `json:"target_version,omitempty"`
	// ProtocolVersion is the revision the server spoke: the one it
	// answered initialize with (legacy era), or the pinned one it accepted
	// (modern era, server/discover).
	ProtocolVersion string `json:"protocol_version,omitempty"`
	// SupportedVersions are the revisions a modern-era server listed in
	// server/discover.
	SupportedVersions []string `json:"supported_versions,omitempty"`
	ServerName        string   `json:"server_name,omitempty"`
	ServerVersion     string   `json:"server_version,omitempty"`
	// Error is set when the server could not be started or initialised.
	Error string `json:"error,omitempty"`
}

// Summary counts tests by status.
type Summary struct {
	Total  int `json:"total"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	// Warned counts compliance tests that broke only SHOULD requirements;
	// they do not fail the run.
	Warned  int `json:"warned"`
	Errored int `json:"errored"`
	Skipped int `json:"skipped"`
	// Deferred counts agent tests that could not run because their
	// model's key is not set; never counted as passed.
	Deferred   int     `json:"deferred"`
	DurationMS float64 `json:"duration_ms"`
}

// MetricRollup is the run-wide summary of one derived metric: its mean
// over the tests that reported it, and how many did.
type MetricRollup struct {
	Name  string  `json:"name"`
	Mean  float64 `json:"mean"`
	Count int     `json:"count"`
}

// RunError is a run-level problem.
type RunError struct {
	// Source names what went wrong: "plugin", "server", "reporter", "hook",
	// or "interrupt" (the run was stopped by a signal).
	Source  string `json:"source"`
	Name    string `json:"name,omitempty"`
	Message string `json:"message"`
	// StderrTail holds the last lines the failing process wrote to stderr.
	StderrTail string `json:"stderr_tail,omitempty"`
}

// Add counts one test into the summary.
func (s *Summary) Add(st Status) {
	s.Total++
	switch st {
	case StatusPassed:
		s.Passed++
	case StatusFailed:
		s.Failed++
	case StatusWarned:
		s.Warned++
	case StatusErrored:
		s.Errored++
	case StatusSkipped:
		s.Skipped++
	case StatusDeferred:
		s.Deferred++
	}
}

// Summarize recomputes the summary and the per-revision summaries from the
// tests, keeping the duration.
func (r *Run) Summarize() {
	d := r.Summary.DurationMS
	r.Summary = Summary{DurationMS: d}
	for i := range r.Tests {
		r.Summary.Add(r.Tests[i].Status)
	}
	r.VersionSummaries = versionSummaries(r.Tests)
	r.Latency = latencySummaries(r.Tests)
	r.Trials = trialSummary(r.Tests, r.Trials)
	r.Costs = costSummary(r.Tests, r.Costs)
}
