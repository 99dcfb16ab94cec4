package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

// formats lists every bundled report format with the file it writes.
var formats = []string{"json", "junit", "sarif", "gitlab", "md", "html", "ndjson", "tap", "openinference", "badge", "pretty"}

// thirdParty is where the published third-party schemas live
// (testdata/thirdparty); MCPTEST_THIRDPARTY_SCHEMAS overrides it.
func thirdParty(t *testing.T) string {
	if d := os.Getenv("MCPTEST_THIRDPARTY_SCHEMAS"); d != "" {
		return d
	}
	return filepath.Join(root, "testdata", "thirdparty")
}

// need fails in CI and skips elsewhere when a consumer is missing.
func need(t *testing.T, what string, ok bool) bool {
	t.Helper()
	if ok {
		return true
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing; .ci/run installs it", what)
	}
	t.Skipf("%s is missing", what)
	return false
}

// renderAll writes every format for one run, through `mcptest run` or
// `mcptest report`, and returns the files by format.
func renderAll(t *testing.T, args []string, wantCode int) map[string]string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	cmd := append([]string{}, args[:1]...)
	for _, f := range formats {
		files[f] = filepath.Join(dir, "out."+f)
		flag := "--reporter"
		if args[0] == "report" {
			flag = "--format"
		}
		cmd = append(cmd, flag, f+"="+files[f])
	}
	cmd = append(cmd, args[1:]...)
	// The markdown reporter's job summary goes to $GITHUB_STEP_SUMMARY.
	files["step-summary"] = filepath.Join(dir, "step-summary.md")
	r := mcptestEnv(t, []string{"GITHUB_STEP_SUMMARY=" + files["step-summary"]}, cmd...)
	if r.code != wantCode {
		t.Fatalf("want exit %d:\n%s", wantCode, r)
	}
	return files
}

func validateJSONSchema(t *testing.T, schemaPath string, doc []byte) {
	t.Helper()
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatalf("compile %s: %v", schemaPath, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("does not validate against %s: %v", filepath.Base(schemaPath), err)
	}
}

// checkFormats validates each file with the consumer of its format and
// checks the counts agree with want.
func checkFormats(t *testing.T, files map[string]string, want report.Summary, names []string) {
	read := func(f string) []byte {
		b, err := os.ReadFile(files[f])
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Run("junit/xmllint", func(t *testing.T) {
		_, err := exec.LookPath("xmllint")
		need(t, "xmllint", err == nil)
		out, err := exec.Command("xmllint", "--noout", "--schema", filepath.Join(thirdParty(t), "junit-windyroad.xsd"), files["junit"]).CombinedOutput()
		if err != nil {
			t.Fatalf("xmllint: %v\n%s", err, out)
		}
	})
	t.Run("sarif/schema", func(t *testing.T) {
		validateJSONSchema(t, filepath.Join(thirdParty(t), "sarif-schema-2.1.0.json"), read("sarif"))
	})
	t.Run("gitlab/schema", func(t *testing.T) {
		validateJSONSchema(t, filepath.Join(root, "plugins/reporters/gitlab/testdata/codequality.schema.json"), read("gitlab"))
	})
	t.Run("openinference/schema", func(t *testing.T) {
		for _, line := range bytes.Split(bytes.TrimSpace(read("openinference")), []byte("\n")) {
			validateJSONSchema(t, filepath.Join(root, "plugins/reporters/openinference/testdata/span.schema.json"), line)
		}
	})
	t.Run("tap/tap-parser", func(t *testing.T) {
		mod := filepath.Join(root, ".ci/npm/node_modules/tap-parser")
		_, nodeErr := exec.LookPath("node")
		_, modErr := os.Stat(mod)
		need(t, "node and .ci/npm/node_modules/tap-parser", nodeErr == nil && modErr == nil)
		cmd := exec.Command("node", filepath.Join(root, "plugins/reporters/tap/testdata/parse-tap.cjs"), mod)
		cmd.Stdin = bytes.NewReader(read("tap"))
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tap-parser: %v", err)
		}
		var res struct {
			Extra    []string `json:"extra"`
			Complete struct {
				Count, Pass, Fail, Skip int
			} `json:"complete"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatal(err)
		}
		c := res.Complete
		if c.Count != want.Total || c.Skip != want.Skipped || c.Fail != want.Failed+want.Errored || len(res.Extra) > 0 {
			t.Errorf("tap-parser read %+v (extra %q), want %+v", c, res.Extra, want)
		}
	})
	t.Run("ndjson/events", func(t *testing.T) {
		sc := bufio.NewScanner(bytes.NewReader(read("ndjson")))
		sc.Buffer(nil, 64<<20)
		var last report.Event
		finished := 0
		for sc.Scan() {
			if err := json.Unmarshal(sc.Bytes(), &last); err != nil {
				t.Fatalf("line is not an event: %v", err)
			}
			if last.Type == report.EventTestFinished {
				finished++
			}
		}
		if last.Type != report.EventRunFinished || finished != want.Total {
			t.Errorf("ndjson: %d test_finished, last %s", finished, last.Type)
		}
	})
	t.Run("md/step-summary", func(t *testing.T) {
		if !bytes.Contains(read("step-summary"), []byte("|")) {
			t.Errorf("no job summary was appended to $GITHUB_STEP_SUMMARY")
		}
	})
	t.Run("md/goldmark", func(t *testing.T) {
		var html bytes.Buffer
		if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(read("md"), &html); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(html.String(), "<table>") {
			t.Errorf("markdown renders no table")
		}
	})
	t.Run("html/chromium", func(t *testing.T) {
		_, err := exec.LookPath("chromium")
		need(t, "chromium", err == nil)
		out, err := exec.Command("chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+files["html"]).Output()
		if err != nil {
			t.Fatalf("chromium: %v", err)
		}
		for _, n := range names {
			if !strings.Contains(string(out), n) {
				t.Errorf("the rendered page does not show %q", n)
			}
		}
	})
	t.Run("badge/fields", func(t *testing.T) {
		var b struct {
			SchemaVersion int    `json:"schemaVersion"`
			Label         string `json:"label"`
			Message       string `json:"message"`
		}
		if err := json.Unmarshal(read("badge"), &b); err != nil || b.SchemaVersion != 1 || b.Label == "" || b.Message == "" {
			t.Errorf("badge = %+v (%v)", b, err)
		}
	})
	t.Run("json/roundtrip", func(t *testing.T) {
		var r report.Run
		if err := json.Unmarshal(read("json"), &r); err != nil || r.Summary.Total != want.Total {
			t.Errorf("json summary %+v (%v)", r.Summary, err)
		}
	})
}

// TestEveryFormatFromALiveRun renders a real run with passes, failures and
// a crashed server in every bundled format at once.
func TestEveryFormatFromALiveRun(t *testing.T) {
	withCrash := strings.Replace(mixedSuite, "servers:\n", "servers:\n  fragile:\n    command: [\"DEMO\"]\n", 1) + `
  - name: the server crashes
    server: fragile
    tool: crash
`
	suite := writeSuite(t, withCrash)
	files := renderAll(t, []string{"run", suite}, 2)
	checkFormats(t, files, report.Summary{Total: 4, Passed: 1, Failed: 2, Errored: 1}, []string{"passes", "fails with a diff", "the server crashes"})
}

// TestEveryFormatFromASavedRun re-renders the SDK's sample run (skips,
// scores, compliance checks, hostile text, a plugin crash) through
// `mcptest report` in every format.
func TestEveryFormatFromASavedRun(t *testing.T) {
	run := reporttest.Sample()
	b, _ := json.MarshalIndent(run, "", "  ")
	saved := filepath.Join(t.TempDir(), "sample.json")
	os.WriteFile(saved, b, 0o644)
	files := renderAll(t, []string{"report", saved}, 0)
	checkFormats(t, files, run.Summary, []string{"echo passes", "scored", "not reached"})
}
