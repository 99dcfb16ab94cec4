package run

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/session"
)

// nested is depth nested arrays.
func nested(depth int) string {
	return strings.Repeat("[", depth) + strings.Repeat("]", depth)
}

func TestJSONDepth(t *testing.T) {
	cases := map[string]int{
		`1`:                    0,
		`{"a":[1,{"b":2}]}`:    3,
		`{"a":"[[[[\"]]]"}`:    1,
		`"\\"`:                 0,
		nested(9_990):          9_990,
		`{"x":` + nested(5):    6, // unterminated: still measured
		`{"a":{}} {"b":[[1]]}`: 3,
	}
	for in, want := range cases {
		if got := jsonDepth([]byte(in)); got != want {
			t.Errorf("jsonDepth(%.40q) = %d, want %d", in, got, want)
		}
	}
}

// A valid response nested within encoding/json's limit must still leave a
// report every consumer can decode: above maxEmbedDepth it becomes text.
func TestDeepServerJSONIsEmbeddedAsText(t *testing.T) {
	r := &runner{}
	deep := []byte(`{"result":{"nested":` + nested(9_990) + `}}`)
	resp := r.truncate(deep)
	var s string
	if err := json.Unmarshal(resp, &s); err != nil || s != string(deep) {
		t.Errorf("deep response embedded as %.60s (err %v)", resp, err)
	}
	shallow := json.RawMessage(`{"result":{"nested":` + nested(maxEmbedDepth-2) + `}}`)
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
		!strings.HasSuffix(f["actual"], "[truncated: 1048581 bytes in total]") || len(f["actual"]) > embedLimit+100 {
		t.Errorf("huge failure: expected %q, actual %d bytes ending %q", f["expected"], len(f["actual"]), f["actual"][len(f["actual"])-40:])
	}

	deep := json.RawMessage(`{"expected":[1],"actual":` + nested(9_000) + `}`)
	got := boundFailure(deep)
	var g map[string]json.RawMessage
	if err := json.Unmarshal(got, &g); err != nil || string(g["expected"]) != "[1]" || jsonDepth(got) > 2 {
		t.Errorf("deep failure: %.80s (err %v)", got, err)
	}

	broken := json.RawMessage(nested(20_000))
	if got := boundFailure(broken); !json.Valid(got) || jsonDepth(got) > 1 || !strings.Contains(string(got), "too deeply nested") {
		t.Errorf("undecodable failure: %.120s", got)
	}
}
