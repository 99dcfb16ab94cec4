package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/mcptest/mcptest/core/probe"
)

// registerStateless adds the checks of this file to the registry (loadRegistry).
func registerStateless() {
	modern := []Era{Modern}
	register(
		&Check{ID: "S01", Title: "server/discover answers with supportedVersions, capabilities and valid caching hints", Severity: Must,
			Section: "server/discover.mdx", Eras: modern, run: checkS01},
		&Check{ID: "S02", Title: "Every result carries a recognised resultType", Severity: Must,
			Section: "basic/index.mdx#result-type", Eras: modern, run: checkS02},
		&Check{ID: "S03", Title: "A request without protocolVersion or clientCapabilities in _meta gets -32602 (HTTP 400); clientInfo is optional", Severity: Must,
			Section: "basic/index.mdx#meta", Eras: modern, run: checkS03},
		&Check{ID: "S04", Title: "An unsupported protocol version gets -32022 naming the supported and requested versions (HTTP 400)", Severity: Must,
			Section: "basic/versioning.mdx#protocol-version-negotiation", Eras: modern, run: checkS04},
		&Check{ID: "S05", Title: "Missing or mismatched Mcp-Method / Mcp-Name headers get 400 and -32020", Severity: Must,
			Section: "basic/transports/streamable-http.mdx#server-validation", Eras: modern, Transports: []Transport{HTTP}, run: checkS05},
		&Check{ID: "S06", Title: "The server sends no JSON-RPC requests of its own", Severity: Must,
			Section: "basic/patterns/mrtr.mdx", Eras: modern, run: checkS06},
		&Check{ID: "S08", Title: "List results carry ttlMs >= 0 and a cacheScope of public or private, the same on every page", Severity: Must,
			Section: "server/utilities/caching.mdx", Eras: modern, Needs: []Capability{CapTools, CapResources, CapPrompts}, run: checkS08},
		&Check{ID: "S11", Title: "No error code from the reserved range other than the defined ones; never -32002 or -32042", Severity: Must,
			Section: "basic/index.mdx#error-codes", Eras: modern, run: checkS11},
	)
}

// sendModern sends one request whose _meta and headers the caller shapes,
// on a fresh exchange, and returns its response.
func sendModern(ctx context.Context, e *Env, s *Session, id any, method string, params map[string]any, edit func(http.Header)) (*Reply, error) {
	body := probe.Request(id, method, params)
	idJSON := mustMarshal(id)
	match := func(m *probe.Message) bool { return m.IsResponse() && string(compactJSON(m.ID)) == string(idJSON) }
	if s.proc != nil {
		if _, err := s.Send(ctx, body, method, params, nil); err != nil {
			return nil, err
		}
		m, err := s.Wait(ctx, e.opts.Timeout, match)
		return &Reply{Msg: m}, err
	}
	h := probe.PostHeaders(e.Revision, "", method, params)
	if edit != nil {
		edit(h)
	}
	hr, err := rawPost(ctx, e, h, body)
	if err != nil {
		return nil, err
	}
	if m := responseIn(hr); m != nil {
		return &Reply{Msg: m, HTTP: hr}, nil
	}
	return &Reply{HTTP: hr}, fmt.Errorf("%w: the HTTP reply (status %d) carried none", errNoResponse, hr.Status)
}

// responseIn finds the JSON-RPC response in an HTTP reply.
func responseIn(hr *probe.HTTPResponse) *probe.Message {
	if hr.SSE {
		for _, ev := range hr.Events {
			if m, err := probe.Parse([]byte(ev.Data)); err == nil && m.IsResponse() {
				return m
			}
		}
		return nil
	}
	if m, err := probe.Parse(hr.Body); err == nil && m.IsResponse() {
		return m
	}
	return nil
}

// withoutMeta returns modern _meta with key left out.
func withoutMeta(e *Env, key string) map[string]any {
	meta := probe.ModernMeta(e.Revision, nil, e.opts.ClientVersion)
	delete(meta, key)
	return meta
}

// firstDeclaredList is a cheap request that needs _meta: the list of a
// declared capability, or server/discover.
func firstDeclaredList(e *Env) string {
	if ls := declaredLists(e); len(ls) > 0 {
		return ls[0].method
	}
	return "server/discover"
}

// checkS01 validates the discover result.
func checkS01(ctx context.Context, e *Env) error {
	s, err := e.open(ctx)
	if err != nil {
		return err
	}
	r, err := s.Call(ctx, "server/discover", nil)
	if err != nil || r.Msg.Result == nil {
		e.fail("server/discover", "a result", actual(r, err), "servers must implement server/discover")
		return nil
	}
	res, _ := object(r.Msg.Result)
	var versions []string
	switch err := json.Unmarshal(res["supportedVersions"], &versions); {
	case err != nil || len(versions) == 0:
		e.fail("supportedVersions", "a non-empty array of revisions", rawOr(res["supportedVersions"]), "")
	case !slices.Contains(versions, e.Revision):
		e.fail("supportedVersions", "to include "+e.Revision, versions, "the server answered a "+e.Revision+" request without listing it")
	default:
		e.pass("supportedVersions", fmt.Sprint(versions))
	}
	if _, ok := object(res["capabilities"]); !ok {
		e.fail("capabilities", "an object", rawOr(res["capabilities"]), "")
	} else {
		e.pass("capabilities", "")
	}
	if p := resultTypeProblem(r.Msg.Result); p != "" {
		e.fail("resultType", `"complete"`, rawOr(res["resultType"]), p)
	}
	if p := cachingProblem(res); p != "" {
		e.fail("caching hints", "ttlMs >= 0 and cacheScope public or private", json.RawMessage(r.Msg.Result), p)
	}
	return nil
}

// resultTypeProblem checks a result's resultType.
func resultTypeProblem(result json.RawMessage) string {
	res, ok := object(result)
	if !ok {
		return "the result is not an object"
	}
	rt, ok := str(res, "resultType")
	switch {
	case !ok:
		return `every result must carry "resultType"`
	case rt != "complete" && rt != "input_required":
		return fmt.Sprintf("unknown resultType %q", rt)
	}
	return ""
}

// cachingProblem checks ttlMs and cacheScope where present.
func cachingProblem(res map[string]json.RawMessage) string {
	if raw, ok := res["ttlMs"]; ok {
		n, isInt := probe.IntCode(raw)
		if !isInt || n < 0 {
			return fmt.Sprintf("ttlMs must be a non-negative integer, got %s", raw)
		}
	}
	if _, ok := res["cacheScope"]; ok {
		if sc, _ := str(res, "cacheScope"); sc != "public" && sc != "private" {
			return fmt.Sprintf("cacheScope must be public or private, got %s", res["cacheScope"])
		}
	}
	return ""
}

// modernTour runs a session through discover, every declared list and a
// few requests that must fail, so the checks can look at what came back.
func modernTour(ctx context.Context, e *Env) (*Session, error) {
	s, err := e.open(ctx)
	if err != nil {
		return nil, err
	}
	_, _ = s.Call(ctx, "server/discover", nil)
	for _, l := range declaredLists(e) {
		_, _ = s.Call(ctx, l.method, nil)
	}
	_, _ = s.Call(ctx, "x-mcptest/unknown-method", nil)
	if e.Info.Declares(CapTools) {
		_, _ = s.Call(ctx, "tools/call", map[string]any{"name": "mcptest-no-such-tool", "arguments": map[string]any{}})
	}
	if e.Info.Declares(CapResources) {
		_, _ = s.Call(ctx, "resources/read", map[string]any{"uri": missingURI})
	}
	if e.Info.Declares(CapPrompts) {
		_, _ = s.Call(ctx, "prompts/get", map[string]any{"name": "mcptest-no-such-prompt", "arguments": map[string]any{}})
	}
	s.Quiet(ctx, quietWindow)
	return s, nil
}

// checkS02 looks at the resultType of every result of a tour.
func checkS02(ctx context.Context, e *Env) error {
	s, err := modernTour(ctx, e)
	if err != nil {
		return err
	}
	n, bad := 0, 0
	for _, m := range s.Received() {
		if !m.IsResponse() || m.Result == nil {
			continue
		}
		n++
		if p := resultTypeProblem(m.Result); p != "" {
			bad++
			e.fail("response "+orAbsent(m.ID), `a resultType of "complete" or "input_required"`, json.RawMessage(m.Raw), p)
		}
	}
	if n == 0 {
		return fmt.Errorf("the server returned no results to judge")
	}
	if bad == 0 {
		e.pass(fmt.Sprintf("all %d results carry resultType", n), "")
	}
	return nil
}

// checkS03 leaves required _meta fields out, one at a time.
func checkS03(ctx context.Context, e *Env) error {
	s, err := e.open(ctx)
	if err != nil {
		return err
	}
	method := firstDeclaredList(e)
	cases := []struct {
		name, drop string
		ok         bool
	}{
		{"without " + probe.MetaProtocolVersion, probe.MetaProtocolVersion, false},
		{"without " + probe.MetaClientCapabilities, probe.MetaClientCapabilities, false},
		{"without " + probe.MetaClientInfo + " (optional)", probe.MetaClientInfo, true},
	}
	for i, c := range cases {
		r, err := sendModern(ctx, e, s, fmt.Sprintf("s03-%d", i), method, map[string]any{"_meta": withoutMeta(e, c.drop)}, nil)
		name := method + " " + c.name
		if c.ok {
			if err != nil || r.Msg.Result == nil {
				e.fail(name, "a result", actual(r, err), "clientInfo is recommended, not required")
			} else {
				e.pass(name, "")
			}
			continue
		}
		code, isErr := errorCode(r)
		accepted := isErr && (code == -32602 || (c.drop == probe.MetaProtocolVersion && e.Transport == HTTP && code == -32020))
		switch {
		case c.drop == probe.MetaProtocolVersion && err == nil && r.Msg.Result != nil && resultTypeProblem(r.Msg.Result) != "":
			// Without a version a dual-era server cannot tell the request
			// from legacy traffic; serving it the legacy way is tolerable.
			e.warn(name, "error -32602", json.RawMessage(r.Msg.Raw), "the server served it as a legacy request; a modern request must name its version")
		case err != nil || !accepted:
			e.fail(name, "error -32602", actual(r, err), "the field is required on every request")
		case r.HTTP != nil && r.HTTP.Status != http.StatusBadRequest:
			e.fail(name, "HTTP 400", fmt.Sprintf("HTTP %d", r.HTTP.Status), "")
		default:
			e.pass(name, "")
		}
	}
	return nil
}

// checkS04 asks for a revision that does not exist.
func checkS04(ctx context.Context, e *Env) error {
	s, err := e.open(ctx)
	if err != nil {
		return err
	}
	const bogus = "1900-01-01"
	meta := probe.ModernMeta(bogus, nil, e.opts.ClientVersion)
	method := firstDeclaredList(e)
	r, err := sendModern(ctx, e, s, "s04", method, map[string]any{"_meta": meta}, func(h http.Header) {
		h.Set(probe.HeaderProtocolVersion, bogus)
	})
	name := method + " with protocol version " + bogus
	code, isErr := errorCode(r)
	if err != nil || !isErr || code != -32022 {
		e.fail(name, "error -32022 (unsupported protocol version)", actual(r, err), "")
		return nil
	}
	var data struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	_ = json.Unmarshal(r.Msg.Error.Data, &data)
	switch {
	case len(data.Supported) == 0:
		e.fail(name, "error data listing the supported versions", json.RawMessage(r.Msg.Raw), "")
	case data.Requested != bogus:
		e.fail(name, fmt.Sprintf("error data naming the requested version %q", bogus), json.RawMessage(r.Msg.Raw), "")
	default:
		e.pass(name, "")
	}
	if r.HTTP != nil {
		if r.HTTP.Status == http.StatusBadRequest {
			e.pass("HTTP status", "400")
		} else {
			e.fail("HTTP status", "HTTP 400", fmt.Sprintf("HTTP %d", r.HTTP.Status), "")
		}
	}
	return nil
}

// checkS05 sends requests whose standard headers do not match the body.
func checkS05(ctx context.Context, e *Env) error {
	s, err := e.open(ctx)
	if err != nil {
		return err
	}
	meta := probe.ModernMeta(e.Revision, nil, e.opts.ClientVersion)
	method := firstDeclaredList(e)
	cases := []struct {
		name   string
		method string
		params map[string]any
		edit   func(http.Header)
	}{
		{"Mcp-Method missing", method, map[string]any{"_meta": meta}, func(h http.Header) { h.Del(probe.HeaderMethod) }},
		{"Mcp-Method naming another method", method, map[string]any{"_meta": meta}, func(h http.Header) { h.Set(probe.HeaderMethod, "x-mcptest/other") }},
	}
	if e.Info.Declares(CapTools) {
		cases = append(cases, struct {
			name   string
			method string
			params map[string]any
			edit   func(http.Header)
		}{"Mcp-Name naming another tool", "tools/call",
			map[string]any{"name": "mcptest-no-such-tool", "arguments": map[string]any{}, "_meta": meta},
			func(h http.Header) { h.Set(probe.HeaderName, "mcptest-other-tool") }})
	}
	for i, c := range cases {
		r, err := sendModern(ctx, e, s, fmt.Sprintf("s05-%d", i), c.method, c.params, c.edit)
		code, isErr := errorCode(r)
		switch {
		case r != nil && r.HTTP != nil && r.HTTP.Status != http.StatusBadRequest:
			e.fail(c.name, "HTTP 400 with error -32020", fmt.Sprintf("HTTP %d: %v", r.HTTP.Status, actual(r, err)), "")
		case err != nil || !isErr || code != -32020:
			e.fail(c.name, "error -32020 (header mismatch)", actual(r, err), "")
		default:
			e.pass(c.name, "")
		}
	}
	return nil
}

// checkS06 watches a tour for requests from the server.
func checkS06(ctx context.Context, e *Env) error {
	s, err := modernTour(ctx, e)
	if err != nil {
		return err
	}
	reqs := s.ServerRequests()
	for _, m := range reqs {
		e.fail("server request "+m.Method, "no requests from the server", json.RawMessage(m.Raw),
			"from 2026-07-28 the server asks for input inside results (MRTR), never with requests of its own")
	}
	if len(reqs) == 0 {
		e.pass("no server requests", "")
	}
	return nil
}

// checkS08 follows each declared list and checks every page's caching
// hints.
func checkS08(ctx context.Context, e *Env) error {
	s, err := e.open(ctx)
	if err != nil {
		return err
	}
	for _, l := range declaredLists(e) {
		scope, pages, problem := "", 0, ""
		cursor := ""
		for pages < maxPages && problem == "" {
			var params map[string]any
			if cursor != "" {
				params = map[string]any{"cursor": cursor}
			}
			r, err := s.Call(ctx, l.method, params)
			if err != nil || r.Msg.Result == nil {
				break // listing itself is judged by C01 and T02
			}
			pages++
			res, _ := object(r.Msg.Result)
			if p := cachingProblem(res); p != "" {
				problem = p
				break
			}
			sc, _ := str(res, "cacheScope")
			if pages > 1 && sc != scope {
				problem = fmt.Sprintf("cacheScope changed from %q to %q between pages", scope, sc)
				break
			}
			scope = sc
			p, _ := parsePage(r.Msg.Result, l.key)
			if !p.more {
				break
			}
			cursor = p.next
		}
		switch {
		case problem != "":
			e.fail(l.method, "valid caching hints on every page", nil, problem)
		case pages > 0:
			e.pass(l.method, fmt.Sprintf("%d pages", pages))
		}
	}
	if e.recorded() == 0 {
		return notApplicable("no list could be read")
	}
	return nil
}

// definedModernCodes are the codes of the reserved range the revision
// defines.
var definedModernCodes = map[int64]bool{-32020: true, -32021: true, -32022: true}

// checkS11 collects every error code of a tour.
func checkS11(ctx context.Context, e *Env) error {
	s, err := modernTour(ctx, e)
	if err != nil {
		return err
	}
	n := 0
	for _, m := range s.Received() {
		code, ok := m.ErrorCode()
		if !ok {
			continue
		}
		n++
		switch {
		case code == -32002 || code == -32042:
			e.fail(fmt.Sprintf("error code %d", code), "no -32002 or -32042", json.RawMessage(m.Raw), "this code was removed in 2026-07-28")
		case code <= -32020 && code >= -32099 && !definedModernCodes[code]:
			e.fail(fmt.Sprintf("error code %d", code), "only -32020, -32021 or -32022 from the reserved range", json.RawMessage(m.Raw), "")
		}
	}
	if n == 0 {
		return fmt.Errorf("the server returned no errors to judge")
	}
	if e.recorded() == 0 {
		e.pass(fmt.Sprintf("%d error codes", n), "")
	}
	return nil
}
