package plan

import (
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/tokens"
)

// stepChecks checks the long form of expect of a selected test against
// what the test can do, so that a check that could never run is a located
// error before any server starts rather than a silent pass: header checks
// need a URL server (stdio has no headers); a named tokenizer must be one
// this build serves; the counting mode must be known. A composition makes
// several calls, so it has no one response whose headers could be checked.
func (b *builder) stepChecks(t *Test) {
	eo := t.Options.ExpectOptions
	if eo == nil {
		return
	}
	at := func(field, msg, hint string) {
		e := &config.Error{File: eo.Pos.File, Line: eo.Pos.Line, Col: eo.Pos.Col,
			Pointer: eo.Pos.Pointer + "/" + field, Msg: msg, Hint: hint}
		if b.stepErrs == nil {
			b.stepErrs = map[string]bool{}
		}
		if k := e.Error(); !b.stepErrs[k] {
			b.stepErrs[k] = true
			b.errs = append(b.errs, e)
		}
	}
	hasHeaders := len(eo.ResponseHeaders) > 0 || len(eo.ResponseHeadersAbsent) > 0
	if (t.Kind == KindComposition || t.Kind == KindList) && hasHeaders {
		at("response_headers", fmt.Sprintf("header checks judge the HTTP response of one call; a %s test makes several", t.Kind),
			"check headers in a tool test of a url: server")
	} else if srv := t.Server; srv != nil && srv.Kind != config.URLServer {
		for _, field := range []string{"response_headers", "response_headers_absent"} {
			if field == "response_headers" && len(eo.ResponseHeaders) == 0 ||
				field == "response_headers_absent" && len(eo.ResponseHeadersAbsent) == 0 {
				continue
			}
			at(field, fmt.Sprintf("%s needs a URL server; server %q is a %s server, whose responses have no HTTP headers", field, srv.Name, srv.Kind),
				"check headers in a test of a url: server")
		}
	}
	tb := eo.MaxResponseTokens
	if tb == nil {
		return
	}
	switch err := tokens.Check(tb.Tokenizer); {
	case errors.Is(err, tokens.ErrNotBuilt):
		b.gaps.add(config.Pos{File: eo.Pos.File, Line: eo.Pos.Line, Col: eo.Pos.Col, Pointer: eo.Pos.Pointer + "/max_response_tokens/tokenizer"},
			"tokenizer "+tokens.Normalize(tb.Tokenizer), "this build counts tokens with the approximation only; leave tokenizer unset to use it")
	case err != nil:
		at("max_response_tokens/tokenizer", err.Error(), "leave tokenizer unset for the approximation (four characters a token)")
	}
	if err := tokens.CheckMode(tb.Mode); err != nil {
		at("max_response_tokens/mode", err.Error(), "")
	}
}
