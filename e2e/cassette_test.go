package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// verdicts reads a JSON report and returns "name: status[ kind]" per test,
// sorted.
func verdicts(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Tests []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
			Error  *struct {
				Kind    string `json:"kind"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(b, &run); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, x := range run.Tests {
		v := x.Name + ": " + x.Status
		if x.Error != nil {
			v += " " + x.Error.Kind
		}
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

const cassetteTests = `
tools:
  - name: add
    server: demo
    tool: add
    args: {a: 2, b: 3}
    expect:
      - target: "result.structuredContent.sum"
        matcher: {exact: 5}
  - name: echo twice a
    server: demo
    tool: echo
    args: {message: "same"}
    expect:
      - target: "result.content[0].text"
        matcher: {exact: "same"}
  - name: echo twice b
    server: demo
    tool: echo
    args: {message: "same"}
  - name: wrong expectation
    server: demo
    tool: echo
    args: {message: "hi"}
    expect:
      - target: "result.content[0].text"
        matcher: {exact: "bye"}
  - name: tool error
    server: demo
    tool: fail
  - name: unknown tool
    server: demo
    tool: no_such_tool
`

// TestCassetteRecordThenReplay records a suite against a copy of the demo
// server, deletes the copy, replays the cassette and expects the same
// verdicts; a request the cassette lacks errors with kind "cassette".
func TestCassetteRecordThenReplay(t *testing.T) {
	work := t.TempDir()
	demo := filepath.Join(work, "demo-server")
	b, err := os.ReadFile(filepath.Join(binDir, "mcptest-demo-server"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(demo, b, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		path := filepath.Join(work, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	live := write("live.yml", "servers:\n  demo:\n    command: [\""+demo+"\"]\n"+cassetteTests)

	r := mcptestIn(t, work, nil, "record", "--reporter", "json=live.json", "--reporter", "pretty", live)
	if r.code != 1 {
		t.Fatalf("record: want exit 1 (some tests fail on purpose):\n%s", r)
	}
	mustContain(t, "record stderr", r.stderr, "wrote cassettes/demo.json")
	cassette, err := os.ReadFile(filepath.Join(work, "cassettes", "demo.json"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "cassette", string(cassette), `"version": 1`, `"server": "demo"`, `"protocolVersion"`, `"serverInfo"`, `"no_such_tool"`)

	// Recording again overwrites the cassette with the same bytes.
	if r := mcptestIn(t, work, nil, "record", "--reporter", "json=again.json", live); r.code != 1 {
		t.Fatalf("second record:\n%s", r)
	}
	if again, _ := os.ReadFile(filepath.Join(work, "cassettes", "demo.json")); string(again) != string(cassette) {
		t.Errorf("recording twice gave different cassettes:\n%s\n---\n%s", cassette, again)
	}

	if err := os.Remove(demo); err != nil {
		t.Fatal(err)
	}
	replay := write("replay.yml", "servers:\n  demo:\n    cassette: ./cassettes/demo.json\n"+cassetteTests)
	r = mcptestIn(t, work, nil, "run", "--reporter", "json=replay.json", "--reporter", "pretty", replay)
	if r.code != 1 {
		t.Fatalf("replay: want exit 1:\n%s", r)
	}
	want, got := verdicts(t, filepath.Join(work, "live.json")), verdicts(t, filepath.Join(work, "replay.json"))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replay verdicts differ:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	mustContain(t, "verdicts", strings.Join(want, "\n"), "add: passed", "wrong expectation: failed", "unknown tool: failed rpc_error")

	// A request the cassette never saw errors, showing the request.
	extra := write("extra.yml", "servers:\n  demo:\n    cassette: ./cassettes/demo.json\n"+`
tools:
  - name: unrecorded
    server: demo
    tool: echo
    args: {message: "never recorded"}
`)
	r = mcptestIn(t, work, nil, "run", "--reporter", "json=extra.json", "--reporter", "pretty", extra)
	if r.code != 2 {
		t.Fatalf("unrecorded: want exit 2 (errored):\n%s", r)
	}
	if v := verdicts(t, filepath.Join(work, "extra.json")); len(v) != 1 || v[0] != "unrecorded: errored cassette" {
		t.Errorf("verdicts %v", v)
	}
	mustContain(t, "unrecorded output", r.stdout, "no recorded exchange matches", `"message":"never recorded"`)

	// A cassette that is not there fails the server's start.
	missing := write("missing.yml", "servers:\n  demo:\n    cassette: ./nowhere.json\n"+`
tools:
  - {name: t, server: demo, tool: echo, args: {message: x}}
`)
	if r := mcptestIn(t, work, nil, "run", missing); r.code != 2 || !strings.Contains(r.stdout+r.stderr, "nowhere.json") {
		t.Errorf("missing cassette:\n%s", r)
	}
}

// TestCassetteKeepsSecretsOut records a URL server that echoes the bearer
// token back and checks the cassette holds no trace of it; the replay,
// given the same credential, still matches and passes.
func TestCassetteKeepsSecretsOut(t *testing.T) {
	const token = "tok-cassette-SECRET-7b21"
	url := startHTTPDemo(t)
	work := t.TempDir()
	suite := func(server string) string {
		return "servers:\n  remote:\n" + server + `
tools:
  - name: headers
    server: remote
    tool: request_headers
    expect:
      - target: "result.content[0].text"
        matcher: {contains: "Bearer [REDACTED]"}
`
	}
	live := filepath.Join(work, "live.yml")
	_ = os.WriteFile(live, []byte(suite("    url: \""+url+"\"\n    auth:\n      bearer_token_env: MCPTEST_E2E_TOKEN\n")), 0o644)
	env := []string{"MCPTEST_E2E_TOKEN=" + token}
	r := mcptestIn(t, work, env, "record", "--cassette-dir", "tapes", live)
	if r.code != 0 {
		t.Fatalf("record:\n%s", r)
	}
	b, err := os.ReadFile(filepath.Join(work, "tapes", "remote.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), token) || strings.Contains(string(b), "SECRET") {
		t.Fatalf("the cassette contains the token:\n%s", b)
	}
	mustContain(t, "cassette", string(b), "Bearer [REDACTED]", `"transport": "streamable"`)

	replay := filepath.Join(work, "replay.yml")
	_ = os.WriteFile(replay, []byte(suite("    cassette: ./tapes/remote.json\n")), 0o644)
	if r := mcptestIn(t, work, env, "run", replay); r.code != 0 {
		t.Errorf("replay:\n%s", r)
	}
}

// cassetteFeatureTests capture what the server sends during their calls:
// progress, log messages and a sampling request the mock answers.
const cassetteFeatureTests = `
    client:
      sampling: {text: "canned reply", model: mock-model}
tools:
  - name: progress
    server: demo
    tool: progress
    args: {steps: 3}
    progress: true
    expect:
      - {target: progress.count, matcher: {exact: 3}}
      - {target: progress.monotonic, matcher: {exact: true}}
  - name: logs
    server: demo
    tool: log
    log_level: debug
    expect:
      - {target: logs.length, matcher: {exact: 8}}
  - name: sampling
    server: demo
    tool: sample
    args: {prompt: "What is 6 times 7?"}
    expect:
      - {target: result.structuredContent.text, matcher: {exact: "canned reply"}}
      - {target: "server_requests[0].method", matcher: {exact: "sampling/createMessage"}}
`

// TestCassetteReplaysWhatTheServerSent: a cassette keeps the notifications
// and requests the server sent during each call, so tests that capture
// them pass on replay as they did live.
func TestCassetteReplaysWhatTheServerSent(t *testing.T) {
	work := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(work, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	live := write("live.yml", "servers:\n  demo:\n    command: [\""+filepath.Join(binDir, "mcptest-demo-server")+"\"]"+cassetteFeatureTests)
	if r := mcptestIn(t, work, nil, "record", "--reporter", "json=live.json", live); r.code != 0 {
		t.Fatalf("record: want every test to pass:\n%s", r)
	}
	cassette, err := os.ReadFile(filepath.Join(work, "cassettes", "demo.json"))
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "cassette", string(cassette), `"messages"`, `"notifications/progress"`, `"notifications/message"`, `"sampling/createMessage"`)

	replay := write("replay.yml", "servers:\n  demo:\n    cassette: ./cassettes/demo.json"+cassetteFeatureTests)
	r := mcptestIn(t, work, nil, "run", "--reporter", "json=replay.json", "--reporter", "pretty", replay)
	if r.code != 0 {
		t.Fatalf("replay: want every test to pass:\n%s", r)
	}
	want, got := verdicts(t, filepath.Join(work, "live.json")), verdicts(t, filepath.Join(work, "replay.json"))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("replay verdicts differ:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}
