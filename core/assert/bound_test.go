package assert

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/internal/jsonx"
)

// nested is depth nested arrays.
func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

func TestBoundFailure(t *testing.T) {
	small := json.RawMessage(`{"expected":"a","actual":"b","note":"n"}`)
	if got := boundFailure(small); string(got) != string(small) {
		t.Errorf("small failure changed: %s", got)
	}

	huge, _ := json.Marshal(map[string]any{"expected": "nope", "actual": "BEGIN" + strings.Repeat("x", 1<<20)})
	var f map[string]string
	if err := json.Unmarshal(boundFailure(huge), &f); err != nil {
		t.Fatal(err)
	}
	if f["expected"] != "nope" || !strings.HasPrefix(f["actual"], "BEGINxxx") ||
		!strings.HasSuffix(f["actual"], "[truncated: 1048581 bytes in total]") || len(f["actual"]) > jsonx.EmbedLimit+100 {
		t.Errorf("huge failure: expected %q, actual %d bytes ending %q", f["expected"], len(f["actual"]), f["actual"][len(f["actual"])-40:])
	}

	deep := json.RawMessage(`{"expected":[1],"actual":` + nested(9_000) + `}`)
	got := boundFailure(deep)
	var g map[string]json.RawMessage
	if err := json.Unmarshal(got, &g); err != nil || string(g["expected"]) != "[1]" || jsonx.Depth(got) > 2 {
		t.Errorf("deep failure: %.80s (err %v)", got, err)
	}

	broken := json.RawMessage(nested(20_000))
	if got := boundFailure(broken); !json.Valid(got) || jsonx.Depth(got) > 1 || !strings.Contains(string(got), "too deeply nested") {
		t.Errorf("undecodable failure: %.120s", got)
	}
}
