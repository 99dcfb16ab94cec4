package scorer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/plugin/inproc"
	"github.com/mcptest/mcptest/sdk"
)

// fakeScorer answers with a fixed result (or error) and records what it
// was sent.
type fakeScorer struct {
	res sdk.ScoreResult
	err error

	mu   sync.Mutex
	seen []sdk.ScoreInput
}

func (f *fakeScorer) Score(_ context.Context, in sdk.ScoreInput) (sdk.ScoreResult, error) {
	f.mu.Lock()
	f.seen = append(f.seen, sdk.ScoreInput{Key: in.Key, Config: in.Config, Envelope: in.Envelope})
	f.mu.Unlock()
	return f.res, f.err
}

const suiteText = `servers:
  local:
    command: ["./server"]
scorers:
  - name: vendor
    type: exec
    command: ["./score"]
    cwd: rel/dir
    env:
      VENDOR_API_KEY: ${VENDOR_API_KEY}
  - name: hosted
    type: braintrust
evals:
  - name: a
    server: local
    prompt: "What is 2+2?"
    response: "4"
    scorer: vendor
  - name: b
    server: local
    prompt: p
    response: r
    scorer: hosted
`

const apiKey = "vk-secret-0123456789"

// load writes suiteText and loads it.
func load(t *testing.T) *config.Suite {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.yml")
	if err := os.WriteFile(path, []byte(suiteText), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := config.LoadWith(path, config.Options{LookupEnv: func(k string) (string, bool) {
		if k == "VENDOR_API_KEY" {
			return apiKey, true
		}
		return "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// setup serves fake as the exec scorer type in-process, with a registry
// built from its manifest on disk.
func setup(t *testing.T, fake *fakeScorer) (*plugin.Registry, *plugin.Host) {
	t.Helper()
	p := &sdk.Plugin{Name: "exec", Version: "0.1.0", Scorers: map[string]sdk.Scorer{"exec": fake}}
	dir := t.TempDir()
	raw, err := inproc.Found(p).Manifest.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "exec"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "exec", plugin.ManifestFile), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	reg := plugin.NewRegistry([]plugin.Source{{Dir: dir}})
	l := inproc.New(p)
	h := plugin.NewHost(l, plugin.HostOptions{CallTimeout: 30 * time.Second})
	t.Cleanup(func() { h.Close(); l.Close() })
	return reg, h
}

func TestResolveUnknownType(t *testing.T) {
	s := load(t)
	reg, _ := setup(t, &fakeScorer{})
	_, err := Resolve(reg, s, "hosted")
	if !errors.Is(err, ErrTypeUnavailable) {
		t.Fatalf("err = %v, want ErrTypeUnavailable", err)
	}
	var ce *config.Error
	if !errors.As(err, &ce) || ce.Line != 12 || !strings.HasSuffix(ce.File, "suite.yml") {
		t.Fatalf("err = %#v, want a config.Error at suite.yml line 12", err)
	}
	for _, want := range []string{"scorer type 'braintrust' not available in this build", "suite.yml:12", "available scorer types: [exec]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestResolveUsedReportsEveryProblem(t *testing.T) {
	s := load(t)
	reg, _ := setup(t, &fakeScorer{})
	got, err := ResolveUsed(reg, s)
	if !errors.Is(err, ErrTypeUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if len(got) != 1 || got["vendor"] == nil || got["vendor"].Plugin.Manifest.Name != "exec" {
		t.Errorf("resolved %v, want only vendor on plugin exec", got)
	}
	if _, err := Resolve(reg, s, "nope"); !errors.Is(err, ErrUnknownScorer) {
		t.Errorf("unknown name: err = %v", err)
	}
}

func TestScoreBuildsTheEval(t *testing.T) {
	s := load(t)
	fake := &fakeScorer{res: sdk.ScoreResult{Verdict: "pass", Score: ptr(0.9), Reasoning: "matches; key " + apiKey}}
	reg, host := setup(t, fake)
	sc, err := Resolve(reg, s, "vendor")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := sc.Score(context.Background(), host, Input{Input: "What is 2+2?", Output: "4", Criteria: "correct",
		Metadata: map[string]any{"eval": "a"}, Candidate: "response", Threshold: 0.7})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Form != "scorer" || ev.Scorer != "vendor" || !ev.Passed || ev.Score != 0.9 || ev.Calls != 1 ||
		ev.CostUSD != nil || ev.Candidate != "response" || ev.Prompt != "What is 2+2?" || ev.Response != "4" || ev.Threshold != 0.7 {
		t.Errorf("eval = %+v", ev)
	}
	if strings.Contains(ev.Reason, apiKey) || !strings.Contains(ev.Reason, "matches; key ") {
		t.Errorf("reason %q: want the key masked", ev.Reason)
	}
	if len(fake.seen) != 1 {
		t.Fatalf("scorer called %d times", len(fake.seen))
	}
	var env map[string]any
	if err := json.Unmarshal(fake.seen[0].Envelope, &env); err != nil {
		t.Fatal(err)
	}
	if env["input"] != "What is 2+2?" || env["output"] != "4" || env["criteria"] != "correct" || env["metadata"].(map[string]any)["eval"] != "a" || len(env) != 4 {
		t.Errorf("envelope = %v", env)
	}
	var cfg struct {
		Cwd       string            `json:"cwd"`
		Env       map[string]string `json:"env"`
		TimeoutMS int               `json:"timeout_ms"`
	}
	if err := json.Unmarshal(fake.seen[0].Config, &cfg); err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(cfg.Cwd) || !strings.HasSuffix(cfg.Cwd, filepath.Join("rel", "dir")) || cfg.Env["VENDOR_API_KEY"] != apiKey || cfg.TimeoutMS != 30000 {
		t.Errorf("config = %+v", cfg)
	}
	key1, _ := sc.CacheKey(Input{Input: "q", Output: "a"})
	key2, _ := sc.CacheKey(Input{Input: "q", Output: "b"})
	if string(key1) == string(key2) {
		t.Errorf("cache keys of different candidates are equal")
	}
}

func TestScoreErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		fake *fakeScorer
		want error
		frag string
	}{
		{"plugin error", &fakeScorer{err: fmt.Errorf("grader exited with status 3; stderr: bad key %s", apiKey)}, plugin.ErrScoreFailed, "status 3"},
		{"bad verdict", &fakeScorer{res: sdk.ScoreResult{Verdict: "maybe", Score: ptr(0.5)}}, ErrBadVerdict, `verdict "maybe"`},
		{"no verdict", &fakeScorer{res: sdk.ScoreResult{Score: ptr(0.5)}}, ErrBadVerdict, "no verdict"},
		{"no score", &fakeScorer{res: sdk.ScoreResult{Verdict: "fail"}}, ErrBadVerdict, "no score"},
		{"score out of range", &fakeScorer{res: sdk.ScoreResult{Verdict: "fail", Score: ptr(7)}}, ErrBadVerdict, "outside 0..1"},
		{"negative cost", &fakeScorer{res: sdk.ScoreResult{Verdict: "fail", Score: ptr(0), CostUSD: ptr(-1)}}, ErrBadVerdict, "cost_usd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := load(t)
			reg, host := setup(t, tc.fake)
			sc, err := Resolve(reg, s, "vendor")
			if err != nil {
				t.Fatal(err)
			}
			_, err = sc.Score(context.Background(), host, Input{Input: "q", Output: "a"})
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.frag) || !strings.Contains(err.Error(), `scorer "vendor"`) {
				t.Errorf("err = %v, want %v mentioning %q", err, tc.want, tc.frag)
			}
			if err != nil && strings.Contains(err.Error(), apiKey) {
				t.Errorf("error shows the key: %v", err)
			}
		})
	}
}

func TestCostPassesThrough(t *testing.T) {
	s := load(t)
	reg, host := setup(t, &fakeScorer{res: sdk.ScoreResult{Verdict: "FAIL", Score: ptr(0.2), CostUSD: ptr(0.003)}})
	sc, err := Resolve(reg, s, "vendor")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := sc.Score(context.Background(), host, Input{Input: "q", Output: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Passed || ev.CostUSD == nil || *ev.CostUSD != 0.003 {
		t.Errorf("eval = %+v", ev)
	}
}

func ptr(v float64) *float64 { return &v }

func TestInputFor(t *testing.T) {
	s := load(t)
	tree := `servers:
  local:
    command: ["./server"]
rubrics:
  weighted:
    criteria:
      - {name: cites, description: "Cites a source.", weight: 2, required: true}
      - {name: polite, description: "Is polite."}
scorers:
  - {name: vendor, type: exec, command: ["./score"]}
evals:
  - name: by ref
    server: local
    prompt: p
    response: r
    rubric: {ref: weighted, threshold: 0.9}
    scorer: vendor
  - name: by tree
    server: local
    prompt: p
    response: r
    scorer: vendor
    rubric:
      tree:
        ask: "Is it sunny?"
        yes: {score: 1, reason: sunny}
        no: {score: 0, reason: not sunny}
`
	path := filepath.Join(t.TempDir(), "tree.yml")
	if err := os.WriteFile(path, []byte(tree), 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	in := InputFor(s, s.Evals[0], "4", "response")
	if in.Input != "What is 2+2?" || in.Output != "4" || in.Criteria != nil || in.Threshold != 0.7 ||
		in.Metadata["eval"] != "a" || in.Metadata["server"] != "local" || in.Metadata["suite"] != s.Evals[0].Pos.File {
		t.Errorf("no rubric: %+v", in)
	}
	in = InputFor(s2, s2.Evals[0], "r", "agent")
	got, _ := json.Marshal(in.Criteria)
	if string(got) != `[{"description":"Cites a source.","name":"cites","required":true,"weight":2},{"description":"Is polite.","name":"polite","weight":1}]` || in.Threshold != 0.9 {
		t.Errorf("ref criteria = %s threshold %v", got, in.Threshold)
	}
	got, _ = json.Marshal(InputFor(s2, s2.Evals[1], "r", "agent").Criteria)
	if string(got) != `{"ask":"Is it sunny?","no":{"reason":"not sunny","score":0},"yes":{"reason":"sunny","score":1}}` {
		t.Errorf("tree criteria = %s", got)
	}
}

func TestLongTextsAreBounded(t *testing.T) {
	s := load(t)
	long := strings.Repeat("é", 20000)
	reg, host := setup(t, &fakeScorer{res: sdk.ScoreResult{Verdict: "pass", Score: ptr(1), Reasoning: long}})
	sc, err := Resolve(reg, s, "vendor")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := sc.Score(context.Background(), host, Input{Input: "q", Output: long})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Reason) > maxReason+64 || len(ev.Response) > maxShown+64 || !strings.Contains(ev.Response, "more bytes)") || !utf8.ValidString(ev.Reason) {
		t.Errorf("reason %d bytes, response %d bytes", len(ev.Reason), len(ev.Response))
	}
}
