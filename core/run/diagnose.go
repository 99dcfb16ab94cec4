package run

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcptest/mcptest/core/plan"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/core/session"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// errorKindUnknownTool is the error kind of a test that did not pass and
// called a tool its server does not list.
const errorKindUnknownTool = "unknown_tool"

// maxListedTools bounds the tool names a diagnosis lists when it has no
// single suggestion.
const maxListedTools = 10

// diagnoseTool adds to a tool test that failed or errored after its server
// answered a note when the tool it called is not in the server's
// tools/list, with the listed name it most likely meant. The call itself
// is made regardless (a test may expect the server's own unknown-tool
// error, and then passes without this check), and validate cannot know
// the server's tools, so this is the runner's check of the name. The list
// is asked for only here, once per session (toolHints), so passing runs
// never wait on it; a server that cannot list its tools, or a cassette
// without the list, skips the check.
func (r *runner) diagnoseTool(ctx context.Context, t *plan.Test, sess *session.Session, tool string, res *rpt.Test) {
	if t.Kind != plan.KindTool || sess == nil || (res.Status != rpt.StatusFailed && res.Status != rpt.StatusErrored) {
		return
	}
	names, ok := r.listedTools(ctx, sess)
	if !ok || slices.Contains(names, tool) {
		return
	}
	msg := r.opts.Redact.String(unknownToolNote(tool, names))
	if res.Error == nil {
		res.Error = &rpt.Error{Kind: errorKindUnknownTool, Message: msg}
		return
	}
	res.Error.Message += "\n" + msg
}

// unknownToolNote says that tool is not among names, and what was meant.
func unknownToolNote(tool string, names []string) string {
	msg := fmt.Sprintf("tool %q is not in the server's tools/list", tool)
	switch {
	case len(names) == 0:
		return msg + " (the server lists no tools)"
	case plugin.Suggest(tool, names) != "":
		return msg + fmt.Sprintf(" (did you mean %q?)", plugin.Suggest(tool, names))
	case len(names) <= maxListedTools:
		return msg + " (it lists: " + strings.Join(names, ", ") + ")"
	}
	return msg + fmt.Sprintf(" (it lists %d tools, none close to this name)", len(names))
}

// listedTools is toolHints.names without keeping an interrupted run
// waiting: the list is shared by the session's tests, so it is read apart
// from ctx (and bounded by toolListTimeout), but this test stops waiting
// for it as soon as ctx ends.
func (r *runner) listedTools(ctx context.Context, sess *session.Session) ([]string, bool) {
	if ctx.Err() != nil {
		return nil, false
	}
	type answer struct {
		names []string
		ok    bool
	}
	ch := make(chan answer, 1)
	go func() {
		names, ok := r.tools.Names(ctx, sess)
		ch <- answer{names, ok}
	}()
	select {
	case a := <-ch:
		return a.names, a.ok
	case <-ctx.Done():
		return nil, false
	}
}
