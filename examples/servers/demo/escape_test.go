package main

import (
	"encoding/json"
	"testing"
)

func TestEscapeText(t *testing.T) {
	in := `{"k/1":"a/b é 😀 \"q\" \\/","n":[1,"ü"]}`
	got := string(escapeText([]byte(in)))
	want := `{"k\/1":"a\/b \u00e9 \uD83D\ude00 \"q\" \\\/","n":[1,"\u00FC"]}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	var a, b any
	if json.Unmarshal([]byte(in), &a) != nil || json.Unmarshal([]byte(got), &b) != nil {
		t.Fatal("not JSON")
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("the value changed: %s vs %s", ja, jb)
	}
	// Split anywhere, as a stream: the same result.
	for cut := range len(in) {
		var e jsonEscaper
		out := e.write(nil, []byte(in[:cut]))
		out = e.write(out, []byte(in[cut:]))
		if string(out) != want {
			t.Fatalf("cut at %d: %s", cut, out)
		}
	}
}
