package run

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
)

// nested is depth nested arrays.
func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

// A valid response nested within encoding/json's limit must still leave a
// report every consumer can decode: above jsonx.MaxEmbedDepth it becomes text.
func TestDeepServerJSONIsEmbeddedAsText(t *testing.T) {
	r := &runner{}
	deep := []byte(`{"result":{"nested":` + nested(9_990) + `}}`)
	resp := r.truncate(deep)
	var s string
	if err := json.Unmarshal(resp, &s); err != nil || s != string(deep) {
		t.Errorf("deep response embedded as %.60s (err %v)", resp, err)
	}
	shallow := json.RawMessage(`{"result":{"nested":` + nested(jsonx.MaxEmbedDepth-2) + `}}`)
	if got := r.truncate(shallow); string(got) != string(shallow) {
		t.Errorf("shallow response changed: %.60s", got)
	}
	frames := r.frames([]session.Frame{{Direction: session.Received, Raw: string(deep), Size: len(deep)}}, time.Now())
	if err := json.Unmarshal(frames[0].Data, &s); err != nil || s != string(deep) {
		t.Errorf("deep frame embedded as %.60s (err %v)", frames[0].Data, err)
	}
	long := []byte(`{"result":"` + strings.Repeat("é", responseLimit) + `"}`)
	if err := json.Unmarshal(r.truncate(long), &s); err != nil || !strings.HasSuffix(s, "…[truncated: 131085 bytes in total]") {
		t.Errorf("long response: %v, %.40q", err, s[len(s)-40:])
	}
}
