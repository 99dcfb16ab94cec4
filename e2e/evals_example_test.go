package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/vendorfake"
)

// TestRecordRubricEvalExample re-records examples/cassettes/rubric-eval.json,
// the judge tape examples/rubric-eval.yml replays, against a local
// OpenAI-format fake: MCPTEST_RECORD_EXAMPLES=1 go test ./e2e -run
// TestRecordRubricEvalExample. Skipped otherwise (the tape is committed;
// TestEvalJudgeCassette runs the example from it).
func TestRecordRubricEvalExample(t *testing.T) {
	if os.Getenv("MCPTEST_RECORD_EXAMPLES") != "1" {
		t.Skip("set MCPTEST_RECORD_EXAMPLES=1 to re-record the example's judge tape")
	}
	oa := newJudgeFake(t, vendorfake.OpenAI, openAIJudgeKey,
		&judgeRule{needle: "politely refuse", replies: []string{verdict(0.95, "The answer declines plainly and politely.")}},
		&judgeRule{needle: "nothing is invented", replies: []string{verdict(0.9, "Only the rate-limit change is claimed.")}},
		&judgeRule{needle: "without filler", replies: []string{verdict(1, "One sentence, no padding.")}},
		&judgeRule{needle: "state a temperature", replies: []string{verdict(1, "It says 18C.")}})
	raw, err := os.ReadFile(filepath.Join(root, "examples", "rubric-eval.yml"))
	if err != nil {
		t.Fatal(err)
	}
	live := strings.Replace(string(raw), "cassette: examples/cassettes/rubric-eval.json", `command: ["DEMO"]`, 1)
	dir := t.TempDir()
	r := mcptestEnv(t, evalJudgeEnv(oa, nil), "record", "--evals", "--cassette-dir", dir, writeSuite(t, live))
	if r.code != 0 {
		t.Fatalf("record:\n%s", r)
	}
	tape, err := os.ReadFile(filepath.Join(dir, "demo.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "examples", "cassettes", "rubric-eval.json"), tape, 0o644); err != nil {
		t.Fatal(err)
	}
}
