package report

// Trial verdict modes (Trials.Pass).
const (
	// TrialsPassAll judges a test by pass^k: every trial passed.
	TrialsPassAll = "all"
	// TrialsPassAny judges a test by pass@k: at least one trial passed.
	TrialsPassAny = "any"
)

// Trials summarises a run with --trials N.
type Trials struct {
	// K is the number of trials each test ran.
	K int `json:"k"`
	// Pass is the verdict mode: "all" (pass^k, the default) or "any"
	// (pass@k, --trials-pass any).
	Pass string `json:"pass"`
	// PassAtK is the share of tests (0 to 1) with at least one passing
	// trial; PassHatK the share whose every trial passed.
	PassAtK  float64 `json:"pass_at_k"`
	PassHatK float64 `json:"pass_hat_k"`
	// Flaky counts the tests that both passed and did not pass.
	Flaky int `json:"flaky"`
	// Tests has one entry per test, in first-trial order.
	Tests []TrialTest `json:"tests"`
}

// TrialTest is one test's trials.
type TrialTest struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Trials ran, and how many passed (a warning counts as passed).
	Trials int `json:"trials"`
	Passed int `json:"passed"`
	// PassAtK: at least one trial passed; PassHatK: every trial did.
	PassAtK  bool `json:"pass_at_k"`
	PassHatK bool `json:"pass_hat_k"`
	// Flaky: some trials passed and some did not.
	Flaky bool `json:"flaky"`
	// Statuses are the trials' statuses in trial order.
	Statuses []Status `json:"statuses"`
}

// Passes reports whether the test passes under the mode.
func (t *TrialTest) Passes(mode string) bool {
	if mode == TrialsPassAny {
		return t.PassAtK
	}
	return t.PassHatK
}

// trialSummary groups the tests by TrialOf; prev keeps the verdict mode
// of an earlier summary. Nil when no test is a trial.
func trialSummary(tests []Test, prev *Trials) *Trials {
	out := &Trials{Pass: TrialsPassAll}
	if prev != nil && prev.Pass != "" {
		out.Pass = prev.Pass
	}
	at := map[string]int{}
	for i := range tests {
		t := &tests[i]
		if t.TrialOf == "" {
			continue
		}
		j, ok := at[t.TrialOf]
		if !ok {
			j = len(out.Tests)
			at[t.TrialOf] = j
			name := t.Name
			if k := len(t.Name) - (len(t.ID) - len(t.TrialOf)); k >= 0 {
				name = t.Name[:k]
			}
			out.Tests = append(out.Tests, TrialTest{ID: t.TrialOf, Name: name})
		}
		tt := &out.Tests[j]
		tt.Trials++
		tt.Statuses = append(tt.Statuses, t.Status)
		if t.Status == StatusPassed || t.Status == StatusWarned {
			tt.Passed++
		}
		out.K = max(out.K, tt.Trials)
	}
	if len(out.Tests) == 0 {
		return nil
	}
	atK, hatK := 0, 0
	for i := range out.Tests {
		tt := &out.Tests[i]
		tt.PassAtK = tt.Passed > 0
		tt.PassHatK = tt.Passed == tt.Trials
		tt.Flaky = tt.PassAtK && !tt.PassHatK
		if tt.PassAtK {
			atK++
		}
		if tt.PassHatK {
			hatK++
		}
		if tt.Flaky {
			out.Flaky++
		}
	}
	out.PassAtK = float64(atK) / float64(len(out.Tests))
	out.PassHatK = float64(hatK) / float64(len(out.Tests))
	return out
}
