package main

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// Nested results: a composition's failure carries the verdict of each
// branch (and of the branches of nested compositions), and an assert-set
// carries its judged members. Both are drawn as indented trees so the
// branch or member that decided the verdict shows at a glance.

const (
	// indentStep is one level of nesting.
	indentStep = "    "
	// setMatcher is the matcher name assert-sets are reported under.
	setMatcher = "assert-set"
	// branchesField is the failure field holding a composition's branches.
	branchesField = "branches"
	// maxBranchDepth caps the nesting drawn; deeper levels are shown as
	// JSON on one line.
	maxBranchDepth = 16
)

// branchView is one branch of a composition's failure.
type branchView struct {
	Matcher  string          `json:"matcher"`
	Argument json.RawMessage `json:"argument"`
	Status   report.Status   `json:"status"`
	Note     string          `json:"note"`
	Failure  json.RawMessage `json:"failure"`
	Branches json.RawMessage `json:"branches"`
}

// writeBranches draws a composition's branches below its failure's fields:
// a mark, the matcher and its argument, the note of a nested composition,
// and the failure of a branch that failed.
func (r *renderer) writeBranches(b *strings.Builder, raw json.RawMessage, ind string, depth int) {
	var list []branchView
	if depth > maxBranchDepth || json.Unmarshal(raw, &list) != nil {
		r.writeField(b, ind, branchesField, renderValue(raw), len(branchesField))
		return
	}
	if depth == 0 {
		b.WriteString(ind + r.p.paint(dim, branchesField+":") + "\n")
	}
	at := ind + "  "
	for _, br := range list {
		mark, st := "✓", green
		if br.Status != report.StatusPassed {
			mark, st = "✗", red
		}
		line := at + r.p.paint(st, mark) + " " + r.p.line(bold, textsafe.Truncate(textsafe.CleanLine(br.Matcher), maxLineRunes))
		if len(bytes.TrimSpace(br.Argument)) > 0 {
			line += " " + r.p.line(plain, textsafe.CleanLine(renderValue(br.Argument)))
		}
		if br.Note != "" {
			line += r.p.paint(dim, " — ") + r.p.line(plain, textsafe.Truncate(textsafe.CleanLine(br.Note), maxLineRunes))
		}
		b.WriteString(line + "\n")
		if len(bytes.TrimSpace(br.Failure)) > 0 {
			r.writeFailure(b, br.Failure, nil, at+indentStep)
		}
		if len(bytes.TrimSpace(br.Branches)) > 0 {
			r.writeBranches(b, br.Branches, at, depth+1)
		}
	}
}

// writeMembers draws the members of an assert-set that did not pass.
func (r *renderer) writeMembers(b *strings.Builder, a *report.Assertion, ind string) {
	for i := range a.Assertions {
		m := &a.Assertions[i]
		if m.Status == report.StatusFailed || m.Status == report.StatusErrored {
			r.writeAssertionAt(b, m, ind)
		}
	}
}
