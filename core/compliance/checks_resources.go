package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/core/probe"
)

// maxResourceReads bounds the resources R02 reads.
const maxResourceReads = 20

// registerResources adds the checks of this file to the registry (loadRegistry).
func registerResources() {
	register(
		&Check{ID: "R01", Title: "Reading an unknown resource is an error: -32002 (legacy) or -32602 (modern)", Severity: Should,
			Section: "server/resources.mdx#error-handling", Needs: []Capability{CapResources}, run: checkR01},
		&Check{ID: "R02", Title: "Listed resources read back as text or base64 blob contents; templates are valid RFC 6570", Severity: Must,
			Section: "server/resources.mdx#data-types", Needs: []Capability{CapResources}, run: checkR02},
		&Check{ID: "R03", Title: "resources/subscribe is served exactly when subscribe is declared", Severity: Must,
			Section: "server/resources.mdx#subscriptions", Eras: []Era{Legacy}, Needs: []Capability{CapResources}, run: checkR03},
	)
}

// missingURI cannot name a real resource.
const missingURI = "mcp-test://nonexistent/mcptest-probe"

// checkR01 reads a resource that does not exist.
func checkR01(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	r, err := s.Call(ctx, "resources/read", map[string]any{"uri": missingURI})
	name := "resources/read " + missingURI
	if err != nil {
		e.add(Finding{Name: name, Status: Fail, Must: true, Expected: "an error", Actual: actual(r, err), Note: "every request must be answered"})
		return nil
	}
	code, isErr := r.Msg.ErrorCode()
	if probe.IsModern(e.Revision) {
		if isErr && code == -32002 {
			e.add(Finding{Name: name, Status: Fail, Must: true, Expected: "error -32602", Actual: json.RawMessage(r.Msg.Raw),
				Note: "-32002 must not be used from 2026-07-28"})
			return nil
		}
		expectCode(e, name, r, nil, -32602, false, "")
		return nil
	}
	switch {
	case isErr && code == -32002:
		e.pass(name, "")
	case isErr:
		e.fail(name, "error -32002 (resource not found)", json.RawMessage(r.Msg.Raw), "")
	default:
		e.fail(name, "error -32002 (resource not found)", json.RawMessage(r.Msg.Raw), "a resource that does not exist was served")
	}
	return nil
}

// checkR02 lists resources and templates and reads what is listed.
func checkR02(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	resources, _, err := listAll(ctx, s, "resources/list", "resources")
	if err != nil {
		return err
	}
	templates, _, terr := listAll(ctx, s, "resources/templates/list", "resourceTemplates")
	if terr != nil {
		// Some servers answer the template list with -32601 when they have
		// none; only the resources are judged then.
		templates = nil
	}
	if len(resources) == 0 && len(templates) == 0 {
		return notApplicable("the server lists no resources and no templates")
	}
	for i, raw := range resources {
		m, ok := object(raw)
		label := fmt.Sprintf("resources[%d]", i)
		if !ok {
			e.fail(label, "an object", json.RawMessage(raw), "")
			continue
		}
		uri, okURI := str(m, "uri")
		_, okName := str(m, "name")
		if !okURI || !okName {
			e.fail(label, `string "uri" and "name"`, json.RawMessage(raw), "")
			continue
		}
		if i >= maxResourceReads {
			continue
		}
		readResource(ctx, e, s, uri)
	}
	for i, raw := range templates {
		m, ok := object(raw)
		label := fmt.Sprintf("resourceTemplates[%d]", i)
		if !ok {
			e.fail(label, "an object", json.RawMessage(raw), "")
			continue
		}
		tpl, okT := str(m, "uriTemplate")
		if _, okName := str(m, "name"); !okT || !okName {
			e.fail(label, `string "uriTemplate" and "name"`, json.RawMessage(raw), "")
			continue
		}
		if p := uriTemplateProblem(tpl); p != "" {
			e.fail("template "+tpl, "an RFC 6570 URI template", tpl, p)
			continue
		}
		e.pass("template "+tpl, "")
	}
	return nil
}

// readResource reads one listed resource and checks its contents.
func readResource(ctx context.Context, e *Env, s *Session, uri string) {
	name := "resources/read " + uri
	r, err := s.Call(ctx, "resources/read", map[string]any{"uri": uri})
	if err != nil || r.Msg.Result == nil {
		e.fail(name, "the contents of a listed resource", actual(r, err), "a resource the server lists must be readable")
		return
	}
	res, _ := object(r.Msg.Result)
	var contents []json.RawMessage
	if json.Unmarshal(res["contents"], &contents) != nil {
		e.fail(name, `a "contents" array`, json.RawMessage(r.Msg.Result), "")
		return
	}
	for i, c := range contents {
		m, ok := object(c)
		if !ok {
			e.fail(name, "contents objects", json.RawMessage(c), fmt.Sprintf("contents[%d] is not an object", i))
			return
		}
		if p := resourceContentsProblem(m); p != "" {
			e.fail(name, "text or base64 blob contents", json.RawMessage(c), fmt.Sprintf("contents[%d] %s", i, p))
			return
		}
	}
	e.pass(name, "")
}

// uriTemplateProblem checks the syntax of an RFC 6570 template: balanced
// braces, known operators, and variable names made of the allowed
// characters with optional prefix or explode modifiers.
func uriTemplateProblem(t string) string {
	rest := t
	for {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			return ""
		}
		if rest[open] == '}' {
			return "a '}' without its '{'"
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return "a '{' that is never closed"
		}
		expr := rest[open+1 : open+end]
		if p := expressionProblem(expr); p != "" {
			return fmt.Sprintf("expression {%s}: %s", expr, p)
		}
		rest = rest[open+end+1:]
	}
}

func expressionProblem(expr string) string {
	if expr == "" {
		return "empty expression"
	}
	if strings.ContainsAny(expr[:1], "+#./;?&") {
		expr = expr[1:]
	} else if strings.ContainsAny(expr[:1], "=,!@|") {
		return "reserved operator " + expr[:1]
	}
	for _, v := range strings.Split(expr, ",") {
		name := v
		if i := strings.IndexByte(v, ':'); i >= 0 {
			name = v[:i]
			n := v[i+1:]
			if n == "" || len(n) > 4 || strings.Trim(n, "0123456789") != "" || n[0] == '0' {
				return "bad prefix length in " + v
			}
		} else {
			name = strings.TrimSuffix(v, "*")
		}
		if !validVarname(name) {
			return fmt.Sprintf("bad variable name %q", name)
		}
	}
	return ""
}

func validVarname(s string) bool {
	if s == "" || s[0] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.':
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// checkR03 subscribes to a resource and compares with the declaration.
func checkR03(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	uri := missingURI
	if resources, _, err := listAll(ctx, s, "resources/list", "resources"); err == nil {
		for _, raw := range resources {
			if m, ok := object(raw); ok {
				if u, ok := str(m, "uri"); ok {
					uri = u
					break
				}
			}
		}
	}
	declared := e.Info.capFlag(CapResources, "subscribe")
	r, err := s.Call(ctx, "resources/subscribe", map[string]any{"uri": uri})
	name := "resources/subscribe " + uri
	switch {
	case err != nil:
		e.fail(name, "an answer", actual(r, err), "every request must be answered")
	case declared && r.Msg.Result != nil:
		e.pass(name+" (subscribe declared)", "")
		_, _ = s.Call(ctx, "resources/unsubscribe", map[string]any{"uri": uri})
	case declared:
		e.fail(name+" (subscribe declared)", "a result", json.RawMessage(r.Msg.Raw), "the server declares subscribe but refuses it")
		// Refused: there is no subscription to leave behind.
		e.markUnchanged()
	case r.Msg.Result != nil:
		e.warn(name+" (subscribe not declared)", "an error", json.RawMessage(r.Msg.Raw), "the server accepts subscriptions it does not declare")
	default:
		e.pass(name+" (subscribe not declared)", "refused")
	}
	return nil
}
