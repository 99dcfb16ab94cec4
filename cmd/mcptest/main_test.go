package main

import (
	"slices"
	"strings"
	"testing"
)

func TestHoistGlobalFlags(t *testing.T) {
	cases := []struct{ in, want []string }{
		{[]string{"--server-url", "http://x", "run", "s.yml"}, []string{"run", "--server-url", "http://x", "s.yml"}},
		{[]string{"--server-url=http://x", "--server-auth-bearer-env", "TOK", "validate", "a.yml"}, []string{"validate", "--server-url=http://x", "--server-auth-bearer-env", "TOK", "a.yml"}},
		{[]string{"run", "--server-url", "http://x", "s.yml"}, []string{"run", "--server-url", "http://x", "s.yml"}},
		{[]string{"--server-url"}, []string{"--server-url"}},
	}
	for _, c := range cases {
		if got := hoistGlobalFlags(c.in); !slices.Equal(got, c.want) {
			t.Errorf("hoist(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUpdateSnapshotsRefusedInCI(t *testing.T) {
	t.Setenv("CI", "true")
	var out, errOut strings.Builder
	code := mainCode([]string{"run", "-u", "suite.yml"}, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "--allow-update-in-ci") {
		t.Fatalf("code %d, stderr %q", code, errOut.String())
	}
}

func TestHoistBooleanGlobalFlag(t *testing.T) {
	got := hoistGlobalFlags([]string{"--insecure-skip-verify", "--header", "X-A=1", "run", "s.yml"})
	want := []string{"run", "--insecure-skip-verify", "--header", "X-A=1", "s.yml"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q", got)
	}
}
