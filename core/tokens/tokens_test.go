package tokens

import (
	"errors"
	"testing"
)

func TestApprox(t *testing.T) {
	c, err := Lookup("")
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "héllo wörld!": 3, "日本語のテキスト": 2} {
		if got := c.Count(text); got != want {
			t.Errorf("approx(%q) = %d, want %d", text, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	if err := Check("approx"); err != nil {
		t.Errorf("approx: %v", err)
	}
	if err := Check("APPROX"); err != nil {
		t.Errorf("names are case-insensitive: %v", err)
	}
	if err := Check("gpt-neo"); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown name: %v", err)
	}
	// A named encoding is either served or reported as not built; never
	// silently approximated.
	err := Check("cl100k-base")
	if err != nil && !errors.Is(err, ErrNotBuilt) {
		t.Errorf("cl100k_base: %v", err)
	}
	if _, lerr := Lookup("cl100k_base"); (lerr == nil) != (err == nil) {
		t.Errorf("Lookup and Check disagree: %v vs %v", lerr, err)
	}
}

func TestMeasure(t *testing.T) {
	c := approx{}
	for _, tc := range []struct {
		name, result, mode string
		imageCost          int
		want               Measured
	}{
		{"tool text", `{"content":[{"type":"text","text":"abcdefgh"}],"isError":false}`, "", 85, Measured{Tokens: 2}},
		{"blocks joined by newlines", `{"content":[{"type":"text","text":"abc"},{"type":"text","text":"defg"}]}`, ModeText, 0, Measured{Tokens: 2}},
		{"images charged", `{"content":[{"type":"text","text":"abcd"},{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"audio","data":"AA"}]}`, ModeText, 100, Measured{Tokens: 201, Images: 2}},
		{"embedded resource text", `{"content":[{"type":"resource","resource":{"uri":"x:/a","text":"abcdefgh"}}]}`, "", 0, Measured{Tokens: 2}},
		{"embedded blob not read", `{"content":[{"type":"resource","resource":{"uri":"x:/a","blob":"QUJD"}}]}`, "", 0, Measured{}},
		{"resource contents", `{"contents":[{"uri":"x:/a","text":"abcdefgh"}]}`, "", 0, Measured{Tokens: 2}},
		{"prompt messages", `{"messages":[{"role":"user","content":{"type":"text","text":"abcd"}}]}`, "", 0, Measured{Tokens: 1}},
		{"no content blocks: the JSON", `{"value":12}`, "", 0, Measured{Tokens: 3}},
		{"json mode", `{ "content": [ {"type":"text","text":"abcd"} ] }`, ModeJSON, 0, Measured{Tokens: 11}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Measure(c, []byte(tc.result), tc.mode, tc.imageCost)
			if err != nil || got != tc.want {
				t.Errorf("Measure = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
	if _, err := Measure(c, []byte(`{}`), "words", 0); err == nil {
		t.Error("unknown mode accepted")
	}
}
