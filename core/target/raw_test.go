package target

import (
	"bytes"
	"encoding/json"
	"testing"
)

var rawDocs = []string{
	`{"result":{"content":[{"type":"text","text":"hello"}]}}`,
	` { "result" : { "content" : [ {"type":"image"} , { "text" : "sec\"ond \u00e9 \\ end" } ] } } `,
	`{"result":{"content":[{"text":1}]}}`,
	`{"result":{"content":[]}}`,
	`{"result":{"a":{"b":[[],{"c":"deep"}]}, "k\u0065y":"escaped key"}}`,
	`{"result":{"dup":"first","dup":"second"}}`,
	`{"result":{"content":[{"text":"x"}],"length":"not the length"}}`,
	`{"result":{"nested":{"text":"{\"not\":\"json\"}"}}}`,
}

var rawPaths = []string{
	"result.content[0].text", "result.content[1].text", "result.content[-1].text", "result.content.length",
	"result.a.b[1].c", "result.key", "result.dup", "result.length", "result.nested.text", "result.missing", "result",
}

// TestExtractRawStringAgreesWithExtract: whenever the raw path answers,
// its bytes decode to what Extract finds in the decoded document.
func TestExtractRawStringAgreesWithExtract(t *testing.T) {
	answered := 0
	for _, doc := range rawDocs {
		for _, expr := range rawPaths {
			checkRaw(t, []byte(doc), MustParse(expr))
			if _, ok := MustParse(expr).ExtractRawString([]byte(doc)); ok {
				answered++
			}
		}
	}
	if answered < 5 {
		t.Fatalf("the raw path answered only %d times", answered)
	}
	// What it must leave to the decoder.
	for _, c := range []struct{ doc, path string }{
		{rawDocs[5], "result.dup"}, {rawDocs[1], "result.content[-1].text"},
		{rawDocs[0], "result.content.length"}, {rawDocs[2], "result.content[0].text"},
	} {
		if _, ok := MustParse(c.path).ExtractRawString([]byte(c.doc)); ok {
			t.Errorf("%s in %s: answered; want it left to Extract", c.path, c.doc)
		}
	}
}

func checkRaw(t *testing.T, doc []byte, p Path) {
	t.Helper()
	span, ok := p.ExtractRawString(doc)
	if !ok {
		return
	}
	var got string
	if err := json.Unmarshal(span, &got); err != nil {
		t.Fatalf("%s in %s: span %q is not a JSON string: %v", p, doc, span, err)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		t.Fatal(err)
	}
	want, err := p.Extract(root)
	if err != nil || want != got {
		t.Fatalf("%s in %s: raw %q, Extract %v (%v)", p, doc, got, want, err)
	}
}

func FuzzExtractRawString(f *testing.F) {
	for _, d := range rawDocs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		for _, expr := range rawPaths {
			checkRaw(t, doc, MustParse(expr))
		}
	})
}
