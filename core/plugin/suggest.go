package plugin

import "github.com/mcptest/mcptest/internal/suggest"

// Suggest returns the candidate the user most likely meant by s, or ""
// when none is close enough. It is internal/suggest's guess, kept here for
// the callers (CLI, planner, run diagnostics) that already use it.
func Suggest(s string, candidates []string) string { return suggest.Closest(s, candidates) }
