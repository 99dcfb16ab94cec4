package bench

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/agent"
	"github.com/mcptest/mcptest/core/agent/tracereport"
	"github.com/mcptest/mcptest/core/budget"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/models"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/sdk"
)

// agentTurns is how many model calls one agent run of the benchmark makes:
// the stub's script asks for the echo tool agentTurns-1 times, then
// answers.
const agentTurns = 20

// BenchmarkAgentLoop measures what the agent loop adds to each turn (one
// model call and the tool call it asks for) over the same calls made raw.
// The loop side is what a run does: the model metered by a budget, the
// loop (catalogue, requests, tool calls, trace) and the report's trace.
// The floor sends the very requests the loop sent straight to the model
// router and the very tool calls straight to the session. Both reach the
// real stub provider plugin (a process, over gRPC) and the real demo
// server, so the difference is the loop's own cost. Budget (DESIGN-style,
// issue #13): at most 1 ms a turn.
func BenchmarkAgentLoop(b *testing.B) {
	bins := builtBinaries(b)
	root := moduleRoot(b)
	dir := b.TempDir()

	// A script the stub walks: one echo call per turn, then a reply.
	type step struct {
		Text      string           `json:"text,omitempty"`
		ToolCalls []map[string]any `json:"tool_calls,omitempty"`
	}
	var steps []step
	for range agentTurns - 1 {
		steps = append(steps, step{ToolCalls: []map[string]any{{"name": "echo", "arguments": map[string]string{"message": "hi"}}}})
	}
	steps = append(steps, step{Text: "done"})
	script, _ := json.Marshal(map[string]any{"script": steps})
	scriptPath := filepath.Join(dir, "script.json")
	if err := os.WriteFile(scriptPath, script, 0o644); err != nil {
		b.Fatal(err)
	}
	// The plugin process inherits the environment when the host starts it.
	b.Setenv("MCPTEST_STUB_SCRIPT", scriptPath)

	reg := stubRegistry(b, root, dir)
	host := plugin.NewHost(&plugin.ExecLauncher{}, plugin.HostOptions{CallTimeout: 30 * time.Second})
	b.Cleanup(host.Close)
	router := models.New(models.Options{Backend: models.PluginBackend(reg, host)})
	ref := config.ModelRef{ID: models.StubModel}
	raw := &routerModel{router: router, ref: ref}

	ctx := context.Background()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	sess, err := session.StartStdio(sctx, session.StdioConfig{Name: "demo", Command: []string{bins.demo}})
	cancel()
	if err != nil {
		b.Fatalf("start the demo server: %v", err)
	}
	b.Cleanup(func() { _ = sess.Close() })
	tools := &agent.SessionTools{Order: []string{"demo"}, Sessions: map[string]*session.Session{"demo": sess}}
	spec := agent.Spec{Model: models.StubModel, Servers: []string{"demo"}, Prompt: "say hi", MaxTurns: agentTurns + 5}
	meter := budget.NewSuite(&config.Budget{PerTestUSDCents: 1 << 20})

	loop := func() {
		tr, err := agent.Run(ctx, spec, budget.Wrap(raw, sdk.ModelPrice{Model: "stub*"}, meter.Test()), tools)
		if err != nil || len(tr.ModelCalls) != agentTurns || tr.FinalResponse != "done" {
			b.Fatalf("agent run: %v (%d model calls, final %q)", err, len(tr.ModelCalls), tr.FinalResponse)
		}
		_ = tracereport.Build(tr, tracereport.Options{Family: models.FamilyStub})
	}

	// What the loop sends, captured once (the stub is deterministic).
	capture := &capturing{next: raw}
	tr, err := agent.Run(ctx, spec, capture, tools)
	if err != nil || len(capture.reqs) != agentTurns {
		b.Fatalf("capture run: %v (%d requests)", err, len(capture.reqs))
	}
	floor := func() {
		for _, req := range capture.reqs {
			if _, err := router.Complete(ctx, ref, req); err != nil {
				b.Fatalf("raw model call: %v", err)
			}
		}
		for _, c := range tr.ToolCalls {
			if _, err := sess.CallTool(ctx, c.Name, c.Args); err != nil {
				b.Fatalf("raw tool call: %v", err)
			}
		}
	}
	loop()
	floor()

	var inLoop, inFloor time.Duration
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			inFloor += timed(floor)
			inLoop += timed(loop)
		} else {
			inLoop += timed(loop)
			inFloor += timed(floor)
		}
	}
	turns := float64(b.N * agentTurns)
	b.ReportMetric(float64(inLoop.Microseconds())/turns, "us-loop/turn")
	b.ReportMetric(float64(inFloor.Microseconds())/turns, "us-raw/turn")
	b.ReportMetric(float64((inLoop-inFloor).Microseconds())/turns, "us-overhead/turn")
}

// stubRegistry finds the stub provider plugin: in the bundle of `make
// build`, else built from source and installed into a folder of dir.
func stubRegistry(b *testing.B, root, dir string) *plugin.Registry {
	b.Helper()
	bundle := plugin.NewRegistry([]plugin.Source{{Dir: filepath.Join(root, "bin", "mcptest-plugins")}})
	if _, err := bundle.Resolve(sdk.KindProvider, models.FamilyStub); err == nil {
		return bundle
	}
	exe := filepath.Join(dir, "mcptest-provider-stub")
	if out, err := exec.Command("go", "build", "-o", exe, filepath.Join(root, "plugins", "providers", "stub")).CombinedOutput(); err != nil {
		b.Fatalf("build the stub provider: %v\n%s", err, out)
	}
	pdir := filepath.Join(dir, "plugins")
	if _, err := plugin.Install(context.Background(), exe, pdir); err != nil {
		b.Fatalf("install the stub provider: %v", err)
	}
	return plugin.NewRegistry([]plugin.Source{{Dir: pdir}})
}

// routerModel is the agent loop's model over the router, as a run has it.
type routerModel struct {
	router *models.Router
	ref    config.ModelRef
}

func (m *routerModel) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	return m.router.Complete(ctx, m.ref, req)
}

// capturing keeps the requests the loop sends.
type capturing struct {
	next agent.Model
	mu   sync.Mutex
	reqs []sdk.ChatRequest
}

func (c *capturing) Complete(ctx context.Context, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	c.mu.Lock()
	c.reqs = append(c.reqs, req)
	c.mu.Unlock()
	return c.next.Complete(ctx, req)
}
