package run

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/session"
)

// toolListTimeout bounds the tools/list calls that read tool annotations.
const toolListTimeout = 10 * time.Second

// maxToolPages bounds the pages of tools/list followed, so a server whose
// cursor never ends cannot hold a test up.
const maxToolPages = 50

// toolHints learns, once per session, which tools declare that calling
// them again changes nothing (readOnlyHint or idempotentHint in their
// annotations). The MCP defaults for a tool without annotations are the
// opposite, so such a tool is never served from cache.
type toolHints struct {
	mu sync.Mutex
	m  map[*session.Session]*toolHintSet
}

type toolHintSet struct {
	once sync.Once
	safe map[string]bool
}

func newToolHints() *toolHints { return &toolHints{m: map[*session.Session]*toolHintSet{}} }

// safe reports whether the tool's answers may be reused. The first call
// for a session lists its tools; a server that cannot list them has no
// cacheable tools.
func (h *toolHints) safe(ctx context.Context, sess *session.Session, tool string) bool {
	if sess == nil {
		return false
	}
	h.mu.Lock()
	set := h.m[sess]
	if set == nil {
		set = &toolHintSet{}
		h.m[sess] = set
	}
	h.mu.Unlock()
	set.once.Do(func() { set.safe = listSafeTools(context.WithoutCancel(ctx), sess) })
	return set.safe[tool]
}

// listSafeTools reads every page of tools/list and keeps the names of the
// tools whose annotations mark them read-only or idempotent.
func listSafeTools(ctx context.Context, sess *session.Session) map[string]bool {
	ctx, cancel := context.WithTimeout(ctx, toolListTimeout)
	defer cancel()
	safe := map[string]bool{}
	cursor := ""
	for range maxToolPages {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		out, err := sess.Request(ctx, "tools/list", params)
		if err != nil || out.RPCError != nil {
			return safe
		}
		var page struct {
			Tools []struct {
				Name        string `json:"name"`
				Annotations *struct {
					ReadOnly   *bool `json:"readOnlyHint"`
					Idempotent *bool `json:"idempotentHint"`
				} `json:"annotations"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if json.Unmarshal(out.Result, &page) != nil {
			return safe
		}
		for _, t := range page.Tools {
			if a := t.Annotations; a != nil && (isTrue(a.ReadOnly) || isTrue(a.Idempotent)) {
				safe[t.Name] = true
			}
		}
		if page.NextCursor == "" || page.NextCursor == cursor {
			return safe
		}
		cursor = page.NextCursor
	}
	return safe
}

func isTrue(b *bool) bool { return b != nil && *b }
