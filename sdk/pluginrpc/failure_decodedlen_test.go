package pluginrpc

import (
	"encoding/json"
	"testing"
)

// decodedLen agrees with encoding/json on the length of a string's text,
// whatever escapes the writer chose.
func TestDecodedLenAgreesWithDecoding(t *testing.T) {
	for _, raw := range []string{
		`""`, `"BEGINxxx"`, `"a\/b"`, `"\u00e9\u00E9é"`, `"\ud83d\ude00 smile"`,
		`"\n\t\"\\"`, `"lone \ud83d surrogate"`, `"\uDE00 low first"`, `"\u0041\u20AC"`,
	} {
		var s string
		if err := json.Unmarshal([]byte(raw), &s); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := decodedLen(json.RawMessage(raw)); got != len(s) {
			t.Errorf("decodedLen(%s) = %d, want %d", raw, got, len(s))
		}
	}
}

// A cut string's marker gives the length of its text, not of its quoting.
func TestCutStringMarkerCountsItsText(t *testing.T) {
	long := make([]byte, 100)
	for i := range long {
		long[i] = 'x'
	}
	raw, _ := json.Marshal(string(long))
	var s string
	if err := json.Unmarshal(cutJSON(raw, 10), &s); err != nil {
		t.Fatal(err)
	}
	if want := "…[truncated: 100 bytes in total]"; len(s) < len(want) || s[len(s)-len(want):] != want {
		t.Errorf("cut = %q, want it to end in %q", s, want)
	}
}
