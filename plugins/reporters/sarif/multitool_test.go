package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/plugins/reporters/internal/spans/spanstest"
	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// These tests read our SARIF with Microsoft's SARIF multitool (npm
// @microsoft/sarif-multitool, whose Linux build comes in
// @microsoft/sarif-multitool-linux), installed by .ci/run under .ci/npm.
// Without it they fail in CI and are skipped elsewhere.

// azureEnv is what an Azure Pipelines agent exports to a job's steps,
// with made-up values of the right shapes.
var azureEnv = map[string]string{
	"TF_BUILD":             "True",
	"SYSTEM_COLLECTIONURI": "https://dev.azure.com/contoso/",
	"SYSTEM_TEAMPROJECTID": "5f0c6e7a-9d55-4a43-8d8b-0c1e2f3a4b5c",
	"BUILD_DEFINITIONID":   "17",
	"BUILD_DEFINITIONNAME": "mcp-tests",
	"BUILD_BUILDID":        "4242",
	"SYSTEM_PHASEID":       "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
	"SYSTEM_PHASENAME":     "Test",
	"BUILD_SOURCEBRANCH":   "refs/heads/main",
}

// setEnv sets env for the test (the reporter runs in-process here) and
// clears the Azure variables it does not set.
func setEnv(t *testing.T, env map[string]string) {
	for k := range azureEnv {
		t.Setenv(k, env[k])
	}
}

// multitool returns the multitool binary, or stops the test.
func multitool(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the multitool npm package is used here on linux/amd64 only")
	}
	bin := filepath.Join(spanstest.RepoRoot(t), ".ci", "npm", "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	_, err := os.Stat(bin)
	spanstest.Need(t, "npm package @microsoft/sarif-multitool-linux", err == nil)
	return bin
}

// finding is one result of the multitool's own SARIF log.
type finding struct {
	RuleID  string `json:"ruleId"`
	Level   string `json:"level"`
	Message struct {
		Arguments []string `json:"arguments"`
	} `json:"message"`
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
		} `json:"physicalLocation"`
	} `json:"locations"`
}

// runMultitool runs `validate` with the given rule kind ("" for the
// default rules) on the logs, each in a file named for its key (one run
// of the tool checks them all: it takes seconds to start), and returns
// the SARIF log the tool wrote about them. .NET runs without ICU
// (invariant globalization), so the tool needs no libicu.
func runMultitool(t *testing.T, kind string, logs map[string]string) []byte {
	t.Helper()
	bin := multitool(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "multitool-result.json")
	args := []string{"validate"}
	for name, log := range logs {
		in := filepath.Join(dir, name+".sarif")
		if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, in)
	}
	args = append(args, "--config", filepath.Join("testdata", "multitool.xml"),
		"--output", out, "--log", "ForceOverwrite", "--level", "Error;Warning;Note")
	if kind != "" {
		args = append(args, "--rule-kind", kind)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1", "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	console, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("multitool validate (%s): %v\n%s", kindName(kind), err, console)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the multitool wrote no log: %v\n%s", err, console)
	}
	return raw
}

// validate runs the multitool on the logs and fails the test on any error
// or warning it reports (notes are suggestions, such as message strings
// for localisation, and pass).
func validate(t *testing.T, kind string, logs map[string]string) {
	t.Helper()
	raw := runMultitool(t, kind, logs)
	var res struct {
		Runs []struct {
			Results     []finding `json:"results"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Runs) != 1 {
		t.Fatalf("the multitool's log is unreadable (%v):\n%s", err, raw)
	}
	if inv := res.Runs[0].Invocations; len(inv) == 0 || !inv[0].ExecutionSuccessful {
		t.Errorf("the multitool's analysis did not complete:\n%s", raw)
	}
	for _, f := range res.Runs[0].Results {
		// A result without a level is a warning (SARIF's default).
		if f.Level == "" || f.Level == "error" || f.Level == "warning" {
			file := ""
			if len(f.Locations) > 0 {
				file = filepath.Base(f.Locations[0].PhysicalLocation.ArtifactLocation.URI)
			}
			t.Errorf("multitool (%s) on %s: %s %s %v", kindName(kind), file, f.Level, f.RuleID, f.Message.Arguments)
		}
	}
}

// kindName names a rule kind in messages.
func kindName(kind string) string {
	if kind == "" {
		return "default rules"
	}
	return "--rule-kind " + kind
}

// runs are the reports every rule kind must accept.
func multitoolRuns() map[string]*report.Run {
	passing := &report.Run{RunID: "ok", Tool: report.ToolInfo{Name: "mcptest", Version: "1.2.3"},
		Tests: []report.Test{{ID: "c::J01", Name: "J01", File: "c.yml", Line: 1, Status: report.StatusPassed,
			Check: &report.Check{ID: "J01", Title: "ids match", Severity: "MUST"}}}}
	return map[string]*report.Run{"sample": reporttest.Sample(), "warning": spanstest.WarningRun(), "wildcard": spanstest.WildcardRun(), "passing": passing,
		"evals": reporttest.Evals(), "toolkit": toolkitRun()}
}

func TestMultitoolDefaultAndGitHubRules(t *testing.T) {
	setEnv(t, nil)
	logs := map[string]string{}
	for name, run := range multitoolRuns() {
		logs[name] = render(t, finished(run))
	}
	// "Sarif" is the default rules; one run of the tool checks both kinds.
	validate(t, "Sarif;Gh", logs)
}

// Azure DevOps ingests a log only inside a pipeline job, whose variables
// name the build; the reporter reads them.
func TestMultitoolAzureDevOpsRules(t *testing.T) {
	setEnv(t, azureEnv)
	logs := map[string]string{}
	for name, run := range multitoolRuns() {
		logs[name] = render(t, finished(run))
	}
	validate(t, "Ado", logs)
	got := decode(t, render(t, finished(spanstest.WarningRun())))
	want := "azuredevops/pipeline/build/contoso/5f0c6e7a-9d55-4a43-8d8b-0c1e2f3a4b5c/17/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/refs/heads/main/4242"
	if got.AutomationDetails == nil || got.AutomationDetails.ID != want || got.AutomationDetails.Properties[propPhaseName] != "Test" {
		t.Errorf("automationDetails = %+v", got.AutomationDetails)
	}
}

// The multitool is not vacuous: it reports what code scanning services
// refuse (here a rule without help or a name, and a run without
// automation details).
func TestMultitoolRejects(t *testing.T) {
	setEnv(t, nil)
	log := render(t, finished(spanstest.WarningRun()))
	var doc map[string]any
	if err := json.Unmarshal([]byte(log), &doc); err != nil {
		t.Fatal(err)
	}
	sarifRun := doc["runs"].([]any)[0].(map[string]any)
	delete(sarifRun, "automationDetails")
	rule := sarifRun["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)[0].(map[string]any)
	delete(rule, "help")
	delete(rule, "name")
	broken, _ := json.Marshal(doc)
	res := runMultitool(t, "Gh;Ado", map[string]string{"broken": string(broken)})
	for _, want := range []string{"GH2012", "GHAzDO1014", "GHAzDO2012"} {
		if !strings.Contains(string(res), `"ruleId": "`+want+`"`) {
			t.Errorf("the multitool did not report %s on a broken log:\n%s", want, res)
		}
	}
}
