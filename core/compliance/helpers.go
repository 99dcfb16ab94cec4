package compliance

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcptest/mcptest/core/probe"
)

// maxPages bounds how many pages a list is followed for, so a server that
// hands out cursors forever cannot keep a check running.
const maxPages = 200

// cheapMethod is a request every server of the era must answer: ping on
// the legacy era, server/discover on the modern one (which removed ping).
func cheapMethod(e *Env) string {
	if probe.IsModern(e.Revision) {
		return "server/discover"
	}
	return "ping"
}

// actual describes what came back for a request, for a finding's Actual.
func actual(r *Reply, err error) any {
	switch {
	case err != nil && r != nil && r.HTTP != nil:
		return fmt.Sprintf("%v (HTTP %d)", err, r.HTTP.Status)
	case err != nil:
		return err.Error()
	case r == nil || r.Msg == nil:
		return "no response"
	}
	return json.RawMessage(r.Msg.Raw)
}

// errorCode returns the code of an error reply.
func errorCode(r *Reply) (int64, bool) {
	if r == nil || r.Msg == nil {
		return 0, false
	}
	return r.Msg.ErrorCode()
}

// expectCode records whether r is an error with code want. A violation is
// a failure, or a warning when soft.
func expectCode(e *Env, name string, r *Reply, err error, want int64, soft bool, note string) bool {
	if code, ok := errorCode(r); ok && err == nil && code == want {
		e.pass(name, "")
		return true
	}
	exp := fmt.Sprintf("a JSON-RPC error with code %d", want)
	if soft {
		e.warn(name, exp, actual(r, err), note)
	} else {
		e.fail(name, exp, actual(r, err), note)
	}
	return false
}

// stillServes records whether the session still answers a cheap request,
// which proves the server survived what the check sent before and has
// read past it: whatever it left unanswered it has abandoned (settle).
func stillServes(ctx context.Context, e *Env, s *Session) {
	r, err := s.Call(ctx, cheapMethod(e), nil)
	if err == nil && r.Msg.Result != nil {
		e.pass("server still answers afterwards", "")
		s.settle()
		return
	}
	e.fail("server still answers afterwards", "a result for "+cheapMethod(e), actual(r, err),
		"the server must keep working after receiving a bad message")
}

// object decodes a JSON object into its members; ok is false for anything
// else.
func object(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if !startsWithBrace(raw) {
		return nil, false
	}
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

func startsWithBrace(raw json.RawMessage) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return true
		}
		return false
	}
	return false
}

// str decodes a JSON string member; ok is false when absent or not a
// string.
func str(m map[string]json.RawMessage, key string) (string, bool) {
	raw, present := m[key]
	if !present {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// listPage is one page of a list method.
type listPage struct {
	items []json.RawMessage
	next  string
	more  bool
}

// listAll follows a list method's cursors to the end and returns every
// item. problems lists pagination faults found on the way (a repeated
// cursor, a malformed page); err means a request failed outright.
func listAll(ctx context.Context, s *Session, method, key string) (items []json.RawMessage, problems []string, err error) {
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page >= maxPages {
			problems = append(problems, fmt.Sprintf("%s still returned a nextCursor after %d pages", method, maxPages))
			return items, problems, nil
		}
		var params map[string]any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		r, err := s.Call(ctx, method, params)
		if err != nil {
			return items, problems, fmt.Errorf("%s: %w", method, err)
		}
		if r.Msg.Error != nil {
			return items, problems, fmt.Errorf("%s answered with an error: %s", method, r.Msg.Raw)
		}
		p, perr := parsePage(r.Msg.Result, key)
		if perr != "" {
			problems = append(problems, method+": "+perr)
			return items, problems, nil
		}
		items = append(items, p.items...)
		if !p.more {
			return items, problems, nil
		}
		if seen[p.next] {
			problems = append(problems, fmt.Sprintf("%s returned the cursor %q twice, so following it never ends", method, p.next))
			return items, problems, nil
		}
		seen[p.next] = true
		cursor = p.next
	}
}

func parsePage(result json.RawMessage, key string) (listPage, string) {
	m, ok := object(result)
	if !ok {
		return listPage{}, "the result is not an object"
	}
	var p listPage
	raw, ok := m[key]
	if !ok {
		return p, fmt.Sprintf("the result has no %q array", key)
	}
	if err := json.Unmarshal(raw, &p.items); err != nil {
		return p, fmt.Sprintf("%q is not an array", key)
	}
	if nc, present := m["nextCursor"]; present && string(nc) != "null" {
		if err := json.Unmarshal(nc, &p.next); err != nil {
			return p, "nextCursor is not a string"
		}
		// An empty cursor cannot be sent back meaningfully; treat it as the
		// end rather than loop on it.
		p.more = p.next != ""
	}
	return p, ""
}

// listMethod is a list request a declared capability implies.
type listMethod struct {
	capability Capability
	method     string
	key        string
}

// allLists are the list methods, by the capability that implies them.
var allLists = []listMethod{
	{CapTools, "tools/list", "tools"},
	{CapResources, "resources/list", "resources"},
	{CapResources, "resources/templates/list", "resourceTemplates"},
	{CapPrompts, "prompts/list", "prompts"},
}

// declaredLists returns the list methods of the declared capabilities.
func declaredLists(e *Env) []listMethod {
	var out []listMethod
	for _, l := range allLists {
		if e.Info.Declares(l.capability) {
			out = append(out, l)
		}
	}
	return out
}
