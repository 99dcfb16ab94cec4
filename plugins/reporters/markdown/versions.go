package main

import (
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk/report"
)

// writeVersions writes, for a run whose suites list target_versions, the
// counts per protocol revision and what each server started for it spoke.
// Other runs get nothing.
func writeVersions(b *strings.Builder, run *report.Run) {
	if len(run.VersionSummaries) == 0 {
		return
	}
	b.WriteString("### Protocol revisions\n\n")
	b.WriteString("| Revision | Passed | Failed | Warned | Errored | Skipped | Total | Servers |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, v := range run.VersionSummaries {
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %d | %s |\n", code(v.ProtocolVersion, maxShortRunes, true),
			v.Passed, v.Failed, v.Warned, v.Errored, v.Skipped, v.Total, spokeAt(run.Servers, v.ProtocolVersion))
	}
	b.WriteString("\n")
}

// spokeAt says what the servers started for revision v spoke.
func spokeAt(servers []report.Server, v string) string {
	var parts []string
	for i, s := range servers {
		switch {
		case s.TargetVersion != v:
		case s.Error != "":
			parts = append(parts, inline(report.ServerLabel(servers, i), maxShortRunes)+" did not start")
		case s.ProtocolVersion != "":
			parts = append(parts, inline(report.ServerLabel(servers, i), maxShortRunes)+" spoke "+code(s.ProtocolVersion, maxShortRunes, true))
		}
	}
	return strings.Join(parts, ", ")
}
