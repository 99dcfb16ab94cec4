package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/mcptest/mcptest/plugins/matchers/internal/schemaguard"
	"github.com/mcptest/mcptest/sdk"
)

// matchJSON passes when the text parses as exactly one JSON value and, when
// the argument carries a schema, the parsed value matches it.
func matchJSON(ctx context.Context, f *family, actual json.RawMessage, opts options) (sdk.MatchResult, error) {
	text, err := textOf("is-json", actual)
	if err != nil {
		return judged(err)
	}
	if opts.schema == nil && json.Valid([]byte(text)) {
		// The common case, checked without building the value: a large
		// response costs one scan and no allocation per element.
		return sdk.Pass(), nil
	}
	v, at, reason := parseJSONText(text)
	if reason != "" {
		return parseFailure("JSON", text, positionAt(text, at), reason), nil
	}
	if opts.schema == nil {
		return sdk.Pass(), nil
	}
	errs, err := f.validate(ctx, opts.schema, v)
	if err != nil {
		return sdk.MatchResult{}, err
	}
	if len(errs) == 0 {
		return sdk.Pass(), nil
	}
	return sdk.Fail(sdk.Failure{
		Actual: shownText(text),
		Note:   errorsNote("the JSON document does not match the schema", errs),
		Extra:  schemaguard.FailureFields(errs),
	}), nil
}

// parseJSONText decodes text as exactly one JSON value, numbers kept exact
// (as the schema validator expects them). When it does not parse, reason
// says why and at is the byte offset of the problem.
func parseJSONText(text string) (v any, at int, reason string) {
	if strings.TrimSpace(text) == "" {
		return nil, 0, "the text is empty"
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			// Offset counts the bytes read up to and including the bad one.
			return nil, int(se.Offset) - 1, se.Error()
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, len(text), "unexpected end of text: a string, array or object is not closed"
		}
		return nil, int(dec.InputOffset()), err.Error()
	}
	end := int(dec.InputOffset())
	if rest := strings.TrimLeft(text[end:], " \t\r\n"); rest != "" {
		return nil, len(text) - len(rest), "unexpected text after the JSON value"
	}
	return v, 0, ""
}
