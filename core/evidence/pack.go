package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"sort"
	"time"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// SchemaVersion identifies the pack format.
const SchemaVersion = "mcptest.dev/evidence/v1"

// Pack is an evidence pack: a run's grades and coverage, bound to the
// exact report file they came from by its sha256, and optionally signed.
// Everything but Signature is covered by the signature.
type Pack struct {
	SchemaVersion string `json:"schema_version"`
	// RunID is the run's id, the same the report and the OpenInference
	// export carry, so the pack and a trace of the run can be matched.
	RunID string `json:"run_id"`
	// Tool is the mcptest that ran the tests; Generator the one that
	// built the pack.
	Tool      rpt.ToolInfo `json:"tool"`
	Generator rpt.ToolInfo `json:"generator"`
	// CreatedAt is when the pack was built.
	CreatedAt  time.Time `json:"created_at"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	// Report names the report file and holds its digest.
	Report ReportDigest `json:"report"`
	// ExitCode is the run's exit code and Summary its totals.
	ExitCode int         `json:"exit_code"`
	Summary  rpt.Summary `json:"summary"`
	// Partial is set when the report is a merge that lacks shards.
	Partial *rpt.Partial `json:"partial,omitempty"`
	// Coverage says what was tested.
	Coverage Coverage `json:"coverage"`
	// Verdicts lists every test's outcome, in report order.
	Verdicts []Verdict `json:"verdicts"`
	// Grades lists every graded result of the run: evals, judged
	// metrics and model-graded assertions, in report order.
	Grades []Grade `json:"grades"`
	// Costs is the run's model spend; nil when nothing had a price.
	Costs *rpt.Costs `json:"costs,omitempty"`
	// Signature is the ed25519 signature over the rest of the pack; nil
	// for an unsigned pack.
	Signature *Signature `json:"signature,omitempty"`
}

// ReportDigest binds a pack to its report file.
type ReportDigest struct {
	// File is the report's base name, where verify looks for it beside
	// the pack when --report is not given.
	File string `json:"file"`
	// SHA256 is the hex digest of the report's bytes, and Bytes their
	// number.
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// Coverage is what the run tested: counts per block, per server and per
// suite file, and the tools each server was tested through.
type Coverage struct {
	Suites  []string `json:"suites"`
	Blocks  []Count  `json:"blocks"`
	Servers []Count  `json:"servers"`
	Files   []Count  `json:"files"`
	// Tools lists, per server, the tools its tests called.
	Tools []ServerTools `json:"tools,omitempty"`
	// ProtocolVersions lists the MCP revisions the servers spoke.
	ProtocolVersions []string `json:"protocol_versions,omitempty"`
}

// Count is how many tests of one group ended in each status.
type Count struct {
	Name     string `json:"name"`
	Total    int    `json:"total"`
	Passed   int    `json:"passed"`
	Failed   int    `json:"failed"`
	Warned   int    `json:"warned,omitempty"`
	Errored  int    `json:"errored,omitempty"`
	Skipped  int    `json:"skipped,omitempty"`
	Deferred int    `json:"deferred,omitempty"`
}

// ServerTools is the set of tools a server's tests called.
type ServerTools struct {
	Server string   `json:"server"`
	Tools  []string `json:"tools"`
}

// Verdict is one test's outcome.
type Verdict struct {
	ID     string     `json:"id"`
	Name   string     `json:"name"`
	Block  string     `json:"block"`
	Server string     `json:"server,omitempty"`
	Status rpt.Status `json:"status"`
	Score  *float64   `json:"score,omitempty"`
}

// Grade is one graded result: a test's eval, or an assertion's.
type Grade struct {
	TestID string `json:"test_id"`
	Test   string `json:"test"`
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	// Assertion is the path of assertion indexes to the graded assertion
	// (nested ones under a composition); absent for the test's own eval.
	Assertion []int `json:"assertion,omitempty"`
	// Matcher is the graded assertion's matcher.
	Matcher string     `json:"matcher,omitempty"`
	Status  rpt.Status `json:"status"`
	Eval    rpt.Eval   `json:"eval"`
}

// Build makes the unsigned pack of run, whose report file is raw (read
// from path).
func Build(run *rpt.Run, raw []byte, path string, generator rpt.ToolInfo, now time.Time) *Pack {
	sum := sha256.Sum256(raw)
	p := &Pack{
		SchemaVersion: SchemaVersion,
		RunID:         run.RunID,
		Tool:          run.Tool,
		Generator:     generator,
		CreatedAt:     now.UTC().Truncate(time.Second),
		StartedAt:     run.StartedAt,
		FinishedAt:    run.FinishedAt,
		Report:        ReportDigest{File: filepath.Base(path), SHA256: hex.EncodeToString(sum[:]), Bytes: int64(len(raw))},
	}
	fillContent(p, run)
	return p
}

// fillContent sets the fields of p that derive from the run alone, the
// ones verify rebuilds from the report to compare.
func fillContent(p *Pack, run *rpt.Run) {
	p.ExitCode, p.Summary, p.Partial, p.Costs = run.ExitCode, run.Summary, run.Partial, run.Costs
	p.Coverage = coverage(run)
	p.Verdicts = make([]Verdict, 0, len(run.Tests))
	p.Grades = []Grade{}
	for i := range run.Tests {
		t := &run.Tests[i]
		p.Verdicts = append(p.Verdicts, Verdict{ID: t.ID, Name: t.Name, Block: t.Block, Server: t.Server, Status: t.Status, Score: t.Score})
		if t.Eval != nil {
			p.Grades = append(p.Grades, Grade{TestID: t.ID, Test: t.Name, File: t.File, Line: t.Line, Status: t.Status, Eval: *t.Eval})
		}
		p.Grades = assertionGrades(p.Grades, t, t.Assertions, nil)
	}
}

// assertionGrades appends the grades of assertions (and of the ones
// nested under them), at path.
func assertionGrades(out []Grade, t *rpt.Test, as []rpt.Assertion, path []int) []Grade {
	for i := range as {
		a := &as[i]
		at := append(append([]int(nil), path...), a.Index)
		if a.Eval != nil {
			out = append(out, Grade{TestID: t.ID, Test: t.Name, File: t.File, Line: t.Line, Assertion: at,
				Matcher: a.Matcher, Status: a.Status, Eval: *a.Eval})
		}
		out = assertionGrades(out, t, a.Assertions, at)
	}
	return out
}

// coverage counts the run's tests by block, server and suite file.
func coverage(run *rpt.Run) Coverage {
	blocks, servers, files := counter{}, counter{}, counter{}
	tools := map[string]map[string]bool{}
	for i := range run.Tests {
		t := &run.Tests[i]
		blocks.add(t.Block, t.Status)
		server := t.Server
		if server == "" {
			server = "(none)"
		}
		servers.add(server, t.Status)
		files.add(t.File, t.Status)
		if t.Tool != "" && t.Server != "" {
			if tools[t.Server] == nil {
				tools[t.Server] = map[string]bool{}
			}
			tools[t.Server][t.Tool] = true
		}
	}
	c := Coverage{Suites: append([]string{}, run.Suites...), Blocks: blocks.list(), Servers: servers.list(), Files: files.list()}
	for _, s := range sortedKeys(tools) {
		c.Tools = append(c.Tools, ServerTools{Server: s, Tools: sortedKeys(tools[s])})
	}
	seen := map[string]bool{}
	for _, s := range run.Servers {
		if v := s.ProtocolVersion; v != "" && !seen[v] {
			seen[v] = true
			c.ProtocolVersions = append(c.ProtocolVersions, v)
		}
	}
	sort.Strings(c.ProtocolVersions)
	return c
}

// counter counts statuses per group name.
type counter map[string]*Count

func (c counter) add(name string, st rpt.Status) {
	n := c[name]
	if n == nil {
		n = &Count{Name: name}
		c[name] = n
	}
	n.Total++
	switch st {
	case rpt.StatusPassed:
		n.Passed++
	case rpt.StatusFailed:
		n.Failed++
	case rpt.StatusWarned:
		n.Warned++
	case rpt.StatusErrored:
		n.Errored++
	case rpt.StatusSkipped:
		n.Skipped++
	case rpt.StatusDeferred:
		n.Deferred++
	}
}

// list returns the counts sorted by name.
func (c counter) list() []Count {
	out := make([]Count, 0, len(c))
	for _, k := range sortedKeys(c) {
		out = append(out, *c[k])
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// shortHex is the first n hex digits of s, for key ids.
func shortHex(b []byte, n int) string {
	s := hex.EncodeToString(b)
	if len(s) > n {
		return s[:n]
	}
	return s
}
