package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/servertest"
)

// mockSuite is examples/mock/weather-suite.yml with the mock's command
// made absolute, served over stdio by the built mcptest.
func mockSuite(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "examples", "mock", "weather-suite.yml"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(raw), `"./bin/mcptest"`, `"`+filepath.Join(binDir, "mcptest")+`"`)
	s = strings.ReplaceAll(s, `"examples/mock/weather.yml"`, `"`+filepath.Join(root, "examples", "mock", "weather.yml")+`"`)
	return writeSuite(t, s)
}

// TestMockStdio runs the example suite against `mcptest mock` named as
// an ordinary stdio server: templated text and structured content, a
// case answering with isError, a case answering with a JSON-RPC error,
// and a delayed tool.
func TestMockStdio(t *testing.T) {
	r := mcptest(t, "run", "--reporter", "pretty", mockSuite(t))
	if r.code != 0 {
		t.Fatalf("the mock suite should pass:\n%s", r)
	}
	mustContain(t, "output", r.stdout, "4 passed")
}

// TestMockHTTP serves the same manifest over Streamable HTTP and runs the
// suite against the URL, including a prompt, a resource and the
// sequence tool that alternates between success and isError.
func TestMockHTTP(t *testing.T) {
	url, _ := servertest.StartURL(t, filepath.Join(binDir, "mcptest"), nil, "mock", "--http", "127.0.0.1:0", filepath.Join(root, "examples", "mock", "weather.yml"))
	r := mcptest(t, "run", "--server-url", "weather="+url, mockSuite(t))
	if r.code != 0 {
		t.Fatalf("the mock suite over HTTP should pass:\n%s", r)
	}
	suite := writeSuite(t, `
servers:
  weather:
    url: "`+url+`"
resources:
  - name: stations
    server: weather
    uri: mock://stations
    expect:
      - target: result.contents[0].text
        matcher: {exact: "north, south"}
prompts:
  - name: brief
    server: weather
    prompt: brief
    args: {city: Oslo}
    expect:
      - target: result.messages[0].content.text
        matcher: {exact: "Brief me on the weather in Oslo."}
tools:
  - name: flaky first call
    server: weather
    tool: flaky
    expect:
      - target: result.isError
        matcher: {exact: false}
`)
	r = mcptest(t, "run", suite)
	if r.code != 0 {
		t.Fatalf("resources, prompts and the sequence over HTTP should pass:\n%s", r)
	}
}

// TestMockBadManifest: a manifest with an unknown field or a broken
// template is refused before serving, naming the file and line.
func TestMockBadManifest(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yml")
	if err := os.WriteFile(bad, []byte("tools:\n  - name: a\n    result: {text: ok}\n  - name: b\n    reslt: {text: typo}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcptest(t, "mock", "--check", bad)
	if r.code != 2 {
		t.Fatalf("want exit 2 for an unknown field:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "bad.yml", "line 5", "reslt")
	if err := os.WriteFile(bad, []byte("tools:\n  - name: a\n    result: {text: \"{{.args.x\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = mcptest(t, "mock", "--check", bad)
	if r.code != 2 {
		t.Fatalf("want exit 2 for a broken template:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "bad.yml", "line 2", "tools[0].result.text")
	r = mcptest(t, "mock", "--check", filepath.Join(root, "examples", "mock", "weather.yml"))
	if r.code != 0 {
		t.Fatalf("the example manifest should check:\n%s", r)
	}
	r = mcptest(t, "--help")
	mustContain(t, "help", r.stderr, "mock")
}
