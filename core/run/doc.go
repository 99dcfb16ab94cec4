// Package run executes a plan; it is the orchestration only. It walks the
// plan's batches, obtains each test's session from core/servers, builds
// and sends the test's requests (tools, resources, prompts, lists,
// compositions, completions, compliance entries, notification features,
// agent runs, evals), and streams events. Judging is core/assert's, the
// grading of evals and judged metrics core/eval's (over core/judge and
// core/scorer), hooks and transforms are core/hooks', captured values
// core/capture's, and the grouping of tests into batches is the plan's
// (plan.Plan.Batches).
//
// # Size
//
// The package is about 3,400 lines without tests (late 2026), over the
// ~3,000 the project aims for. It is one file per kind of test (tools,
// lists, compositions, compliance, agents, trajectories, evals), each
// only the calls and sessions of that kind, and they share the runner's
// state (sessions held per test, the result cache, the plugin coalescer,
// fail-fast, the agents' tapes and budgets), which a split would have to
// export. The next candidates to move out are the compliance run path
// (compliance.go, compliance_http.go: about 450 lines) into
// core/compliance, and the notification features (features*.go) into
// their own package.
package run
