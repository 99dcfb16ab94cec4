package servers

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptest/mcptest/core/session"
)

// toolListTimeout bounds the tools/list calls that read tool annotations.
const toolListTimeout = 10 * time.Second

// maxToolPages bounds the pages of tools/list followed, so a server whose
// cursor never ends cannot hold a test up.
const maxToolPages = 50

// ToolHints learns, once per session, what the server's tools/list says:
// the tool names (for the diagnosis of a test that calls a tool the server
// does not list, core/run/diagnose.go) and which tools declare that calling them
// again changes nothing (readOnlyHint or idempotentHint in their
// annotations; the MCP defaults for a tool without annotations are the
// opposite, so such a tool is never served from cache). It is asked only
// when needed, never on the way of a passing test's call.
type ToolHints struct {
	mu sync.Mutex
	m  map[*session.Session]*toolHintSet
}

type toolHintSet struct {
	once sync.Once
	// done is set once the listing is complete.
	done atomic.Bool
	toolList
}

// toolList is what one session's tools/list said.
type toolList struct {
	safe map[string]bool
	// readOnly holds the tools annotated readOnlyHint: true, the ones a
	// call of cannot change the server's state (restart_policy
	// after_write, afterwrite.go).
	readOnly map[string]bool
	// names are the listed tools, in the server's order.
	names []string
	// listed is false when the server did not answer every page (no
	// tools capability, a cassette without the list, a failure): its
	// names are then not the whole list.
	listed bool
}

// NewToolHints returns an empty set of tool listings.
func NewToolHints() *ToolHints { return &ToolHints{m: map[*session.Session]*toolHintSet{}} }

// of returns the session's tool list, listing it on the first call.
func (h *ToolHints) of(ctx context.Context, sess *session.Session) *toolList {
	h.mu.Lock()
	set := h.m[sess]
	if set == nil {
		set = &toolHintSet{}
		h.m[sess] = set
	}
	h.mu.Unlock()
	set.once.Do(func() {
		set.toolList = listTools(context.WithoutCancel(ctx), sess)
		set.done.Store(true)
	})
	return &set.toolList
}

// listed returns the tools the session's server annotates readOnlyHint:
// true, if its tools were listed already; nil otherwise (it lists
// nothing itself).
func (h *ToolHints) listed(sess *session.Session) map[string]bool {
	h.mu.Lock()
	set := h.m[sess]
	h.mu.Unlock()
	if set == nil || !set.done.Load() {
		return nil
	}
	return set.readOnly
}

// safe reports whether the tool's answers may be reused. A server that
// cannot list its tools has no cacheable tools.
func (h *ToolHints) safe(ctx context.Context, sess *session.Session, tool string) bool {
	if sess == nil {
		return false
	}
	return h.of(ctx, sess).safe[tool]
}

// Names returns the tools the session's server lists, and false when it
// could not list them all.
func (h *ToolHints) Names(ctx context.Context, sess *session.Session) ([]string, bool) {
	if sess == nil {
		return nil, false
	}
	l := h.of(ctx, sess)
	return l.names, l.listed
}

// forget drops what is known of a session that has closed.
func (h *ToolHints) forget(sess *session.Session) {
	h.mu.Lock()
	delete(h.m, sess)
	h.mu.Unlock()
}

// listTools reads every page of tools/list, keeping the names and the
// tools whose annotations mark them read-only or idempotent.
func listTools(ctx context.Context, sess *session.Session) toolList {
	ctx, cancel := context.WithTimeout(ctx, toolListTimeout)
	defer cancel()
	l := toolList{safe: map[string]bool{}, readOnly: map[string]bool{}}
	cursor := ""
	for range maxToolPages {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		out, err := sess.Request(ctx, "tools/list", params)
		if err != nil || out.RPCError != nil {
			return l
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
			return l
		}
		for _, t := range page.Tools {
			l.names = append(l.names, t.Name)
			if a := t.Annotations; a != nil && (isTrue(a.ReadOnly) || isTrue(a.Idempotent)) {
				l.safe[t.Name] = true
			}
			if a := t.Annotations; a != nil && isTrue(a.ReadOnly) {
				l.readOnly[t.Name] = true
			}
		}
		if page.NextCursor == "" || page.NextCursor == cursor {
			l.listed = true
			return l
		}
		cursor = page.NextCursor
	}
	return l
}

func isTrue(b *bool) bool { return b != nil && *b }
