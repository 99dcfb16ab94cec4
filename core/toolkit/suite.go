package toolkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// SuiteTest is one tool test of a suite the commands write (audit's
// starter suite, fuzz's regression tests, generate).
type SuiteTest struct {
	Name string
	Tool string
	// Arguments are written as the test's args (JSON, which is YAML).
	Arguments json.RawMessage
	// Comment, when set, is written above the test.
	Comment string
	// TimeoutMS, when set, is the test's timeout_ms.
	TimeoutMS int
	Expect    []Expectation
}

// Expectation is one expect entry: a target and a matcher, written as
// JSON flow mappings so any value survives exactly.
type Expectation struct {
	Target  string
	Matcher map[string]any
}

// SuiteServerName is the name written suites give the server.
const SuiteServerName = "server"

// WriteSuite writes a v1 suite for the target with the tests. header is
// written as comment lines at the top. perTest gives every test a fresh
// server (restart_policy: per_test), for tests of crashes and hangs that
// must not take the other tests down with them. Secrets never appear: headers read
// from the environment are written as {env: NAME}, and a bearer token as
// auth.bearer_token_env.
func WriteSuite(w io.Writer, t Target, header string, tests []SuiteTest, perTest bool) error {
	var b bytes.Buffer
	b.WriteString("# yaml-language-server: $schema=https://mcptest.dev/schemas/v1.json\n")
	for _, l := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	b.WriteString("servers:\n  " + SuiteServerName + ":\n")
	if t.URL != "" {
		fmt.Fprintf(&b, "    url: %s\n", q(t.URL))
		if len(t.Headers) > 0 {
			b.WriteString("    headers:\n")
			for _, h := range t.Headers {
				if h.Env != "" {
					fmt.Fprintf(&b, "      %s: {env: %s}\n", q(h.Name), q(h.Env))
				} else {
					fmt.Fprintf(&b, "      %s: %s\n", q(h.Name), q(h.Value))
				}
			}
		}
		if t.BearerEnv != "" {
			fmt.Fprintf(&b, "    auth:\n      bearer_token_env: %s\n", q(t.BearerEnv))
		}
	} else {
		b.WriteString("    command: [")
		for i, a := range t.Command {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(q(a))
		}
		b.WriteString("]\n")
		if len(t.Env) > 0 {
			b.WriteString("    env:\n")
			keys := make([]string, 0, len(t.Env))
			for k := range t.Env {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(&b, "      %s: %s\n", q(k), q(t.Env[k]))
			}
		}
	}
	if perTest {
		b.WriteString("    restart_policy: per_test\n")
	}
	if len(tests) == 0 {
		b.WriteString("\ntools: []\n")
	} else {
		b.WriteString("\ntools:\n")
	}
	for i, st := range tests {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, l := range strings.Split(strings.TrimSpace(st.Comment), "\n") {
			if l != "" {
				b.WriteString("  # " + l + "\n")
			}
		}
		fmt.Fprintf(&b, "  - name: %s\n    server: %s\n    tool: %s\n", q(st.Name), SuiteServerName, q(st.Tool))
		if len(st.Arguments) > 0 && string(st.Arguments) != "{}" && string(st.Arguments) != "null" {
			fmt.Fprintf(&b, "    args: %s\n", st.Arguments)
		}
		if st.TimeoutMS > 0 {
			fmt.Fprintf(&b, "    timeout_ms: %d\n", st.TimeoutMS)
		}
		if len(st.Expect) > 0 {
			b.WriteString("    expect:\n")
			for _, e := range st.Expect {
				m, _ := json.Marshal(e.Matcher)
				fmt.Fprintf(&b, "      - target: %s\n        matcher: %s\n", q(e.Target), m)
			}
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// q quotes a string as a JSON string, which is a valid YAML double-quoted
// scalar.
func q(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}
