package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// sloppyServer is the --server value of the test server whose definitions
// break lint rules on purpose.
func sloppyServer(t *testing.T) string {
	_, err := exec.LookPath("node")
	need(t, "node", err == nil)
	return "node " + filepath.Join(root, "e2e/testdata/toolkit/sloppy-server.js")
}

// TestLintSloppyServer lints a server with broken definitions: MUST
// findings fail the run, SHOULD and MAY ones are warnings, each with its
// rule id and the path of the field; the SARIF log lists the rules and
// passes the SARIF multitool's validation; --strict fails on warnings.
func TestLintSloppyServer(t *testing.T) {
	dir := t.TempDir()
	out, sarif := filepath.Join(dir, "lint.json"), filepath.Join(dir, "lint.sarif")
	r := mcptest(t, "lint", "--server", sloppyServer(t), "--reporter", "json="+out, "--reporter", "sarif="+sarif)
	if r.code != 1 {
		t.Fatalf("want exit 1 (MUST findings):\n%s", r)
	}
	run, tests := toolkitRun(t, out)
	want := map[string]report.Status{
		"lint/duplicate-name/tool/ok_tool/4":                    report.StatusFailed,
		"lint/input-schema-not-object/tool/noschema":            report.StatusFailed,
		"lint/tool-name-invalid/tool/bad name!":                 report.StatusWarned,
		"lint/description-useless/tool/bad name!":               report.StatusWarned,
		"lint/description-missing/tool/untyped":                 report.StatusWarned,
		"lint/required-not-in-properties/tool/untyped/ghost":    report.StatusWarned,
		"lint/parameter-untyped/tool/untyped/free":              report.StatusWarned,
		"lint/enum-without-type/tool/untyped/mode":              report.StatusWarned,
		"lint/description-missing/prompt/summary":               report.StatusWarned,
		"lint/prompt-argument-undescribed/prompt/summary/topic": report.StatusWarned,
		"lint/resource-mime-type-missing/resource/a":            report.StatusWarned,
	}
	for id, st := range want {
		tr, ok := tests[id]
		if !ok || tr.Status != st || tr.Check == nil || !strings.HasPrefix(id, tr.Check.ID+"/") || tr.Assertions[0].Target == "" {
			t.Errorf("%s: want %s with its rule and path, got %+v", id, st, tr)
		}
	}
	if run.Summary.Failed != 2 || run.Summary.Warned < 9 {
		t.Errorf("summary %+v", run.Summary)
	}
	if got := tests["lint/required-not-in-properties/tool/untyped/ghost"].Assertions[0].Target; got != "tools[2].inputSchema.required" {
		t.Errorf("the finding should locate the field, got %q", got)
	}
	raw, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID, Name, HelpURI string } `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("sarif: %v", err)
	}
	rules := map[string]bool{}
	for _, rule := range log.Runs[0].Tool.Driver.Rules {
		rules[rule.ID] = true
		// Lint findings are lint rules, named by their own ids, not
		// compliance checks.
		if strings.HasPrefix(rule.ID, "lint/") && (!strings.HasPrefix(rule.Name, "Lint") || !strings.Contains(rule.HelpURI, "toolkit.md#lint")) {
			t.Errorf("SARIF rule %s is named %q with help %q", rule.ID, rule.Name, rule.HelpURI)
		}
	}
	for _, id := range []string{"lint/duplicate-name", "lint/parameter-untyped", "lint/resource-mime-type-missing"} {
		if !rules[id] {
			t.Errorf("SARIF rules lack %s: %v", id, rules)
		}
	}
	levels := map[string]string{}
	for _, res := range log.Runs[0].Results {
		levels[res.RuleID] = res.Level
	}
	if levels["lint/duplicate-name"] != "error" || levels["lint/parameter-untyped"] != "warning" {
		t.Errorf("SARIF levels: %v", levels)
	}
	multitoolValidate(t, "Sarif;Gh", map[string]string{"lint": string(raw)})

	if r := mcptest(t, "lint", "--server", sloppyServer(t), "--strict", "--reporter", "json="+out); r.code != 1 {
		t.Fatalf("--strict: want exit 1:\n%s", r)
	}
	if run, _ := toolkitRun(t, out); run.Summary.Warned != 0 || run.Summary.Failed < 11 {
		t.Errorf("--strict should fail every finding: %+v", run.Summary)
	}
}

// TestLintRealServers lints the demo and the npm interop servers: they
// break no MUST or SHOULD rule, so the run passes with MAY warnings.
func TestLintRealServers(t *testing.T) {
	servers := map[string]string{
		"demo":       demoServer(),
		"everything": "node " + npmServer(t, "server-everything"),
		"filesystem": "node " + npmServer(t, "server-filesystem") + " " + t.TempDir(),
		"memory":     "node " + npmServer(t, "server-memory"),
	}
	for name, srv := range servers {
		out := filepath.Join(t.TempDir(), name+".json")
		r := mcptestEnv(t, []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")}, "lint", "--server", srv, "--reporter", "json="+out)
		if r.code != 0 {
			t.Errorf("%s: want exit 0:\n%s", name, r)
			continue
		}
		run, _ := toolkitRun(t, out)
		if run.Summary.Failed != 0 || run.Summary.Total == 0 || run.Servers[0].ServerName == "" {
			t.Errorf("%s: summary %+v servers %+v", name, run.Summary, run.Servers)
		}
		for _, tr := range run.Tests {
			if tr.Status == report.StatusWarned && tr.Check.Severity == "MUST" {
				t.Errorf("%s: a MUST finding shown as a warning: %s", name, tr.ID)
			}
		}
	}
	if r := mcptest(t, "lint", "--rules"); r.code != 0 || !strings.Contains(r.stdout, "lint/duplicate-name") {
		t.Errorf("--rules:\n%s", r)
	}
}
