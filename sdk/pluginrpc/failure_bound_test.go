package pluginrpc

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/sdk/contract"
)

// TestBoundFailure: a failure echoing a huge value leaves the plugin cut
// to FailureValueLimit per field, as valid JSON whose text starts like the
// value and says how long it was; small failures pass unchanged.
func TestBoundFailure(t *testing.T) {
	small := &contract.Failure{Expected: json.RawMessage(`"a"`), Actual: json.RawMessage(`"b"`), Diff: "-a\n+b"}
	if got := boundFailure(small); got != small {
		t.Errorf("a small failure was copied: %+v", got)
	}

	huge := "BEGIN" + strings.Repeat(`x"é\`, 1<<20)
	actual, _ := json.Marshal(huge)
	f := &contract.Failure{Expected: json.RawMessage(`"nope"`), Actual: actual, Diff: "-nope\n+" + huge, Note: "n"}
	got := boundFailure(f)
	if string(f.Actual) != string(actual) {
		t.Fatal("boundFailure modified its argument")
	}
	b, err := appendFailure(nil, got, nil)
	if err != nil || !json.Valid(b) {
		t.Fatalf("encoded: %v", err)
	}
	if len(b) > 3*contract.FailureValueLimit {
		t.Errorf("encoded failure is %d bytes, want about %d at most", len(b), 3*contract.FailureValueLimit)
	}
	var back struct{ Expected, Actual, Diff, Note string }
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Expected != "nope" || back.Note != "n" {
		t.Errorf("small fields changed: %+v", back)
	}
	if !strings.HasPrefix(back.Actual, `BEGINx"é\x"é\`) || !strings.Contains(back.Actual, "…[truncated: ") {
		t.Errorf("actual = %.40q…%q", back.Actual, back.Actual[len(back.Actual)-40:])
	}
	if !strings.HasPrefix(back.Diff, "-nope\n+BEGINx") || !strings.HasSuffix(back.Diff, "bytes in total]") {
		t.Errorf("diff = %.40q…", back.Diff)
	}
	// A huge non-string value becomes the start of its JSON text.
	arr := json.RawMessage("[" + strings.Repeat("1,", contract.FailureValueLimit) + "1]")
	cut := cutJSON(arr, contract.FailureValueLimit)
	var s string
	if json.Unmarshal(cut, &s) != nil || !strings.HasPrefix(s, "[1,1,") || len(s) > contract.FailureValueLimit+100 {
		t.Errorf("array cut to %.60s", cut)
	}
}
