package config

import "testing"

func TestSuggest(t *testing.T) {
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
		if got := suggest(tc.in, keys); got != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := suggest("weighted_avg", []string{"weighted_sum", "weighted_average"}); got != "weighted_average" {
		t.Errorf("suggest(weighted_avg) = %q", got)
	}
	servers := []string{"local", "remote", "a"}
	for in, want := range map[string]string{"locl": "local", "lcoal": "local", "remtoe": "remote", "b": "", "production": ""} {
		if got := suggest(in, servers); got != want {
			t.Errorf("suggest(%q, servers) = %q, want %q", in, got, want)
		}
	}
}
