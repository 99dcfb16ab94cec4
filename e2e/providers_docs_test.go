package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/sdk"
)

// TestDocsStubScript runs the stub script shown in docs/providers.md, from
// the file given in MCPTEST_STUB_SCRIPT as the page says, through the
// bundled stub plugin: the search call, then the answer with its usage.
func TestDocsStubScript(t *testing.T) {
	var script string
	for _, b := range docBlocks(t) {
		if b.file == "providers.md" && b.lang == "json" && strings.Contains(b.text, `"script"`) {
			script = b.text
		}
	}
	if script == "" {
		t.Fatal("docs/providers.md has no stub script example")
	}
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MCPTEST_STUB_SCRIPT", path)
	router := bundledRouter(t, nil, nil)
	ctx := context.Background()
	req := sdk.ChatRequest{Messages: []sdk.Message{{Role: "user", Content: "find the latest incident"}},
		Tools: []sdk.ToolDef{{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)}}}
	r, err := router.Complete(ctx, config.ModelRef{ID: "stub"}, req)
	if err != nil || len(r.Message.ToolCalls) != 1 || r.Message.ToolCalls[0].Name != "search" ||
		string(r.Message.ToolCalls[0].Arguments) != `{"query":"incident report"}` || r.StopReason != sdk.StopToolUse {
		t.Fatalf("step 1: %+v %v", r, err)
	}
	req.Messages = append(req.Messages, r.Message, sdk.Message{Role: "tool", ToolCallID: r.Message.ToolCalls[0].ID, Content: "INC-42"})
	r, err = router.Complete(ctx, config.ModelRef{ID: "stub"}, req)
	if err != nil || r.Message.Content != "The latest incident report is INC-42." || r.Usage.InputTokens != 120 || r.Usage.OutputTokens != 9 || r.StopReason != sdk.StopEndTurn {
		t.Fatalf("step 2: %+v %v", r, err)
	}
	req.Messages = append(req.Messages, r.Message, sdk.Message{Role: "user", Content: "more?"})
	if _, err := router.Complete(ctx, config.ModelRef{ID: "stub"}, req); err == nil || !strings.Contains(err.Error(), "script has 2") {
		t.Fatalf("past the script: %v", err)
	}
}
