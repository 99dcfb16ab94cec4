package target

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
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
	`{"result":{"z":1.0,"a":1e3,"m":12345678901234567890123,"isError":true}}`,
	`{"result":{}}`,
	`{"result":null}`,
	`{"result":{"s":"` + strings.Repeat("é\\n", 200) + `"}}`,
	// Quotes after runs of backslashes, even (the string ends) and odd
	// (an escaped quote), where a string ends and inside it.
	`{"result":{"s":"a\\","t":"\\\"q\\\\","content":[{"text":"\\\\\"}\"]"}],"u":"\"\\"}}   `,
}

var rawPaths = []string{
	"result.content[0].text", "result.content[1].text", "result.content[-1].text", "result.content.length",
	"result.a.b[1].c", "result.key", "result.dup", "result.length", "result.nested.text", "result.missing", "result",
	"result.content[5]", "result.content[-9]", "result.content.text", "result.content[0][1]", "result.z", "result.z.x",
	"result.isError", "result.isError.x", "result[0]", "result.s", "result.s.x", "", "nope", "result.a.b",
}

// decodeDoc decodes doc as the judge's fallback would, numbers kept.
func decodeDoc(t testing.TB, doc []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestExtractRawAgreesWithExtract: on every document and path, ExtractRaw
// either fails with Extract's error, word for word, or returns text that
// decodes to what Extract finds.
func TestExtractRawAgreesWithExtract(t *testing.T) {
	for _, doc := range rawDocs {
		for _, expr := range rawPaths {
			checkRaw(t, []byte(doc), mustPath(t, expr), nil)
		}
	}
}

func mustPath(t testing.TB, expr string) Path {
	if expr == "" {
		return Path{}
	}
	return MustParse(expr)
}

// checkRaw compares ExtractRaw with Extract on the decoded document, where
// fill (if any) was applied to the decoded value.
func checkRaw(t testing.TB, doc []byte, p Path, fill *Fill) {
	t.Helper()
	root := decodeDoc(t, doc)
	if fill != nil {
		if obj, err := fill.At.Extract(root); err == nil {
			if m, ok := obj.(map[string]any); ok {
				if _, has := m[fill.Key]; !has {
					m[fill.Key] = decodeDoc(t, fill.Value)
				}
			}
		}
	}
	want, wantErr := p.Extract(root)
	got, err := p.ExtractRaw(doc, fill)
	if wantErr != nil || err != nil {
		if wantErr == nil || err == nil || wantErr.Error() != err.Error() ||
			errors.Is(err, ErrTypeMismatch) != errors.Is(wantErr, ErrTypeMismatch) || !errors.Is(err, ErrNotFound) {
			t.Fatalf("%q in %s: raw error %v, Extract error %v", p, doc, err, wantErr)
		}
		return
	}
	if !json.Valid(got) {
		t.Fatalf("%q in %s: raw %q is not JSON", p, doc, got)
	}
	if dec := decodeDoc(t, got); !reflect.DeepEqual(dec, want) {
		t.Fatalf("%q in %s: raw %s, Extract %#v", p, doc, got, want)
	}
}

// TestExtractRawKeepsTheServersText: objects keep their key order, numbers
// their literal form, strings their escapes; only loose white space goes.
func TestExtractRawKeepsTheServersText(t *testing.T) {
	doc := []byte(`{"result": {"zeta": 1.0, "alpha": [1e3, -0.50, 12345678901234567890123],
	  "mid": {"b": "x\u00e9", "a": null}}}`)
	for expr, want := range map[string]string{
		"result":          `{"zeta":1.0,"alpha":[1e3,-0.50,12345678901234567890123],"mid":{"b":"x\u00e9","a":null}}`,
		"result.zeta":     `1.0`,
		"result.alpha":    `[1e3,-0.50,12345678901234567890123]`,
		"result.alpha[2]": `12345678901234567890123`,
		"result.mid":      `{"b":"x\u00e9","a":null}`,
		"result.mid.b":    `"x\u00e9"`,
	} {
		got, err := MustParse(expr).ExtractRaw(doc, nil)
		if err != nil || string(got) != want {
			t.Errorf("%s = %s (%v), want %s", expr, got, err, want)
		}
	}
	// A value without loose space is a slice of the document whose
	// capacity ends with it: appending to it cannot write into the
	// document.
	compact := []byte(`{"result":{"a":[1,2],"b":"c"}}`)
	got, _ := MustParse("result.a").ExtractRaw(compact, nil)
	_ = append(got, 'X')
	if string(compact) != `{"result":{"a":[1,2],"b":"c"}}` {
		t.Errorf("an append to the value changed the document: %s", compact)
	}
}

// isErrorFill is the tool-result normalisation: result.isError is false
// when the server left it out.
var isErrorFill = &Fill{At: MustParse("result"), Key: "isError", Value: json.RawMessage("false")}

// TestExtractRawFill: the filled key is seen wherever the object is, after
// the object's own keys, and never replaces a key the document has.
func TestExtractRawFill(t *testing.T) {
	for _, c := range []struct{ doc, path, want string }{
		{`{"result":{"content":[]}}`, "result.isError", `false`},
		{`{"result":{"content":[]}}`, "result", `{"content":[],"isError":false}`},
		{`{"result":{"content":[]}}`, "", `{"result":{"content":[],"isError":false}}`},
		{`{"result": { "b":1, "a":2 } }`, "result", `{"b":1,"a":2,"isError":false}`},
		{`{"result":{}}`, "result", `{"isError":false}`},
		{`{"result":{ }}`, "result", `{"isError":false}`},
		{`{"result":{"isError":true,"content":[]}}`, "result", `{"isError":true,"content":[]}`},
		{`{"result":{"isError":true}}`, "result.isError", `true`},
		{`{"result":null}`, "result", `null`},
		{`{"result":{"content":[]},"other":1}`, "", `{"result":{"content":[],"isError":false},"other":1}`},
	} {
		got, err := mustPath(t, c.path).ExtractRaw([]byte(c.doc), isErrorFill)
		if err != nil || string(got) != c.want {
			t.Errorf("%q in %s = %s (%v), want %s", c.path, c.doc, got, err, c.want)
		}
	}
	for _, doc := range rawDocs {
		for _, expr := range rawPaths {
			checkRaw(t, []byte(doc), mustPath(t, expr), isErrorFill)
		}
	}
	_, err := MustParse("result.nope").ExtractRaw([]byte(`{"result":{"content":[]}}`), isErrorFill)
	if err == nil || err.Error() != `result.nope: key "nope" not found (keys: content, isError)` {
		t.Errorf("error = %v", err)
	}
	// The document is never written to.
	doc := []byte(`{"result":{"content":[]}}`)
	_, _ = MustParse("result").ExtractRaw(doc, isErrorFill)
	if string(doc) != `{"result":{"content":[]}}` {
		t.Errorf("the document changed: %s", doc)
	}
}

func FuzzExtractRaw(f *testing.F) {
	for _, d := range rawDocs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) {
			return
		}
		for _, expr := range rawPaths {
			checkRaw(t, doc, mustPath(t, expr), nil)
			checkRaw(t, doc, mustPath(t, expr), isErrorFill)
		}
	})
}

// TestExtractRawUnder: reading {"result": R} from R's bytes gives what
// ExtractRaw gives on the whole envelope, answers and errors alike.
func TestExtractRawUnder(t *testing.T) {
	paths := append([]string{`result["odd key"]`, "result[0]", "content"}, rawPaths...)
	for _, doc := range rawDocs {
		result, err := MustParse("result").ExtractRaw([]byte(doc), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, expr := range paths {
			for _, fill := range []*Fill{nil, isErrorFill} {
				p := mustPath(t, expr)
				want, wantErr := p.ExtractRaw([]byte(doc), fill)
				got, err := p.ExtractRawUnder("result", result, fill)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) || string(got) != string(want) {
					t.Errorf("%q under result in %s: %s (%v), want %s (%v)", expr, doc, got, err, want, wantErr)
				}
			}
		}
	}
}

// TestExtractRawReadsHugeResultsInPlace: the isError normalisation and
// string targets of an 8 MB result cost a handful of small allocations,
// never a decode or copy of the result.
func TestExtractRawReadsHugeResultsInPlace(t *testing.T) {
	big := []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("x", 8<<20) + `"}]}`)
	for expr, want := range map[string]string{"result.isError": "false", "result.content[0].type": `"text"`} {
		p := MustParse(expr)
		got, err := p.ExtractRawUnder("result", big, isErrorFill)
		if err != nil || string(got) != want {
			t.Fatalf("%s = %.40s (%v)", expr, got, err)
		}
		if n := testing.AllocsPerRun(5, func() { _, _ = p.ExtractRawUnder("result", big, isErrorFill) }); n > 4 {
			t.Errorf("%s: %v allocations", expr, n)
		}
	}
	text, err := MustParse("result.content[0].text").ExtractRawUnder("result", big, isErrorFill)
	if err != nil || len(text) != 8<<20+2 || &text[1] != &big[len(`{"content":[{"type":"text","text":"`)] {
		t.Errorf("the text is not a slice of the result (%d bytes, %v)", len(text), err)
	}
}
