package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Trajectory is one entry of the suite's trajectories block.
type Trajectory struct {
	Name   string      `yaml:"name"`
	Trace  string      `yaml:"trace"`
	Tags   []string    `yaml:"tags,omitempty"`
	Expect []Assertion `yaml:"expect"`
}

// traceCall is one call of an mcp-assert inline trace.
type traceCall struct {
	Tool string         `yaml:"tool"`
	Args map[string]any `yaml:"args"`
}

// trajectoryCheck is one mcp-assert trajectory assertion.
type trajectoryCheck struct {
	Type  string         `yaml:"type"`
	Tools []string       `yaml:"tools"`
	Tool  string         `yaml:"tool"`
	Args  map[string]any `yaml:"args"`
}

// safeName is a tool name the order check can put in a regex literal.
var safeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.\-/]+$`) })

// trajectory converts a trace + trajectory file: the inline trace becomes
// an intercept-format JSONL file (Result.Traces, written beside the
// suite), and each check an assertion over it. order (a subsequence,
// not necessarily adjacent) is a cel regex over the joined names;
// presence is contains-all; absence is not contains-any; args_contain is
// object containment in one of the calls.
func (c *converter) trajectory(path string, doc *yaml.Node, a *assertFile) bool {
	var calls []traceCall
	if a.Trace.Kind == 0 || a.Trace.Decode(&calls) != nil {
		c.issue(path, lineOf(doc, "trace"), false, "trajectory without an inline trace: list (audit_log files are not converted)")
		return false
	}
	var checks []trajectoryCheck
	if a.Trajectory.Decode(&checks) != nil || len(checks) == 0 {
		c.issue(path, lineOf(doc, "trajectory"), false, "trajectory is not a list of checks")
		return false
	}
	var exp []Assertion
	for i, ch := range checks {
		line := a.Trajectory.Line
		if i < len(a.Trajectory.Content) {
			line = a.Trajectory.Content[i].Line
		}
		if ch.Type != "args_contain" && len(ch.Tools) == 0 {
			c.issue(path, line, false, "%s check without tools", ch.Type)
			return false
		}
		if ch.Type == "args_contain" && ch.Tool == "" {
			c.issue(path, line, false, "args_contain check without tool")
			return false
		}
		switch ch.Type {
		case "order":
			var parts []string
			for _, n := range ch.Tools {
				if !safeName().MatchString(n) {
					c.issue(path, line, false, "order check on tool name %q, which the converted regex cannot quote", n)
					return false
				}
				parts = append(parts, regexp.QuoteMeta(n))
			}
			re := "(^|,)" + strings.Join(parts, "(,.*,|,)") + "(,|$)"
			exp = append(exp, Assertion{Target: "tool_names", Matcher: map[string]any{"cel": "value.join(',').matches(r'" + re + "')"}})
		case "presence":
			exp = append(exp, Assertion{Target: "tool_names", Matcher: map[string]any{"contains-all": ch.Tools}})
		case "absence":
			exp = append(exp, Assertion{Target: "tool_names", Matcher: map[string]any{"not": map[string]any{"contains-any": ch.Tools}}})
		case "args_contain":
			want := map[string]any{"name": ch.Tool}
			if ch.Args != nil {
				want["args"] = ch.Args
			}
			exp = append(exp, Assertion{Target: "tool_calls", Matcher: map[string]any{"contains": []any{want}}})
		default:
			c.issue(path, line, false, "trajectory check type %q is not one of order, presence, absence, args_contain", ch.Type)
			return false
		}
	}
	var b strings.Builder
	for i, call := range calls {
		args := call.Args
		if args == nil {
			args = map[string]any{}
		}
		msg := map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": map[string]any{"name": call.Tool, "arguments": args}}
		line, err := json.Marshal(map[string]any{"seq": i + 1, "dir": "client_to_server", "message": msg, "tool": call.Tool, "args": args})
		if err != nil {
			c.issue(path, lineOf(doc, "trace"), false, "trace call %d: %v", i, err)
			return false
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	trace := fmt.Sprintf("traces/%s.jsonl", base)
	for n := 2; c.res.Traces[trace] != nil; n++ {
		trace = fmt.Sprintf("traces/%s-%d.jsonl", base, n)
	}
	c.res.Traces[trace] = []byte(b.String())
	name := a.Name
	if name == "" {
		name = base
	}
	c.res.Suite.Trajectories = append(c.res.Suite.Trajectories, Trajectory{Name: name, Trace: trace,
		Tags: []string{"mcp-assert", "from:" + filepath.Base(filepath.Dir(path))}, Expect: exp})
	c.res.Converted++
	return true
}

// WriteTraces writes the trace files of a conversion under dir (the
// suite's directory), creating the traces folder.
func WriteTraces(dir string, traces map[string][]byte) error {
	for rel, data := range traces {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("write trace: %w", err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("write trace: %w", err)
		}
	}
	return nil
}
