package judge

import (
	"fmt"

	"github.com/mcptest/mcptest/internal/judgereply"
	"github.com/mcptest/mcptest/sdk"
)

// showf writes one --show-judging entry, masked, whole (entries of
// concurrent grades do not interleave).
func (e *Engine) showf(format string, args ...any) {
	if e.opts.ShowJudging == nil {
		return
	}
	text := e.mask(fmt.Sprintf(format, args...))
	e.show.Lock()
	defer e.show.Unlock()
	_, _ = e.opts.ShowJudging.Write([]byte(text))
}

func (e *Engine) showPrompt(model string, juror int, label string, req sdk.ChatRequest, attempt int) {
	if e.opts.ShowJudging == nil {
		return
	}
	what := "prompt"
	if attempt > 0 {
		what = "repair"
	}
	last := req.Messages[len(req.Messages)-1].Content
	body := last
	if attempt == 0 {
		body = "[system]\n" + req.System + "\n[user]\n" + last
	}
	e.showf("--- judge %s juror %d, %s: %s\n%s\n", model, juror, label, what, body)
}

func (e *Engine) showReply(model string, juror int, label string, r judgereply.Reply, cached bool) {
	from := "reply"
	if cached {
		from = "reply (from the verdict cache)"
	}
	ev := ""
	if r.Evidence != "" {
		ev = fmt.Sprintf(" evidence=%q", r.Evidence)
	}
	e.showf("--- judge %s juror %d, %s: %s\nscore=%.2f reason=%q%s\n", model, juror, label, from, r.Score, r.Reason, ev)
}
