package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcptest/mcptest/core/assert"
	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/servers"
	"github.com/mcptest/mcptest/core/session"
	"github.com/mcptest/mcptest/internal/jsonx"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// List tests read a whole list (tools/list, resources/list,
// resources/templates/list, prompts/list) page by page, and judge:
//
//	{"result": {"<items>": [every page's items, in order], "nextCursor": ...},
//	 "pages": N, "cursors": ["the cursors sent, in order"]}
//
// result.nextCursor is there only when the test stopped before the end
// (pages: N, or cursor:). A JSON-RPC error on any page makes the envelope
// {"error": ..., "pages", "cursors"}. Each page is a request of its own,
// through the result cache like any read.

// ErrEndlessList is wrapped when a listing would never end: a cursor came
// back a second time, or the pages outnumber max_pages.
var ErrEndlessList = errors.New("the listing does not end")

// listing is what the pages of one list test gave.
type listing struct {
	items   []json.RawMessage
	next    string
	pages   int
	cursors []string
	rpcErr  *session.RPCError
	frames  []session.Frame
	elapsed time.Duration
	hits    int
}

// runList runs a list test.
func (r *runner) runList(ctx context.Context, t *plan.Test) (res rpt.Test) {
	res = testHeader(t)
	start := time.Now()
	if !r.caps.Await(ctx, t, &res) {
		return res
	}
	lt := t.List
	var first *string
	if lt.Cursor != nil {
		c, err := r.caps.ResolveText(t, *lt.Cursor)
		if err != nil {
			res.Status = rpt.StatusErrored
			res.Error = &rpt.Error{Kind: "capture", Message: r.opts.Redact.String(err.Error())}
			return res
		}
		first = &c
	}
	sess, err := r.servers.Get(ctx, t.Suite, t.Server, t.ProtocolVersion)
	if err != nil {
		res.Status = rpt.StatusErrored
		res.Error = &rpt.Error{Kind: "server_start", Message: r.opts.Redact.String(err.Error())}
		return res
	}
	cctx, cancel := context.WithTimeout(ctx, t.Timeout)
	defer cancel()
	l, err := r.readList(cctx, t, sess, first)
	if err != nil {
		res.Status = rpt.StatusErrored
		kind := callErrorKind(err)
		if errors.Is(err, ErrEndlessList) {
			kind = "endless_list"
		}
		res.Error = &rpt.Error{Kind: kind, Message: r.opts.Redact.String(err.Error())}
		res.Stderr = r.stderrTail(sess)
		res.Frames = r.frames(l.frames, start)
		return res
	}
	res.CacheHit = l.pages > 0 && l.hits == l.pages
	envelope := r.opts.Redact.Bytes(l.envelope(lt))
	res.Assertions = r.judge.Test(ctx, t, envelope)
	st := assert.Step{Result: envelope, Duration: l.elapsed, Cached: res.CacheHit}
	assert.Verdict(t, &res, &st)
	if len(t.Assertions) == 0 && l.rpcErr != nil {
		// With nothing to check, the listing itself must succeed.
		res.Status = rpt.StatusFailed
		res.Error = &rpt.Error{Kind: "rpc_error", Message: r.opts.Redact.String(l.rpcErr.Error())}
	}
	r.caps.Take(t, envelope, &res)
	if res.Status != rpt.StatusPassed {
		res.Response = r.truncate(envelope)
		res.Stderr = r.stderrTail(sess)
		res.Frames = r.frames(l.frames, start)
	} else if r.opts.WireAll {
		res.Frames = r.frames(l.frames, start)
	}
	return res
}

// readList reads the pages of t's list: from first (nil for the first
// page), one page when first is set, else up to pages (0 for all) and at
// most max_pages. It stops at a JSON-RPC error, which the listing keeps.
func (r *runner) readList(ctx context.Context, t *plan.Test, sess *session.Session, first *string) (*listing, error) {
	lt := t.List
	l := &listing{}
	limit := lt.Pages
	if first != nil {
		limit = 1
	}
	seen := map[string]int{}
	cursor := ""
	if first != nil {
		cursor = *first
	}
	for {
		q := servers.Request{Method: lt.Method(), Raw: listParams(first != nil || l.pages > 0, cursor), Version: t.ProtocolVersion, Trial: t.Trial}
		if l.pages > 0 || first != nil {
			l.cursors = append(l.cursors, cursor)
		}
		out, hit, err := r.send(ctx, t.Suite, t.Server, sess, q)
		if out != nil {
			if hit {
				out.Frames = rebaseFrames(out.Frames, time.Now())
			}
			l.frames = append(l.frames, out.Frames...)
			l.elapsed += out.Duration
		}
		if err != nil {
			return l, fmt.Errorf("%s page %d: %w", lt.Method(), l.pages+1, err)
		}
		l.pages++
		if hit {
			l.hits++
		}
		if out.RPCError != nil {
			l.rpcErr = out.RPCError
			return l, nil
		}
		next, err := l.add(out.Result, lt.ResultKey())
		if err != nil {
			return l, fmt.Errorf("%s page %d: %w: %v", lt.Method(), l.pages, session.ErrBadResponse, err)
		}
		if next == "" {
			return l, nil
		}
		if limit > 0 && l.pages >= limit {
			l.next = next
			return l, nil
		}
		if p, dup := seen[next]; dup {
			return l, fmt.Errorf("%w: page %d returned nextCursor %q, which page %d already returned; a client following it would loop forever",
				ErrEndlessList, l.pages, next, p)
		}
		if l.pages >= lt.MaxPages {
			return l, fmt.Errorf("%w: still a nextCursor after %d pages (max_pages: %d); raise max_pages if the list is really that long",
				ErrEndlessList, l.pages, lt.MaxPages)
		}
		seen[next] = l.pages
		cursor = next
	}
}

// listParams are the params of one page request: none for the first page
// (there is no cursor to send), {cursor} for the others.
func listParams(withCursor bool, cursor string) json.RawMessage {
	if !withCursor {
		return json.RawMessage(`{}`)
	}
	b, _ := json.Marshal(map[string]string{"cursor": cursor})
	return b
}

// add appends the items of one page and returns its nextCursor.
func (l *listing) add(result json.RawMessage, key string) (string, error) {
	var page map[string]json.RawMessage
	if err := json.Unmarshal(result, &page); err != nil {
		return "", fmt.Errorf("the result is not an object: %v", err)
	}
	raw, ok := page[key]
	if !ok {
		return "", fmt.Errorf("the result has no %q array", key)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil && string(raw) == "null" {
		return "", fmt.Errorf("%q is not an array", key)
	}
	l.items = append(l.items, items...)
	next := ""
	if c, ok := page["nextCursor"]; ok && string(c) != "null" {
		if err := json.Unmarshal(c, &next); err != nil {
			return "", fmt.Errorf("nextCursor is not a string: %s", c)
		}
	}
	return next, nil
}

// envelope is what the list test's assertions judge.
func (l *listing) envelope(lt *config.ListTest) json.RawMessage {
	cursors := l.cursors
	if cursors == nil {
		cursors = []string{}
	}
	env := map[string]any{"pages": l.pages, "cursors": cursors}
	if l.rpcErr != nil {
		env["error"] = l.rpcErr
	} else {
		items := l.items
		if items == nil {
			items = []json.RawMessage{}
		}
		result := map[string]any{lt.ResultKey(): items}
		if l.next != "" {
			result["nextCursor"] = l.next
		}
		env["result"] = result
	}
	b, err := jsonx.Encode(env)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return b
}
