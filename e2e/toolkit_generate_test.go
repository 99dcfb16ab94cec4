package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateRunsGreen generates a suite from the demo (stdio and
// Streamable HTTP) and from server-everything, and runs each at once: every
// test passes, and the expectations come from the answers (add's sum).
func TestGenerateRunsGreen(t *testing.T) {
	servers := map[string][]string{
		"demo":       {"--server", demoServer()},
		"demo-http":  {"--server", startDemoMode(t, "--http")},
		"everything": everythingServer(t),
	}
	for name, srv := range servers {
		suite := filepath.Join(t.TempDir(), name+".yml")
		r := mcptest(t, append(append([]string{"generate"}, srv...), "-o", suite)...)
		if r.code != 0 {
			t.Fatalf("%s: generate:\n%s", name, r)
		}
		raw, err := os.ReadFile(suite)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(name, "demo") {
			mustContain(t, name+" suite", string(raw), `tool: "add"`, `matcher: {"contains":{"sum":2}}`, "Left out: bump")
		}
		if rr := mcptest(t, "run", suite); rr.code != 0 || !strings.Contains(rr.stdout, " 0 failed") {
			t.Errorf("%s: the generated suite does not run green:\n%s\n%s", name, raw, rr)
		}
	}
	if r := mcptest(t, "generate", "--server", demoServer()); r.code != 2 || !strings.Contains(r.stderr, "-o SUITE.yml") {
		t.Errorf("generate without -o should exit 2:\n%s", r)
	}
}
