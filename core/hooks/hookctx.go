package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// patchLimit bounds what a context hook may print: a patch is a few names
// and values, so megabytes of output mean the hook printed something else.
const patchLimit = 1 << 20

// hookScope is what a chain of context hooks sees and patches: the
// environment overlay every later hook runs with, and the vars handed to
// later context hooks. beforeAll and afterAll patch the suite's scope;
// beforeEach and afterEach patch a copy that lives for one test, so one
// test's hooks cannot leak state into the next.
type hookScope struct {
	// env overlays the suite environment: the dotenv values the process
	// environment does not set, then the env patches.
	env map[string]string
	// vars starts as the suite's variables and takes the vars patches.
	vars map[string]json.RawMessage
}

// newHookScope is the scope before any hook ran.
func newHookScope(s *config.Suite, se *suiteEnv) hookScope {
	sc := hookScope{env: maps.Clone(se.dotenv), vars: map[string]json.RawMessage{}}
	for _, v := range s.Variables {
		if v.Unresolved {
			continue
		}
		b, _ := json.Marshal(v.Resolved)
		sc.vars[v.Name] = b
	}
	return sc
}

// clone copies the scope, for one test's hooks.
func (sc hookScope) clone() hookScope {
	return hookScope{env: maps.Clone(sc.env), vars: maps.Clone(sc.vars)}
}

// environ renders the env overlay as NAME=value entries.
func (sc hookScope) environ() []string { return sortedEnv(sc.env) }

// hookPayload is the JSON object a context hook reads on stdin.
type hookPayload struct {
	Phase string          `json:"phase"`
	Suite hookSuite       `json:"suite"`
	Test  *hookTest       `json:"test"`
	Env   json.RawMessage `json:"env"`
	Vars  json.RawMessage `json:"vars"`
	// Result is null in the before phases.
	Result *hookOutcome `json:"result"`
}

// hookSuite names the suite in a payload: the file name without its
// extension, and the path as given.
type hookSuite struct {
	Name string `json:"name"`
	File string `json:"file"`
}

// hookTest names the current test in a payload; null for beforeAll and
// afterAll.
type hookTest struct {
	Name   string   `json:"name"`
	ID     string   `json:"id"`
	Block  string   `json:"block"`
	Server string   `json:"server,omitempty"`
	Tool   string   `json:"tool,omitempty"`
	Tags   []string `json:"tags,omitempty"`
}

// hookOutcome is the result of a payload: the test's verdict in afterEach,
// the suite's in afterAll (with counts).
type hookOutcome struct {
	// Verdict is pass, fail, error or skip.
	Verdict string `json:"verdict"`
	// Message says why, when the verdict is not pass.
	Message string `json:"message,omitempty"`
	// The counts are set in afterAll only.
	Total   *int `json:"total,omitempty"`
	Passed  *int `json:"passed,omitempty"`
	Failed  *int `json:"failed,omitempty"`
	Errored *int `json:"errored,omitempty"`
	Skipped *int `json:"skipped,omitempty"`
}

// verdicts maps test statuses to payload verdicts. A warning (a SHOULD
// requirement broken) passes, as it does for the exit code; the message
// says what was broken.
var verdicts = map[rpt.Status]string{
	rpt.StatusPassed: "pass", rpt.StatusWarned: "pass", rpt.StatusFailed: "fail", rpt.StatusErrored: "error", rpt.StatusSkipped: "skip",
}

// testOutcome is the afterEach result of one test.
func testOutcome(res *rpt.Test) *hookOutcome {
	o := &hookOutcome{Verdict: verdicts[res.Status]}
	if res.Status == rpt.StatusPassed {
		return o
	}
	switch {
	case res.Error != nil:
		o.Message = res.Error.Message
	default:
		var failed []string
		for _, a := range res.Assertions {
			if a.Status != rpt.StatusPassed {
				failed = append(failed, fmt.Sprintf("%s %s on %s", a.Status, a.Matcher, a.Target))
			}
		}
		o.Message = strings.Join(failed, "; ")
	}
	return o
}

// suiteOutcome is the afterAll result: fail when a test failed, error when
// one errored and none failed, pass otherwise.
func suiteOutcome(tests []rpt.Test) *hookOutcome {
	var s rpt.Summary
	for i := range tests {
		s.Add(tests[i].Status)
	}
	o := &hookOutcome{Verdict: "pass", Total: &s.Total, Passed: &s.Passed, Failed: &s.Failed, Errored: &s.Errored, Skipped: &s.Skipped}
	switch {
	case s.Failed > 0:
		o.Verdict = "fail"
	case s.Errored > 0:
		o.Verdict = "error"
	}
	if o.Verdict != "pass" {
		o.Message = fmt.Sprintf("%d failed and %d errored of %d tests", s.Failed, s.Errored, s.Total)
	}
	return o
}

// payload builds a context hook's stdin.
func payload(phase string, s *config.Suite, t *plan.Test, sc hookScope, result *hookOutcome) []byte {
	base := filepath.Base(s.File)
	p := hookPayload{
		Phase:  phase,
		Suite:  hookSuite{Name: strings.TrimSuffix(base, filepath.Ext(base)), File: s.File},
		Result: result,
	}
	if t != nil {
		p.Test = &hookTest{Name: t.Name, ID: t.ID, Block: t.Block()}
		if t.Server != nil { // a trajectory test has none
			p.Test.Server = t.Server.Name
		}
		if t.Options != nil {
			p.Test.Tags = t.Options.Tags
		}
		if t.Kind == plan.KindTool {
			p.Test.Tool = t.Tool.Tool
		}
	}
	p.Env, _ = json.Marshal(nonNil(sc.env))
	p.Vars, _ = json.Marshal(nonNil(sc.vars))
	b, _ := json.Marshal(p)
	return b
}

func nonNil[V any](m map[string]V) map[string]V {
	if m == nil {
		return map[string]V{}
	}
	return m
}

// hookPatch is what a context hook printed: every part optional.
type hookPatch struct {
	env  map[string]string
	vars map[string]json.RawMessage
	// skip is set when the hook asked to skip; it holds the reason.
	skip *string
}

// errPatch is wrapped by every rejection of a context hook's output.
var errPatch = fmt.Errorf("%w: a context hook prints one JSON object with at most env, vars and skip", ErrCommandOutput)

// parsePatch reads a context hook's stdout. Empty output (or null) is a
// valid no-op; anything but an object with the keys env, vars and skip is
// rejected, so a hook cannot reach other suite state.
func parsePatch(out []byte) (*hookPatch, error) {
	out = bytes.TrimSpace(out)
	if len(out) == 0 {
		return &hookPatch{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("%w; stdout is not a JSON object (%v): %s", errPatch, err, excerpt(out))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w; stdout holds more than one JSON value: %s", errPatch, excerpt(out))
	}
	p := &hookPatch{}
	for _, k := range slices.Sorted(maps.Keys(top)) {
		v := top[k]
		var err error
		switch k {
		case "env":
			err = decodeEnvPatch(v, &p.env)
		case "vars":
			err = decodeStrict(v, &p.vars)
		case "skip":
			p.skip, err = decodeSkip(v)
		default:
			err = fmt.Errorf("unknown key %q", k)
		}
		if err != nil {
			return nil, fmt.Errorf("%w; %s: %w", errPatch, k, err)
		}
	}
	return p, nil
}

// decodeEnvPatch reads {"NAME": "value", ...}: string values and names a
// process environment can hold.
func decodeEnvPatch(raw json.RawMessage, dst *map[string]string) error {
	var m map[string]any
	if err := decodeStrict(raw, &m); err != nil {
		return err
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("%q is not a valid environment variable name", k)
		}
		s, ok := m[k].(string)
		if !ok || strings.ContainsRune(s, 0) {
			return fmt.Errorf("the value of %s must be a string without NUL bytes", k)
		}
		out[k] = s
	}
	*dst = out
	return nil
}

// decodeSkip reads {"reason": "..."}; true skips without a reason, false
// and null do not skip.
func decodeSkip(raw json.RawMessage) (*string, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "null", "false":
		return nil, nil
	case "true":
		reason := ""
		return &reason, nil
	}
	var s struct {
		Reason *string `json:"reason"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf(`want {"reason": "..."}: %w`, err)
	}
	reason := ""
	if s.Reason != nil {
		reason = *s.Reason
	}
	return &reason, nil
}

// decodeStrict decodes an object-valued key; null leaves dst unset.
func decodeStrict(raw json.RawMessage, dst any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		if string(raw) == "null" {
			return nil
		}
		return errors.New("want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(dst)
}

// apply merges the patch's env and vars into the scope.
func (p *hookPatch) apply(sc *hookScope) {
	if len(p.env) > 0 && sc.env == nil {
		sc.env = map[string]string{}
	}
	maps.Copy(sc.env, p.env)
	if len(p.vars) > 0 && sc.vars == nil {
		sc.vars = map[string]json.RawMessage{}
	}
	maps.Copy(sc.vars, p.vars)
}

// excerpt shows the start of bad output in an error.
func excerpt(b []byte) string {
	const n = 120
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}
