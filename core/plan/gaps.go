package plan

import (
	"fmt"

	"github.com/mcptest/mcptest/core/config"
)

// The honest gaps: parts of the v1 format that load and validate but that
// this build cannot execute yet. A run that would need one fails at plan
// time with "not supported yet: <feature>" at the place it is written;
// nothing is ever skipped or passed silently. `mcptest validate` lists
// them as notes. Each later feature removes its entry here.

// gapCollector gathers gaps, one per position and feature.
type gapCollector struct {
	errs config.Errors
	seen map[string]bool
}

func (g *gapCollector) add(pos config.Pos, feature, why string) {
	k := fmt.Sprintf("%s:%d:%d:%s", pos.File, pos.Line, pos.Col, feature)
	if g.seen[k] {
		return
	}
	if g.seen == nil {
		g.seen = map[string]bool{}
	}
	g.seen[k] = true
	g.errs = append(g.errs, &config.Error{File: pos.File, Line: pos.Line, Col: pos.Col, Pointer: pos.Pointer,
		Msg: "not supported yet: " + feature, Hint: why})
}

// testGaps reports the features of one tool, resource or prompt test that
// this build cannot execute; none is left (data rows were the last), the
// hook stays for the next feature that lands in parts.
func (g *gapCollector) testGaps(o *config.TestOptions, extra map[string]bool) {
	for _, key := range []string{} {
		if extra[key] {
			g.add(o.KeyPos[key], key, "this build cannot run it")
		}
	}
}

// count renders n with the singular or plural words that follow it.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
