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
