package report

// VersionSummary counts the tests that ran at one MCP protocol revision,
// for a run whose suites list target_versions.
type VersionSummary struct {
	// ProtocolVersion is the revision the tests ran at (as requested; the
	// servers entries say what each server answered).
	ProtocolVersion string `json:"protocol_version"`
	Total           int    `json:"total"`
	Passed          int    `json:"passed"`
	Failed          int    `json:"failed"`
	Warned          int    `json:"warned"`
	Errored         int    `json:"errored"`
	Skipped         int    `json:"skipped"`
	Deferred        int    `json:"deferred"`
}

// add counts one test.
func (v *VersionSummary) add(st Status) {
	var s Summary
	s.Add(st)
	v.Total += s.Total
	v.Passed += s.Passed
	v.Failed += s.Failed
	v.Warned += s.Warned
	v.Errored += s.Errored
	v.Skipped += s.Skipped
	v.Deferred += s.Deferred
}

// versionSummaries counts tests per protocol revision, in the order the
// revisions first appear; nil when no test records a revision.
func versionSummaries(tests []Test) []VersionSummary {
	var out []VersionSummary
	at := map[string]int{}
	for i := range tests {
		v := tests[i].ProtocolVersion
		if v == "" {
			continue
		}
		j, ok := at[v]
		if !ok {
			j = len(out)
			at[v] = j
			out = append(out, VersionSummary{ProtocolVersion: v})
		}
		out[j].add(tests[i].Status)
	}
	return out
}
