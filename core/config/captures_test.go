package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCapturesLoad(t *testing.T) {
	s, err := LoadWith(filepath.Join("testdata", "valid", "captures.yml"), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	caps := s.Tools[0].Captures
	if len(caps) != 3 || caps[0].Name != "issue_id" || caps[0].Target != "result.structuredContent.id" || caps[2].Name != "first_line" {
		t.Fatalf("captures = %+v", caps)
	}
	// References are kept for the runner.
	if args := string(s.Tools[1].Args); !strings.Contains(args, `"${capture:issue_id}"`) || !strings.Contains(args, `opened as ${capture:first_line}`) {
		t.Errorf("args = %s", args)
	}
}

func TestCaptureErrors(t *testing.T) {
	const head = "servers: {s: {command: [./s]}}\n"
	cases := []struct{ src, want string }{
		{"tools:\n  - {name: a, server: s, tool: t, capture: [result.id]}\n", "expected capture (names mapped to target paths)"},
		{"tools:\n  - {name: a, server: s, tool: t, capture: {1st: result.id}}\n", `invalid capture name "1st"`},
		{"tools:\n  - {name: a, server: s, tool: t, capture: {id: \"\"}}\n", "/tools/0/capture/id"},
		{"tools:\n  - {name: a, server: s, tool: t, capture: {id: {path: x}}}\n", "/tools/0/capture/id"},
		{"resources:\n  - {name: a, server: s, uri: \"x://y\", capture: {id: result.id}}\n", "capture applies to tool tests only"},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "suite.yml")
		if err := os.WriteFile(path, []byte(head+c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadWith(path, testOptions())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.src, err, c.want)
		}
	}
}
