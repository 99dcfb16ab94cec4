package e2e

import (
	"path/filepath"
	"testing"
)

// TestInteropEverythingAgents runs the agent suite against server-everything
// and the demo server with the scripted stub model: a merged two-server
// catalogue, calls routed by prefix, a multi-turn conversation and an image
// result passed back to the model.
func TestInteropEverythingAgents(t *testing.T) {
	npmServer(t, "server-everything")
	env := append(append([]string(nil), noModelKeys...),
		"MCPTEST_STUB_SCRIPT="+filepath.Join(root, "examples/interop/fixtures/everything-agents-script.json"))
	// The demo server the suite names under ./bin is the one this test
	// package built.
	r, rep := runInterop(t, env, "--server-command", "demo="+filepath.Join(binDir, "mcptest-demo-server"),
		"examples/interop/everything-agents.yml")
	wantAllPassed(t, r, rep, 2)
}
