package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/plugins/reporters/internal/textsafe"
	"github.com/mcptest/mcptest/sdk/report"
)

// writeVersions writes, for a run whose suites list target_versions, one
// line per protocol revision: the counts of the tests that ran at it and
// what each server started for it spoke. Other runs get nothing.
func (r *renderer) writeVersions(b *strings.Builder, run *report.Run) {
	if len(run.VersionSummaries) == 0 {
		return
	}
	b.WriteString("\n" + r.p.paint(bold, "protocol revisions:") + "\n")
	for _, v := range run.VersionSummaries {
		warned := ""
		if v.Warned > 0 {
			warned = fmt.Sprintf("%d warned, ", v.Warned)
		}
		counts := fmt.Sprintf("%d passed, %d failed, %s%d errored, %d skipped", v.Passed, v.Failed, warned, v.Errored, v.Skipped)
		if v.Deferred > 0 {
			counts += fmt.Sprintf(", %d deferred", v.Deferred)
		}
		st := green
		switch {
		case v.Failed > 0:
			st = red
		case v.Errored > 0:
			st = yellow
		}
		line := "  " + r.p.line(bold, v.ProtocolVersion) + "  " + r.p.paint(st, counts)
		if spoke := serversAt(run.Servers, v.ProtocolVersion); spoke != "" {
			line += r.p.paint(dim, "  · "+textsafe.Truncate(textsafe.CleanLine(spoke), maxLineRunes))
		}
		b.WriteString(line + "\n")
	}
}

// serversAt says what the servers started for revision v spoke: "demo
// spoke 2026-07-28", or "mem did not start" when it failed.
func serversAt(servers []report.Server, v string) string {
	var parts []string
	for i, s := range servers {
		switch {
		case s.TargetVersion != v:
		case s.Error != "":
			parts = append(parts, report.ServerLabel(servers, i)+" did not start")
		case s.ProtocolVersion != "":
			parts = append(parts, report.ServerLabel(servers, i)+" spoke "+s.ProtocolVersion)
		}
	}
	return strings.Join(parts, ", ")
}
