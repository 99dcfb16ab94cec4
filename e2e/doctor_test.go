package e2e

import (
	"strings"
	"testing"
)

// TestDoctor runs mcptest doctor on a suite with a good demo server, a
// command that is not installed and a node server: one line per finding,
// the fix on each failing one, the bundled plugins all start, exit 1.
func TestDoctor(t *testing.T) {
	suite := writeSuite(t, `servers:
  demo:
    command: ["DEMO"]
  missing:
    command: ["mcptest-e2e-no-such-server"]
  everything:
    command: ["node", "`+npmServer(t, "server-everything")+`", "stdio"]
tools:
  - {name: echo, server: demo, tool: echo, args: {message: hi}}
`)
	r := mcptest(t, "doctor", suite)
	if r.code != 1 {
		t.Fatalf("want exit 1:\n%s", r)
	}
	mustContain(t, "stdout", r.stdout,
		"ok   suite "+suite+": loads\n",
		"ok   server demo (",
		"fail server missing (", "is not on PATH — fix: install mcptest-e2e-no-such-server",
		"ok   server everything (", "command node is ",
		"ok   plugin agent@", "ok   plugin json@",
		"doctor: ", " 1 failures\n")
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if strings.HasPrefix(l, "fail") && !strings.Contains(l, " — fix: ") {
			t.Errorf("a failure without its fix: %s", l)
		}
	}
	q := mcptest(t, "doctor", "-q", suite)
	if strings.Contains(q.stdout, "ok   ") || !strings.Contains(q.stdout, "fail server missing") {
		t.Errorf("--problems:\n%s", q)
	}
	bad := writeSuite(t, "servers: {demo: {command: [\"DEMO\"]}}\ntools:\n  - {name: x, server: nope, tool: echo}\n")
	if r := mcptest(t, "doctor", bad); r.code != 1 || !strings.Contains(r.stdout, "fail suite "+bad) {
		t.Errorf("bad suite:\n%s", r)
	}
}
