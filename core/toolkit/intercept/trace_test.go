package intercept

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestRecorderMasks(t *testing.T) {
	var b bytes.Buffer
	rec := NewRecorder(&b, []string{"ssn"}, "planted-secret")
	rec.clock = func() time.Time { return time.Unix(0, 0) }
	rec.Record(ToServer, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"Authorization":"Bearer x","user_ssn":"123","note":"has planted-secret inside","_meta":{"progressToken":7}}}}`+"\n"))
	rec.Record(ToClient, []byte("not json\n"))
	rec.Record(ToClient, []byte("  \n"))
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 entries (a blank line is none), got %d:\n%s", len(lines), b.String())
	}
	var e Entry
	if err := json.Unmarshal([]byte(lines[0]), &e); err != nil {
		t.Fatal(err)
	}
	if e.Seq != 1 || e.Dir != ToServer || e.Tool != "t" {
		t.Errorf("entry = %+v", e)
	}
	for _, leak := range []string{"Bearer x", "123", "planted-secret"} {
		if strings.Contains(b.String(), leak) {
			t.Errorf("trace leaks %q:\n%s", leak, b.String())
		}
	}
	if !strings.Contains(lines[0], `"progressToken":7`) {
		t.Errorf("progressToken is a protocol field, not a secret:\n%s", lines[0])
	}
	if !strings.Contains(lines[1], `"message":"not json"`) {
		t.Errorf("non-JSON is kept as a string: %s", lines[1])
	}
}
