package e2e

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/mcptest/mcptest/internal/servertest"
)

// TestSecretsInEscapedFormsNeverReachOutput makes the demo echo the
// credentials back with --escape-json, so they arrive with "/" written as
// "\/" and é and 😀 as \u escapes (a surrogate pair for 😀), once in the
// structured content and once more in JSON text inside the text content.
// It records the run and writes every report format; no output, the
// cassette included, may hold either credential once every JSON, HTML and
// XML escape in it is decoded.
func TestSecretsInEscapedFormsNeverReachOutput(t *testing.T) {
	const token = "tok/3f9a-é-😀-SECRET-e2e"
	const apiKey = "key/ü\"q\"-SECRET-2"
	u, _ := servertest.StartURL(t, filepath.Join(binDir, "mcptest-demo-server"), nil, "--http", "127.0.0.1:0", "--escape-json")
	suite := writeSuite(t, `
servers:
  remote:
    url: "`+u+`"
    auth:
      bearer_token_env: MCPTEST_E2E_TOKEN
    headers:
      X-Api-Key:
        env: MCPTEST_E2E_KEY
      X-Plain: visible/é
tools:
  - name: headers come back
    server: remote
    tool: request_headers
    expect:
      - target: result.structuredContent.X-Plain[0]
        matcher:
          exact: "visible/é"
      - target: result.content[0].text
        matcher:
          exact: "force a failure that shows the actual value"
`)
	dir := t.TempDir()
	cassettes := filepath.Join(dir, "tapes")
	args := []string{"record", "--cassette-dir", cassettes}
	files := map[string]string{}
	for _, f := range formats {
		files[f] = filepath.Join(dir, "out."+f)
		args = append(args, "--reporter", f+"="+files[f])
	}
	args = append(args, "--reporter", "pretty", suite)
	r := mcptestEnv(t, []string{"MCPTEST_E2E_TOKEN=" + token, "MCPTEST_E2E_KEY=" + apiKey}, args...)
	if r.code != 1 {
		t.Fatalf("want exit 1 (one assertion fails on purpose):\n%s", r)
	}
	outputs := map[string]string{"stdout": r.stdout, "stderr": r.stderr}
	files["cassette"] = filepath.Join(cassettes, "remote.json")
	for f, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		outputs[f] = string(b)
	}
	// The echo happened, escaped as promised, and was masked, not lost.
	var rep struct {
		Tests []struct {
			Frames []struct {
				Data json.RawMessage `json:"data"`
			} `json:"frames"`
		} `json:"tests"`
	}
	if err := json.Unmarshal([]byte(outputs["json"]), &rep); err != nil || len(rep.Tests) != 1 {
		t.Fatalf("json report: %v\n%s", err, outputs["json"])
	}
	var raw strings.Builder
	for _, f := range rep.Tests[0].Frames {
		raw.Write(f.Data)
	}
	mustContain(t, "frames", raw.String(), `visible\/\u00e9`, `Bearer [REDACTED]`, `X-Api-Key`)
	mustContain(t, "cassette", outputs["cassette"], "Bearer [REDACTED]")
	for name, text := range outputs {
		plain := decodeEscapes(text)
		for _, secret := range []string{token, apiKey, "SECRET"} {
			if strings.Contains(plain, secret) {
				t.Errorf("%s holds %q (once unescaped)", name, secret)
			}
		}
	}
}

var (
	surrogatePair = regexp.MustCompile(`\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}`)
	uEscape       = regexp.MustCompile(`\\u[0-9a-fA-F]{4}`)
	shortEscapes  = strings.NewReplacer(`\/`, `/`, `\\`, `\`, `\"`, `"`)
)

// decodeEscapes undoes, as often as it changes anything, every JSON
// string escape and every HTML or XML character reference in text: what a
// reader of the output would see, however deep the nesting.
func decodeEscapes(text string) string {
	hex := func(s string) rune {
		v, _ := strconv.ParseUint(s, 16, 32)
		return rune(v)
	}
	for range 8 {
		prev := text
		text = surrogatePair.ReplaceAllStringFunc(text, func(m string) string {
			return string(utf16.DecodeRune(hex(m[2:6]), hex(m[8:12])))
		})
		text = uEscape.ReplaceAllStringFunc(text, func(m string) string { return string(hex(m[2:])) })
		text = html.UnescapeString(shortEscapes.Replace(text))
		if text == prev {
			break
		}
	}
	return text
}
