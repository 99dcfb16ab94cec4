package compliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcptest/mcptest/core/probe"
)

// registerTools adds the checks of this file to the registry (loadRegistry).
func registerTools() {
	register(
		&Check{ID: "T01", Title: "Each tool has a name and an object inputSchema that compiles (2020-12 unless $schema says otherwise)", Severity: Must,
			Section: "server/tools.mdx#tool", Needs: []Capability{CapTools}, run: checkT01},
		&Check{ID: "T02", Title: "Pagination ends without repeating a cursor; an invalid cursor gets -32602", Severity: Must,
			Section: "server/utilities/pagination.mdx", Needs: []Capability{CapTools, CapResources, CapPrompts}, run: checkT02},
		&Check{ID: "T03", Title: "Calling an unknown tool is a protocol error (-32602), not an isError result", Severity: Should,
			Section: "server/tools.mdx#error-handling", Needs: []Capability{CapTools}, run: checkT03},
		&Check{ID: "T04", Title: "A tool with an outputSchema returns structuredContent that conforms to it", Severity: Must,
			Section: "server/tools.mdx#output-schema", Since: probe.Rev20250618, Needs: []Capability{CapTools}, run: checkT04},
		&Check{ID: "T05", Title: "Tool results hold well-formed content blocks", Severity: Must,
			Section: "server/tools.mdx#tool-result", Needs: []Capability{CapTools}, run: checkT05},
		&Check{ID: "T06", Title: "Tool names are 1-128 characters of A-Z a-z 0-9 _ - . and unique", Severity: Should,
			Section: "server/tools.mdx#tool-names", Since: probe.Rev20251125, Needs: []Capability{CapTools}, run: checkT06},
		&Check{ID: "T07", Title: "A wrongly typed argument gives an isError result, not a protocol error", Severity: Should,
			Section: "server/tools.mdx#error-handling", Since: probe.Rev20251125, Needs: []Capability{CapTools}, run: checkT07},
	)
}

// checkT01 validates every listed tool's name and schemas.
func checkT01(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	tools, err := listedTools(ctx, s)
	if err != nil {
		return err
	}
	if len(tools) == 0 {
		return notApplicable("the server lists no tools")
	}
	bad := 0
	for i, t := range tools {
		label := fmt.Sprintf("tools[%d]", i)
		if t.Name != "" {
			label = "tool " + t.Name
		}
		if p := toolProblem(t); p != "" {
			bad++
			e.fail(label, "a name and an object inputSchema that compiles", nil, p)
		}
	}
	if bad == 0 {
		e.pass(fmt.Sprintf("all %d tools well formed", len(tools)), "")
	}
	return nil
}

// toolProblem says what is wrong with a tool definition, or "".
func toolProblem(t toolInfo) string {
	m, ok := object(t.Raw)
	if !ok {
		return "the entry is not an object"
	}
	if name, ok := str(m, "name"); !ok || name == "" {
		return `"name" must be a non-empty string`
	}
	if p := schemaProblem("inputSchema", t.Input, true); p != "" {
		return p
	}
	if t.Output != nil {
		if p := schemaProblem("outputSchema", t.Output, false); p != "" {
			return p
		}
	}
	return ""
}

// schemaProblem checks one of a tool's schemas: present (when required),
// an object of type "object", and compilable.
func schemaProblem(which string, raw json.RawMessage, required bool) string {
	if raw == nil {
		if required {
			return which + " is missing"
		}
		return ""
	}
	m, ok := object(raw)
	if !ok {
		return which + " must be a JSON object (got " + truncate(string(raw), 40) + ")"
	}
	if typ, _ := str(m, "type"); typ != "object" {
		return which + ` must have "type": "object"`
	}
	if _, err := compileSchema(raw); err != nil {
		if errors.Is(err, errExternalRef) {
			return ""
		}
		return which + ": " + err.Error()
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// checkT02 follows every declared list to its end, then sends a bogus
// cursor to the first one.
func checkT02(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	lists := declaredLists(e)
	for _, l := range lists {
		items, problems, err := listAll(ctx, s, l.method, l.key)
		if err != nil {
			e.fail(l.method, "every page answered", err.Error(), "")
			continue
		}
		for _, p := range problems {
			e.fail(l.method, nil, nil, p)
		}
		if dup := duplicateKey(items, keyOf(l.key)); dup != "" {
			e.fail(l.method, "each item listed once", dup+" appears twice", "pages must not overlap")
			continue
		}
		if len(problems) == 0 {
			e.pass(fmt.Sprintf("%s: %d items", l.method, len(items)), "")
		}
	}
	if len(lists) > 0 {
		l := lists[0]
		r, err := s.Call(ctx, l.method, map[string]any{"cursor": "!!mcptest-bogus-cursor"})
		expectCode(e, l.method+" with an invalid cursor", r, err, -32602, true, "an invalid cursor should be refused as invalid params")
	}
	return nil
}

// keyOf is the member that identifies an item of a list.
func keyOf(listKey string) string {
	switch listKey {
	case "resources":
		return "uri"
	case "resourceTemplates":
		return "uriTemplate"
	}
	return "name"
}

// duplicateKey returns the first value of key seen twice, or "".
func duplicateKey(items []json.RawMessage, key string) string {
	seen := map[string]bool{}
	for _, it := range items {
		m, ok := object(it)
		if !ok {
			continue
		}
		v, ok := str(m, key)
		if !ok {
			continue
		}
		if seen[v] {
			return fmt.Sprintf("%s %q", key, v)
		}
		seen[v] = true
	}
	return ""
}

// checkT03 calls a tool that cannot exist.
func checkT03(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	const name = "mcptest-no-such-tool"
	r, err := s.Call(ctx, "tools/call", map[string]any{"name": name, "arguments": map[string]any{}})
	if err != nil {
		e.add(Finding{Name: "tools/call " + name, Status: Fail, Must: true, Expected: "error -32602", Actual: actual(r, err),
			Note: "every request must be answered"})
		return nil
	}
	if r.Msg.Result != nil {
		e.fail("tools/call "+name, "error -32602", json.RawMessage(r.Msg.Raw), "an unknown tool is a protocol error; isError results are for failures of a tool that exists")
		return nil
	}
	expectCode(e, "tools/call "+name, r, nil, -32602, false, "")
	return nil
}

// checkT04 calls the safe tools that declare an outputSchema and
// validates their structuredContent.
func checkT04(ctx context.Context, e *Env) error {
	s, tools, err := toolsToCall(ctx, e)
	if err != nil {
		return err
	}
	var withSchema []toolInfo
	for _, t := range tools {
		if t.Output != nil {
			withSchema = append(withSchema, t)
		}
	}
	judged := 0
	outcomes := callTools(ctx, s, withSchema, func(_ int, t toolInfo) (map[string]any, map[string]any) { return exampleArgs(t.Input), nil })
	for _, o := range outcomes {
		t, r, err := o.tool, o.reply, o.err
		sch, cerr := compileSchema(t.Output)
		if cerr != nil {
			continue // T01 reports schemas that do not compile
		}
		if o.slow {
			noteSlow(e, o)
			continue
		}
		name := "tool " + t.Name
		if err != nil || r.Msg.Result == nil {
			continue // the call itself failing is not this check's subject
		}
		res, _ := object(r.Msg.Result)
		if boolMember(res, "isError") {
			continue
		}
		judged++
		sc, ok := res["structuredContent"]
		if !ok {
			e.fail(name, "structuredContent conforming to the outputSchema", "(absent)", "a tool with an outputSchema must return structured content")
			continue
		}
		if err := validate(sch, sc); err != nil {
			if errors.Is(err, errValidationTimeout) {
				continue
			}
			e.fail(name, "structuredContent conforming to the outputSchema", json.RawMessage(sc), firstLine(err.Error()))
			continue
		}
		e.pass(name, "")
	}
	if judged == 0 && e.recorded() == 0 {
		return notApplicable("no callable tool with an outputSchema returned a successful result")
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// checkT05 calls the safe tools and checks every content block.
func checkT05(ctx context.Context, e *Env) error {
	s, tools, err := toolsToCall(ctx, e)
	if err != nil {
		return err
	}
	judged := 0
	outcomes := callTools(ctx, s, tools, func(_ int, t toolInfo) (map[string]any, map[string]any) { return exampleArgs(t.Input), nil })
	for _, o := range outcomes {
		t, r, err := o.tool, o.reply, o.err
		if o.slow {
			noteSlow(e, o)
			e.opts.slow.add(t.Name)
			continue
		}
		if err != nil || r.Msg.Result == nil {
			continue
		}
		judged++
		name := "tool " + t.Name
		res, ok := object(r.Msg.Result)
		if !ok {
			e.fail(name, "a result object", json.RawMessage(r.Msg.Result), "")
			continue
		}
		content, ok := res["content"]
		if !ok {
			e.fail(name, "a content array", "(absent)", "every tool result carries content")
			continue
		}
		if problems := contentProblems(e.Revision, content); len(problems) > 0 {
			e.fail(name, "well-formed content blocks", json.RawMessage(content), strings.Join(problems, "; "))
			continue
		}
		if raw, present := res["isError"]; present {
			var b bool
			if json.Unmarshal(raw, &b) != nil {
				e.fail(name, `"isError" a boolean`, json.RawMessage(raw), "")
				continue
			}
		}
		e.pass(name, "")
	}
	if judged == 0 && e.recorded() == 0 {
		return notApplicable("no callable tool returned a result")
	}
	return nil
}

// toolNamePattern is the 2025-11-25 tool-name rule.
var toolNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`) })

// checkT06 checks every tool name against the naming rules.
func checkT06(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	tools, err := listedTools(ctx, s)
	if err != nil {
		return err
	}
	if len(tools) == 0 {
		return notApplicable("the server lists no tools")
	}
	seen := map[string]bool{}
	bad := 0
	for _, t := range tools {
		switch {
		case !toolNamePattern().MatchString(t.Name):
			bad++
			e.fail(fmt.Sprintf("tool name %q", t.Name), "1-128 characters of A-Z a-z 0-9 _ - .", t.Name, "")
		case seen[t.Name]:
			bad++
			e.fail(fmt.Sprintf("tool name %q", t.Name), "unique names", "listed twice", "")
		}
		seen[t.Name] = true
	}
	if bad == 0 {
		e.pass(fmt.Sprintf("all %d tool names valid and unique", len(tools)), "")
	}
	return nil
}

// checkT07 calls a safe tool with one argument of the wrong type.
func checkT07(ctx context.Context, e *Env) error {
	s, tools, err := toolsToCall(ctx, e)
	if err != nil {
		return err
	}
	for _, t := range tools {
		m, _ := object(t.Input)
		props, _ := object(m["properties"])
		var required []string
		_ = json.Unmarshal(m["required"], &required)
		args := exampleArgs(t.Input)
		prop, value, what := "", any(nil), ""
		for _, name := range append(required, sortedKeys(props)...) {
			if v, w, ok := wrongValue(props[name]); ok {
				prop, value, what = name, v, w
				break
			}
		}
		if prop == "" {
			continue
		}
		args[prop] = value
		o := callToolBounded(ctx, s, t, args, nil)
		r, err := o.reply, o.err
		if o.slow {
			noteSlow(e, o)
			continue
		}
		name := fmt.Sprintf("tool %s with %s (%s)", t.Name, what, prop)
		switch res, _ := object(resultOf(r)); {
		case err != nil:
			e.add(Finding{Name: name, Status: Fail, Must: true, Expected: "an isError result", Actual: actual(r, err), Note: "every request must be answered"})
		case res != nil && boolMember(res, "isError"):
			e.pass(name, "")
		case res != nil:
			e.fail(name, "an isError result", json.RawMessage(r.Msg.Raw), "the tool accepted an argument its schema does not allow")
		default:
			e.fail(name, "an isError result", json.RawMessage(r.Msg.Raw),
				"input validation failures should be tool execution errors the model can see and correct")
		}
		return nil
	}
	if e.recorded() > 0 {
		return nil // every candidate was too slow; the findings say so
	}
	return notApplicable("no callable tool has a typed argument to get wrong")
}

func resultOf(r *Reply) json.RawMessage {
	if r == nil || r.Msg == nil {
		return nil
	}
	return r.Msg.Result
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
