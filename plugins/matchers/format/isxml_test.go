package main

import "testing"

const soap = `<?xml version="1.0"?>
<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body/></soap:Envelope>`

func TestIsXML(t *testing.T) {
	run(t, []tcase{
		{name: "simple", key: "is-xml", actual: str(`<note><to>Ada</to></note>`), arg: `null`, pass: true},
		{name: "prolog, comments, doctype", key: "is-xml",
			actual: str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE note>\n<!-- hi -->\n<note a=\"1\">x &amp; y<![CDATA[<raw>]]></note>\n<!-- bye -->\n"),
			arg:    `true`, pass: true},
		{name: "declared latin-1", key: "is-xml", actual: str(`<?xml version="1.0" encoding="ISO-8859-1"?><p>café</p>`), arg: `null`, pass: true},
		{name: "byte order mark", key: "is-xml", actual: str("\ufeff<p/>"), arg: `null`, pass: true},
		{name: "root by name", key: "is-xml", actual: str(`<note/>`), arg: `{"root":"note"}`, pass: true},
		{name: "root as written", key: "is-xml", actual: str(soap), arg: `{"root":"soap:Envelope"}`, pass: true},
		{name: "root by local name", key: "is-xml", actual: str(soap), arg: `{"root":"Envelope"}`, pass: true},
		{name: "root with namespace", key: "is-xml", actual: str(soap), arg: `{"root":"{http://www.w3.org/2003/05/soap-envelope}Envelope"}`, pass: true},
		{name: "root differs", key: "is-xml", actual: str(`<memo><to/></memo>`), arg: `{"root":"note"}`,
			want: map[string]string{"expected": "note", "actual": "memo", "note": "the root element is <memo>, expected <note>"}},
		{name: "mismatched tags", key: "is-xml", actual: str("<note>\n  <to>Ada</from>\n</note>"), arg: `null`,
			want: map[string]string{"note": "not valid XML at line 2, column 17: element <to> closed by </from>", "line": "2", "column": "17"}},
		{name: "unclosed at the end", key: "is-xml", actual: str(`<note><to>Ada</to>`), arg: `null`,
			want: map[string]string{"note": "unexpected EOF"}},
		{name: "two roots", key: "is-xml", actual: str("<a/>\n<b/>"), arg: `null`,
			want: map[string]string{"note": "at line 2, column 1: a second root element <b>"}},
		{name: "text outside the root", key: "is-xml", actual: str(`Here you go: <a/>`), arg: `null`,
			want: map[string]string{"note": "at line 1, column 1: text outside the root element"}},
		{name: "text after the root", key: "is-xml", actual: str(`<a/> trailing`), arg: `null`,
			want: map[string]string{"note": "at line 1, column 6: text outside the root element"}},
		{name: "only a comment", key: "is-xml", actual: str(`<!-- nothing -->`), arg: `null`,
			want: map[string]string{"note": "no root element"}},
		{name: "empty", key: "is-xml", actual: str(``), arg: `null`,
			want: map[string]string{"note": "no root element"}},
		{name: "undefined entity", key: "is-xml", actual: str(`<p>a&nbsp;b</p>`), arg: `null`,
			want: map[string]string{"note": "invalid character entity &nbsp;"}},
		{name: "bare ampersand", key: "is-xml", actual: str(`<p>fish & chips</p>`), arg: `null`,
			want: map[string]string{"note": "not valid XML at line 1"}},
		{name: "parse error wins over root", key: "is-xml", actual: str(`<note>`), arg: `{"root":"note"}`,
			want: map[string]string{"note": "not valid XML"}, absent: []string{"expected"}},
		{name: "not text", key: "is-xml", actual: `["<a/>"]`, arg: `null`,
			want: map[string]string{"note": "is-xml checks text, but the value is an array"}},
	})
}
