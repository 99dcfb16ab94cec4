package plan

import "strconv"

// TrialSuffix is what each trial of a test run several times (--trials)
// has appended to its ID and name: " [trial 2/3]".
func TrialSuffix(k, n int) string { return " [trial " + strconv.Itoa(k) + "/" + strconv.Itoa(n) + "]" }

// Trials plans every test n times (mcptest run --trials N): the whole
// selection once per trial, trial after trial, each copy's ID and name
// suffixed with TrialSuffix and its Trial set, so the result cache (which
// keys on the trial) never answers one trial with another's response. A
// test waits for the producers of its captures in its own trial. Call it
// after Shard, so every trial of a test lands in the same shard and its
// pass^k can be judged there.
func (p *Plan) Trials(n int) {
	if n <= 1 {
		return
	}
	planned := p.Tests
	out := make([]*Test, 0, n*len(planned))
	for k := 1; k <= n; k++ {
		clones := make(map[*Test]*Test, len(planned))
		for _, t := range planned {
			c := *t
			c.TrialOf, c.Trial, c.Trials = t.ID, k, n
			c.ID += TrialSuffix(k, n)
			c.Name += TrialSuffix(k, n)
			clones[t] = &c
			out = append(out, &c)
		}
		for _, t := range planned {
			c := clones[t]
			c.After = make([]*Test, 0, len(t.After))
			for _, a := range t.After {
				if ac := clones[a]; ac != nil {
					c.After = append(c.After, ac)
				}
			}
		}
	}
	p.Tests = out
	p.Total *= n
	p.Selected *= n
}
