package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// maxCompletionValues is the most values a completion may return.
const maxCompletionValues = 100

// registerUtilities adds the checks of this file to the registry (loadRegistry).
func registerUtilities() {
	register(
		&Check{ID: "U01", Title: "completion/complete returns at most 100 string values", Severity: Must,
			Section: "server/utilities/completion.mdx", Needs: []Capability{CapCompletions}, run: checkU01},
		&Check{ID: "U02", Title: "logging/setLevel with an unknown level gets -32602", Severity: Should,
			Section: "server/utilities/logging.mdx#error-handling", Eras: []Era{Legacy}, Needs: []Capability{CapLogging}, run: checkU02},
		&Check{ID: "U03", Title: "Progress notifications carry the request's token, increase, and stop with the response", Severity: Must,
			Section: "basic/utilities/progress.mdx", Needs: []Capability{CapTools}, run: checkU03},
		&Check{ID: "U04", Title: "A cancellation for an unknown request is ignored and the server keeps working", Severity: Should,
			Section: "basic/utilities/cancellation.mdx", run: checkU04},
	)
}

// completionRef finds something to complete: a prompt argument, else a
// template variable.
func completionRef(ctx context.Context, s *Session) (ref map[string]any, arg string) {
	if prompts, err := listedPrompts(ctx, s); err == nil {
		for _, p := range prompts {
			if len(p.Arguments) > 0 {
				return map[string]any{"type": "ref/prompt", "name": p.Name}, p.Arguments[0].Name
			}
		}
	}
	templates, _, err := listAll(ctx, s, "resources/templates/list", "resourceTemplates")
	if err != nil {
		return nil, ""
	}
	for _, raw := range templates {
		m, _ := object(raw)
		tpl, _ := str(m, "uriTemplate")
		if open := strings.IndexByte(tpl, '{'); open >= 0 {
			end := strings.IndexByte(tpl[open:], '}')
			if end < 0 {
				continue
			}
			v := strings.TrimLeft(tpl[open+1:open+end], "+#./;?&")
			v, _, _ = strings.Cut(v, ",")
			v, _, _ = strings.Cut(v, ":")
			return map[string]any{"type": "ref/resource", "uri": tpl}, strings.TrimSuffix(v, "*")
		}
	}
	return nil, ""
}

// checkU01 asks for completions of the first completable thing.
func checkU01(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	ref, arg := completionRef(ctx, s)
	if ref == nil {
		return notApplicable("the server lists no prompt argument or template variable to complete")
	}
	r, err := s.Call(ctx, "completion/complete", map[string]any{"ref": ref, "argument": map[string]any{"name": arg, "value": ""}})
	name := fmt.Sprintf("completion/complete %v argument %q", ref["name"], arg)
	if ref["name"] == nil {
		name = fmt.Sprintf("completion/complete %v argument %q", ref["uri"], arg)
	}
	if err != nil || r.Msg.Result == nil {
		e.fail(name, "a completion result", actual(r, err), "the server declares completions")
		return nil
	}
	var res struct {
		Completion *struct {
			Values  []json.RawMessage `json:"values"`
			Total   json.RawMessage   `json:"total"`
			HasMore json.RawMessage   `json:"hasMore"`
		} `json:"completion"`
	}
	if json.Unmarshal(r.Msg.Result, &res) != nil || res.Completion == nil || res.Completion.Values == nil {
		e.fail(name, `a "completion" object with a "values" array`, json.RawMessage(r.Msg.Result), "")
		return nil
	}
	c := res.Completion
	switch {
	case len(c.Values) > maxCompletionValues:
		e.fail(name, fmt.Sprintf("at most %d values", maxCompletionValues), len(c.Values), "")
	case !allStrings(c.Values):
		e.fail(name, "string values", json.RawMessage(r.Msg.Result), "")
	case c.Total != nil && !isInt(c.Total):
		e.fail(name, `"total" an integer`, json.RawMessage(c.Total), "")
	case c.HasMore != nil && string(c.HasMore) != "true" && string(c.HasMore) != "false":
		e.fail(name, `"hasMore" a boolean`, json.RawMessage(c.HasMore), "")
	default:
		e.pass(name, fmt.Sprintf("%d values", len(c.Values)))
	}
	return nil
}

func allStrings(vs []json.RawMessage) bool {
	for _, v := range vs {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return false
		}
	}
	return true
}

func isInt(raw json.RawMessage) bool { _, ok := probe.IntCode(raw); return ok }

// checkU02 sets a log level that does not exist.
func checkU02(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	r, err := s.Call(ctx, "logging/setLevel", map[string]any{"level": "loud"})
	expectCode(e, `logging/setLevel "loud"`, r, err, -32602, false, "")
	if err == nil && r.Msg.Error != nil {
		// Refused, with whatever code: the level was not set.
		e.markUnchanged()
	}
	return nil
}

// checkU03 calls the safe tools with a progress token each and checks
// every progress notification that comes back.
func checkU03(ctx context.Context, e *Env) error {
	s, tools, err := toolsToCall(ctx, e)
	if err != nil {
		return err
	}
	seen := 0
	// Each tool keeps the token of its place in the list, called or not.
	slow := e.opts.slow.wait(ctx)
	var call []toolInfo
	var place []int
	for i, t := range tools {
		if slow[t.Name] {
			noteSlowInT05(e, t)
			continue
		}
		call, place = append(call, t), append(place, i+1)
	}
	outcomes := callTools(ctx, s, call, func(i int, t toolInfo) (map[string]any, map[string]any) {
		return exampleArgs(t.Input), map[string]any{"progressToken": progressToken(place[i])}
	})
	// Give late notifications a moment to show up after the responses.
	s.Quiet(ctx, 100*time.Millisecond)
	for i, o := range outcomes {
		t, r, err := o.tool, o.reply, o.err
		token := progressToken(place[i])
		if o.slow {
			noteSlow(e, o)
			continue
		}
		if err != nil {
			continue
		}
		n, problem := progressProblem(s.Received(), r.Msg, token)
		seen += n
		if problem != "" {
			e.fail("tool "+t.Name, "progress notifications with our token, increasing, before the response", nil, problem)
		} else if n > 0 {
			e.pass("tool "+t.Name, fmt.Sprintf("%d progress notifications", n))
		}
	}
	for _, m := range s.Received() {
		if m.Method != "notifications/progress" {
			continue
		}
		var p struct {
			Token json.RawMessage `json:"progressToken"`
		}
		_ = json.Unmarshal(m.Params, &p)
		var tok string
		if json.Unmarshal(p.Token, &tok) != nil || !strings.HasPrefix(tok, "mcptest-progress-") {
			e.fail("progress token", "only tokens mcptest sent", json.RawMessage(m.Raw), "a progress notification must refer to a token the client sent")
			seen++
		}
	}
	if seen == 0 && e.recorded() == 0 {
		return notApplicable("no tool sent progress notifications to judge")
	}
	return nil
}

// progressProblem checks the notifications for token: each progress value
// larger than the last, none after the response. It returns how many
// there were.
func progressProblem(msgs []*probe.Message, response *probe.Message, token string) (int, string) {
	n, last, afterResponse := 0, -1.0, false
	for _, m := range msgs {
		if m == response {
			afterResponse = true
			continue
		}
		if m.Method != "notifications/progress" {
			continue
		}
		var p struct {
			Token    json.RawMessage `json:"progressToken"`
			Progress *float64        `json:"progress"`
		}
		_ = json.Unmarshal(m.Params, &p)
		if string(compactJSON(p.Token)) != string(mustMarshal(token)) {
			continue
		}
		n++
		switch {
		case afterResponse:
			return n, "a progress notification arrived after the response: " + string(m.Raw)
		case p.Progress == nil:
			return n, "a progress notification has no numeric progress: " + string(m.Raw)
		case *p.Progress <= last:
			return n, fmt.Sprintf("progress went from %v to %v; it must increase with each notification", last, *p.Progress)
		}
		last = *p.Progress
	}
	return n, ""
}

// checkU04 cancels a request that was never sent.
func checkU04(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	params := s.withMeta(map[string]any{"requestId": "mcptest-never-sent", "reason": "mcptest compliance probe"})
	// Cancelling nothing changes nothing, even for a server that answers.
	e.markUnchanged()
	if _, err := s.Notify(ctx, "notifications/cancelled", params); err != nil {
		return err
	}
	// The request after the notification is the fence: once its answer
	// is back (and the fence's grace has passed), an answer to the
	// notification would have come too.
	stillServes(ctx, e, s)
	s.Quiet(ctx, fenceGrace)
	for _, m := range s.Received() {
		if m.IsResponse() && !s.sentID(m.ID) {
			e.fail("notifications/cancelled for an unknown request", "no answer", json.RawMessage(m.Raw), "a notification is never answered")
		}
	}
	return nil
}
