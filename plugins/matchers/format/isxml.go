package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

// matchXML passes when the text is one well-formed XML document and, when
// the argument names a root, its root element has that name.
func matchXML(_ context.Context, _ *family, actual json.RawMessage, opts options) (sdk.MatchResult, error) {
	text, err := textOf("is-xml", actual)
	if err != nil {
		return judged(err)
	}
	root, at, reason := parseXMLText(text)
	if reason != "" {
		return parseFailure("XML", text, positionAt(text, at), reason), nil
	}
	if opts.root == "" || root.matches(opts.root) {
		return sdk.Pass(), nil
	}
	return sdk.Fail(sdk.Failure{
		Expected: sdk.JSON(opts.root),
		Actual:   sdk.JSON(root.written),
		Note:     fmt.Sprintf("the root element is <%s>, expected <%s>", root.written, opts.root),
	}), nil
}

// rootName is a document's root element name, as written and as resolved.
type rootName struct {
	// written is the name as it appears in the tag, prefix included.
	written string
	// name has the prefix resolved to its namespace, when declared.
	name xml.Name
}

// matches reports whether want names this root: the name as written
// ("soap:Envelope"), its local part ("Envelope"), or the local part with
// its namespace in braces ("{http://...}Envelope").
func (r rootName) matches(want string) bool {
	return want == r.written || want == r.name.Local ||
		(r.name.Space != "" && want == "{"+r.name.Space+"}"+r.name.Local)
}

// parseXMLText reads text to the end with a strict streaming parser and
// checks it holds exactly one root element with nothing but markup and
// white space around it. It returns the root's name, or why the text is
// not well-formed and the byte offset where that was found.
//
// Entities beyond the five predefined ones are errors, including ones an
// internal DTD declares: encoding/xml does not expand them, which also
// keeps entity-expansion bombs harmless.
func parseXMLText(text string) (root rootName, at int, reason string) {
	// A byte order mark is not part of the document; the JSON string was
	// already decoded, so it can only be a leftover.
	bom := 0
	if strings.HasPrefix(text, "\ufeff") {
		bom = len("\ufeff")
	}
	d := xml.NewDecoder(strings.NewReader(text[bom:]))
	d.Strict = true
	// The text is already Unicode (it arrived as a JSON string), so a
	// declared encoding describes bytes that no longer exist; read it as is.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	depth, roots := 0, 0
	for {
		start := bom + int(d.InputOffset())
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return rootName{}, bom + int(d.InputOffset()), syntaxReason(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				at := start + leadingSpace(text[start:])
				if roots > 1 {
					return rootName{}, at, fmt.Sprintf("a second root element <%s> (a document has exactly one)", t.Name.Local)
				}
				root = rootName{written: writtenName(text[at:]), name: t.Name}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && strings.TrimSpace(string(t)) != "" {
				return rootName{}, start + leadingSpace(text[start:]), "text outside the root element"
			}
		}
	}
	if roots == 0 {
		return rootName{}, len(text), "no root element"
	}
	return root, 0, ""
}

// syntaxReason is the parser's own words for err, without the line prefix
// the position already gives.
func syntaxReason(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// writtenName reads the element name from the tag at the start of s.
func writtenName(s string) string {
	s = strings.TrimPrefix(s, "<")
	if i := strings.IndexAny(s, " \t\r\n/>"); i >= 0 {
		s = s[:i]
	}
	return s
}

// leadingSpace counts the XML white space bytes at the start of s.
func leadingSpace(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t\r\n"))
}
