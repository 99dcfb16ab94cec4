package suggest

import "testing"

func TestClosest(t *testing.T) {
	keys := []string{"name", "server", "tool", "args", "expect", "timeout_ms", "tags"}
	cases := []struct{ in, want string }{
		{"nmae", "name"},
		{"sever", "server"},
		{"Server", "server"},
		{"expects", "expect"},
		{"timeout-ms", "timeout_ms"},
		{"TIMEOUT_MS", "timeout_ms"},
		{"timeout", "timeout_ms"},
		{"tag", "tags"},
		{"arguments", ""},
		{"zzz", ""},
		{"", ""},
		{"x", ""},
	}
	for _, tc := range cases {
		if got := Closest(tc.in, keys); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Closest("weighted_avg", []string{"weighted_sum", "weighted_average"}); got != "weighted_average" {
		t.Errorf("Closest(weighted_avg) = %q", got)
	}
	servers := []string{"local", "remote", "a"}
	for in, want := range map[string]string{"locl": "local", "lcoal": "local", "remtoe": "remote", "b": "", "production": ""} {
		if got := Closest(in, servers); got != want {
			t.Errorf("Closest(%q, servers) = %q, want %q", in, got, want)
		}
	}
}

// TestClosestForCommandsAndKeys covers the callers that used core/plugin's
// own guess before it delegated here: subcommands, matcher keys and
// reporter formats keep getting a suggestion for a plain typo, and none
// for an unrelated word.
func TestClosestForCommandsAndKeys(t *testing.T) {
	cmds := []string{"run", "validate", "report", "compliance", "plugins", "version"}
	matchers := []string{"contains", "icontains", "equals", "regex", "json_schema", "not", "anyOf"}
	formats := []string{"pretty", "json", "junit", "markdown", "sarif", "tap"}
	cases := []struct {
		in   string
		list []string
		want string
	}{
		{"runn", cmds, "run"},
		{"valdiate", cmds, "validate"},
		{"complaince", cmds, "compliance"},
		{"plugin", cmds, "plugins"},
		{"deploy", cmds, ""},
		{"contians", matchers, "contains"},
		{"anyof", matchers, "anyOf"},
		{"json-schema", matchers, "json_schema"},
		{"junti", formats, "junit"},
		{"xml", formats, ""},
		{"lsit", []string{"list", "install", "verify"}, "list"},
	}
	for _, tc := range cases {
		if got := Closest(tc.in, tc.list); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
