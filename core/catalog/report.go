package catalog

import (
	"encoding/json"
	"fmt"
	"strings"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// BlockDiff is the report block of catalog changes.
const BlockDiff = "diff"

// Tests renders the changes as report tests, one per change: a breaking
// change fails (under the check diff/<rule>, severity MUST), a
// non-breaking one passes with its message, so reports list it without
// failing the run.
func (r *Result) Tests(server string) []rpt.Test {
	out := make([]rpt.Test, 0, len(r.Changes))
	for _, c := range r.Changes {
		t := rpt.Test{ID: c.ID(), Name: c.Message, Block: BlockDiff, Server: server}
		if c.Kind == KindTool {
			t.Tool = c.Name
		}
		check := &rpt.Check{ID: "diff/" + c.Rule, Title: RuleTitle(c.Rule), Severity: "MUST"}
		a := rpt.Assertion{Target: c.Kind + " " + c.Name + c.Path, Matcher: "catalog-diff", Message: c.Message}
		if c.Severity == Breaking {
			t.Status, a.Status = rpt.StatusFailed, rpt.StatusFailed
			t.Check, a.Check = check, check
			a.Failure, _ = json.Marshal(map[string]any{
				"expected": "no breaking change",
				"actual":   c.Message,
				"note":     "rule " + c.Rule + ": " + RuleTitle(c.Rule),
			})
		} else {
			t.Status, a.Status = rpt.StatusPassed, rpt.StatusPassed
		}
		t.Assertions = []rpt.Assertion{a}
		out = append(out, t)
	}
	return out
}

// Changelog renders the changes as a markdown section for release notes:
// breaking changes first, then the others, each under its entry.
func (r *Result) Changelog(oldLabel, newLabel string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Catalog changes\n\nFrom `%s` to `%s`: %d breaking, %d non-breaking.\n", oldLabel, newLabel, r.Breaking(), len(r.Changes)-r.Breaking())
	section := func(title string, sev Severity) {
		first := true
		for _, c := range r.Changes {
			if c.Severity != sev {
				continue
			}
			if first {
				fmt.Fprintf(&b, "\n### %s\n\n", title)
				first = false
			}
			fmt.Fprintf(&b, "- %s (`%s`)\n", mdText(c.Message), c.Rule)
		}
	}
	section("Breaking", Breaking)
	section("Non-breaking", NonBreaking)
	if len(r.Changes) == 0 {
		b.WriteString("\nNo changes.\n")
	}
	return b.String()
}

// mdText keeps a server-supplied text from injecting markdown structure:
// one line, with the characters that start markup escaped.
func mdText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	r := strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;", "|", `\|`, "#", `\#`)
	return r.Replace(s)
}
