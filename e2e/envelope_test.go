package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/report"
)

// isErrorIdiomSuite is the spec's own idiom for "the tool succeeded",
// against server-everything, which leaves isError out of its results.
const isErrorIdiomSuite = `
servers:
  everything:
    command: ["node", "ENTRY", "stdio"]
defaultTest:
  timeout_ms: 20000
tools:
  - name: the spec idiom
    server: everything
    tool: echo
    args: {message: hi}
    expect:
      - target: result.isError
        matcher: {exact: false}
      - target: result
        matcher: {contains: {isError: false}}
      - target: result
        matcher: {cel: "!value.isError && value.isError == false"}
      - target: result
        matcher: {snapshot: echo-result}
  - name: a real isError stays true
    server: everything
    tool: get-sum
    args: {a: "forty"}
    expect:
      - target: result.isError
        matcher: {exact: true}
  - name: objects reach the matcher in the server's key order
    server: everything
    tool: get-structured-content
    args: {location: Chicago}
    expect:
      - target: result.structuredContent
        matcher: {exact: {temperature: 0}}
`

// TestIsErrorAbsentIsFalseAgainstServerEverything: a result without
// isError is read as isError: false by every kind of target (path, object
// subset, CEL, snapshot), while the wire frames and the report's copy of
// the response stay as the server sent them; and an object target reaches
// the matcher plugin with the server's key order.
func TestIsErrorAbsentIsFalseAgainstServerEverything(t *testing.T) {
	entry := npmServer(t, "server-everything")
	suite := writeSuite(t, strings.ReplaceAll(isErrorIdiomSuite, "ENTRY", entry))
	out := filepath.Join(t.TempDir(), "run.json")
	r := mcptest(t, "run", "--no-color", "--no-cache", "--wire", "all", "--reporter", "pretty", "--reporter", "json="+out, suite)
	if r.code != 1 {
		t.Fatalf("want exit 1 (one deliberate failure):\n%s", r)
	}
	run := readRun(t, out)
	byName := map[string]report.Test{}
	for _, tr := range run.Tests {
		byName[tr.Name] = tr
	}
	for _, name := range []string{"the spec idiom", "a real isError stays true"} {
		if tr := byName[name]; tr.Status != report.StatusPassed {
			t.Errorf("%s: %s %+v\n%s", name, tr.Status, tr.Assertions, r)
		}
	}
	// The snapshot recorded the normalised result.
	snap, err := os.ReadFile(filepath.Join(filepath.Dir(suite), "snapshots", "echo-result.json"))
	if err != nil || !strings.Contains(string(snap), `"isError": false`) {
		t.Errorf("snapshot (%v):\n%s", err, snap)
	}
	// The wire shows what the server sent: no isError.
	for _, f := range byName["the spec idiom"].Frames {
		if f.Direction == "recv" && strings.Contains(string(f.Data), "isError") {
			t.Errorf("a received frame has isError: %s", f.Data)
		}
	}
	// The failing exact shows the actual value as the plugin received it:
	// the server's key order (temperature, conditions, humidity), not
	// sorted.
	order := byName["objects reach the matcher in the server's key order"]
	if len(order.Assertions) != 1 {
		t.Fatalf("order test: %+v", order)
	}
	var failure struct {
		Actual json.RawMessage `json:"actual"`
	}
	if err := json.Unmarshal(order.Assertions[0].Failure, &failure); err != nil {
		t.Fatal(err)
	}
	want := `{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}`
	if got := compactJSON(t, failure.Actual); got != want {
		t.Errorf("the matcher received %s, want %s", got, want)
	}
}

// TestIsErrorAbsentIsFalseInBothEras: the demo server leaves isError out
// at both protocol revisions; the idiom holds at both, and a response
// transform sees the result as sent.
func TestIsErrorAbsentIsFalseInBothEras(t *testing.T) {
	r, run := runVersions(t, `
target_versions: ["2025-11-25", "2026-07-28"]
servers:
  remote:
    url: "URL"
tools:
  - name: idiom
    server: remote
    tool: echo
    args: {message: hi}
    expect:
      - target: result.isError
        matcher: {exact: false}
      - target: result
        matcher: {contains: {isError: false, content: [{text: hi}]}}
  - name: the transform reads what the server sent
    server: remote
    tool: echo
    args: {message: hi}
    transform:
      response: sed -e 's/.*isError.*/{"result":{"seen":true}}/'
    expect:
      - target: result.content[0].text
        matcher: {exact: hi}
      - target: result.isError
        matcher: {exact: false}
`)
	if r.code != 0 || run.Summary.Passed != 4 {
		t.Fatalf("want 4 passed:\n%s", r)
	}
}

// TestValuesKeepTheirLiteralForm: numbers reach a matcher plugin as
// written (1.0, 1e3, a 23-digit integer) and objects in their order, with
// the absent isError appended as false; the response transform prints
// them, as a server would.
func TestValuesKeepTheirLiteralForm(t *testing.T) {
	r, run := runVersions(t, `
servers:
  local:
    command: ["DEMO"]
tools:
  - name: literal
    server: local
    tool: echo
    args: {message: hi}
    transform:
      response: sed -e 's/.*/{"result":{"z":1.0,"a":1e3,"big":12345678901234567890123}}/'
    expect:
      - target: result
        matcher: {exact: {a: 0}}
      - target: result.big
        matcher: {exact: 12345678901234567890123}
`)
	if r.code != 1 || len(run.Tests) != 1 || len(run.Tests[0].Assertions) != 2 {
		t.Fatalf("want one failed test:\n%s", r)
	}
	a := run.Tests[0].Assertions
	var failure struct {
		Actual json.RawMessage `json:"actual"`
	}
	if err := json.Unmarshal(a[0].Failure, &failure); err != nil {
		t.Fatal(err)
	}
	if got := compactJSON(t, failure.Actual); got != `{"z":1.0,"a":1e3,"big":12345678901234567890123,"isError":false}` {
		t.Errorf("the matcher received %s", got)
	}
	if a[1].Status != report.StatusPassed {
		t.Errorf("big integer: %+v", a[1])
	}
}

// compactJSON drops white space from JSON text, keeping order and literals.
func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return b.String()
}
