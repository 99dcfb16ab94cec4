package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFiles writes files (name to content) into a new directory and
// returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// envOptions reads env instead of the process environment.
func envOptions(env map[string]string) Options {
	return Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
}

// TestVariablePrecedence checks the order: process environment, dotenv
// files (.env beside the suite, then --env-file in order), a from_env
// default, a literal value.
func TestVariablePrecedence(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"suite.yml": `servers: {s: {command: [x]}}
variables:
  lit: {value: from-value}
  lit_env: {value: from-value}
  lit_dotenv: {value: from-value}
  fe: {from_env: FE_SRC, default: from-default}
  fe_unset: {from_env: NOT_SET_ANYWHERE, default: from-default}
  fe_dotenv: {from_env: DOT_SRC, default: from-default}
  fe_flagfile: {from_env: FLAG_SRC}
  fe_none: {from_env: NOT_SET_ANYWHERE}
tools:
  - name: t
    server: s
    tool: t
    args:
      all: "${lit} ${lit_env} ${lit_dotenv} ${fe} ${fe_unset} ${fe_dotenv} ${fe_flagfile} ${fe_none}"
      direct: "$HOME_ISH ${DOT_ONLY} ${FLAG_ONLY}"
`,
		".env":       "lit_dotenv=from-dotenv\nDOT_SRC=dot-src\nDOT_ONLY=dot-only\nFLAG_ONLY=overridden-by-flag\n",
		"extra.env":  "FLAG_SRC=flag-src\nFLAG_ONLY=from-flag-file\n",
		"extra2.env": "FLAG_ONLY=from-second-flag-file\n",
	})
	opts := envOptions(map[string]string{"lit_env": "from-env", "FE_SRC": "fe-src", "HOME_ISH": "/home/x", "lit_dotenv": ""})
	opts.EnvFiles = []string{filepath.Join(dir, "extra.env"), filepath.Join(dir, "extra2.env")}
	s, err := LoadWith(filepath.Join(dir, "suite.yml"), opts)
	if err != nil {
		t.Fatal(err)
	}
	var args map[string]string
	if err := json.Unmarshal(s.Tools[0].Args, &args); err != nil {
		t.Fatal(err)
	}
	// lit_dotenv is set, to "", in the environment: the environment wins.
	if want := "from-value from-env  fe-src from-default dot-src flag-src "; args["all"] != want {
		t.Errorf("all = %q, want %q", args["all"], want)
	}
	if want := "/home/x dot-only from-second-flag-file"; args["direct"] != want {
		t.Errorf("direct = %q, want %q", args["direct"], want)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].Msg, "fe_none (") {
		t.Errorf("warnings = %v, want one naming fe_none", s.Warnings)
	}
	byName := map[string]*Variable{}
	for _, v := range s.Variables {
		byName[v.Name] = v
	}
	if v := byName["fe_none"]; !v.Unresolved || v.Resolved != "" {
		t.Errorf("fe_none = %+v", v)
	}
	if v, ok := s.LookupEnv("FLAG_SRC"); !ok || v != "flag-src" {
		t.Errorf("LookupEnv(FLAG_SRC) = %q, %v", v, ok)
	}
}

// TestUnresolvedWarningAndStrict checks that unresolved names are listed
// in one warning, and become located errors under strict variables (the
// option or MCPTEST_STRICT_VARS=1).
func TestUnresolvedWarningAndStrict(t *testing.T) {
	src := "servers: {s: {command: [x]}}\ntools:\n  - name: t\n    server: s\n    tool: t\n    args: {a: \"${ACCOUNT_I}\", b: \"$OTHER\", c: \"${ACCOUNT_I}\", d: \"${OPTIONAL:-}\"}\n"
	s, err := loadBytesWith("w.yml", []byte(src), envOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 {
		t.Fatalf("warnings = %v", s.Warnings)
	}
	w := s.Warnings[0].Error()
	if !strings.Contains(w, "ACCOUNT_I (w.yml:6:15), OTHER (w.yml:6:34)") || !strings.Contains(w, StrictVarsEnv) {
		t.Errorf("warning = %s", w)
	}
	for _, opts := range []Options{
		{LookupEnv: envOptions(nil).LookupEnv, StrictVars: true},
		envOptions(map[string]string{StrictVarsEnv: "1"}),
	} {
		_, err := loadBytesWith("w.yml", []byte(src), opts)
		got := asErrors(err)
		if len(got) != 3 || got[0].Error() != `w.yml:6:15: /tools/0/args/a: unresolved variable ACCOUNT_I (MCPTEST_STRICT_VARS=1 makes unresolved variables errors; set ACCOUNT_I or write ${ACCOUNT_I:-default})` ||
			!strings.Contains(got[1].Error(), "6:34: /tools/0/args/b: unresolved variable OTHER") {
			t.Errorf("strict errors = %v", err)
		}
	}
}

func TestRequiredVariableNamesTheField(t *testing.T) {
	src := "servers: {s: {url: \"https://x.example.com\", headers: {X-Token: \"${API_TOKEN:?export API_TOKEN first}\"}}}\n"
	_, err := loadBytesWith("r.yml", []byte(src), envOptions(nil))
	want := `r.yml:1:64: /servers/s/headers/X-Token: variable API_TOKEN is required here (${API_TOKEN:?}) but has no value (export API_TOKEN first)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %s", err, want)
	}
}

// TestInterpolationScope checks which strings are interpolated: values
// everywhere, but not keys, variable declarations or import paths.
func TestInterpolationScope(t *testing.T) {
	src := `servers:
  s:
    command: ["./srv", "--user=${USER_X}"]
    env: {"${KEY_NOT_EXPANDED}": "$USER_X"}
variables:
  lit: {value: "${NOT_EXPANDED_EITHER}"}
tools:
  - name: "test for ${USER_X}"
    server: s
    tool: t
    args: {n: 5, s: "${lit}"}
    expect:
      - target: result
        matcher: {contains: "${USER_X}"}
`
	s, err := loadBytesWith("i.yml", []byte(src), envOptions(map[string]string{"USER_X": "ada"}))
	if err != nil {
		t.Fatal(err)
	}
	srv := s.Servers["s"]
	if srv.Command[1] != "--user=ada" || srv.Env["${KEY_NOT_EXPANDED}"] != "ada" {
		t.Errorf("server = %+v", srv)
	}
	tt := s.Tools[0]
	if tt.Name != "test for ada" || string(tt.Args) != `{"n":5,"s":"${NOT_EXPANDED_EITHER}"}` ||
		string(tt.Expect[0].Matcher.Arg) != `"ada"` {
		t.Errorf("tool = %q %s %s", tt.Name, tt.Args, tt.Expect[0].Matcher.Arg)
	}
}

// TestSecretsCollected checks that the values of credentials read from the
// environment (never their names) are listed for redaction.
func TestSecretsCollected(t *testing.T) {
	src := `servers:
  a: {url: "https://a.example.com", auth: {bearer_token_env: TOKEN_A}}
  b:
    url: "https://b.example.com"
    auth: {oauth: {client_id_env: CID, authorization_url: "https://o.example.com/a", token_url: "https://o.example.com/t"}}
    headers: {X-Key: {env: HKEY}, X-Plain: "${PLAIN}"}
providers:
  p: {type: openai, base_url: "https://p.example.com", api_key_env: PKEY}
`
	dir := writeFiles(t, map[string]string{"s.yml": src, ".env": "HKEY=header-from-dotenv\n"})
	env := map[string]string{"TOKEN_A": "bearer-secret", "CID": "client-id-x", "CID_SECRET": "client-secret-x",
		"PKEY": "provider-key", "PLAIN": "not-a-secret", "ANTHROPIC_API_KEY": "anthropic-key"}
	s, err := LoadWith(filepath.Join(dir, "s.yml"), envOptions(env))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"anthropic-key", "bearer-secret", "client-id-x", "client-secret-x", "header-from-dotenv", "provider-key"}
	if !slices.Equal(s.Secrets, want) {
		t.Errorf("Secrets = %v, want %v", s.Secrets, want)
	}
}

// TestAliasLoopsFail checks that values containing themselves through
// aliases, or aliases that multiply, fail instead of hanging.
func TestAliasLoopsFail(t *testing.T) {
	base := "servers: {s: {command: [x]}}\n"
	cases := map[string]string{
		"matcher": base + "tools: [{name: t, server: s, tool: t, expect: [{target: r, matcher: &m {not: *m}}]}]\n",
		"tree":    base + "evals: [{name: e, server: s, prompt: p, rubric: {tree: &t {ask: q, yes: *t, no: {score: 0}}}}]\n",
	}
	// Each assertion's matcher doubles the previous one: 2^40 matchers
	// without a bound.
	var b strings.Builder
	b.WriteString(base + "tools:\n  - name: t\n    server: s\n    tool: t\n    expect:\n")
	b.WriteString("      - {target: r, matcher: &m0 {exact: 1}}\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "      - {target: r, matcher: &m%d {allOf: [*m%d, *m%d]}}\n", i, i-1, i-1)
	}
	cases["bomb"] = b.String()
	wants := map[string]string{"matcher": "alias *m makes a value contain itself", "tree": "alias *t makes a value contain itself",
		"bomb": "aliases expand to more than 10000 nested values"}
	for name, src := range cases {
		_, err := loadBytesWith(name+".yml", []byte(src), envOptions(nil))
		if err == nil || !strings.Contains(err.Error(), wants[name]) {
			t.Errorf("%s: error = %v, want %q", name, err, wants[name])
		}
	}
}

func TestMatcherArgumentsKeepShortDollarForms(t *testing.T) {
	t.Setenv("MCPTEST_TEST_DEFS", "nope")
	path := filepath.Join(t.TempDir(), "s.yml")
	text := `servers:
  s:
    command: ["x"]
variables:
  who: {value: "Ada"}
tools:
  - name: schema refs survive
    server: s
    tool: t
    args: {name: "$who"}
    expect:
      - target: result
        matcher:
          schema:
            $defs: {id: {type: string}}
            properties: {id: {$ref: "#/$defs/id"}, name: {const: "${who}"}}
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	tt := s.Tools[0]
	if string(tt.Args) != `{"name":"Ada"}` {
		t.Errorf("args = %s: $who should expand outside matchers", tt.Args)
	}
	arg := string(tt.Expect[0].Matcher.Arg)
	if !strings.Contains(arg, `"#/$defs/id"`) || !strings.Contains(arg, `"const":"Ada"`) {
		t.Errorf("matcher argument = %s: $defs must stay, ${who} must expand", arg)
	}
}
