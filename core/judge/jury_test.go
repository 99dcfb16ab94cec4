package judge

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/internal/agreement"
	"github.com/mcptest/mcptest/sdk"
)

// perJuror answers call n with replies[n] (the jurors grade in order, one
// call each for a text rubric).
func perJuror(replies ...string) func(int, sdk.ChatRequest) string {
	return func(n int, _ sdk.ChatRequest) string { return replies[n%len(replies)] }
}

func textSpec(t *testing.T) *Resolved {
	r, err := Resolve(nil, &config.Rubric{Text: "accurate summary"}, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestJuryConsensusAndMean(t *testing.T) {
	m := &scripted{answer: perJuror(verdict(0.9, "a"), verdict(0.8, "b"), verdict(0.2, "c"))}
	spec := WithJudge(Spec{Rubric: textSpec(t)}, &config.Judge{Jury: &config.Jury{Size: 3, Consensus: 0.66}})
	ev, err := engine(t, m, Options{}).Grade(context.Background(), spec, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Jurors) != 3 || ev.Jury.Kind != "jury" || ev.Calls != 3 || m.calls() != 3 {
		t.Fatalf("eval = %+v", ev)
	}
	if math.Abs(ev.Score-(0.9+0.8+0.2)/3) > 1e-9 || !ev.Passed || math.Abs(ev.Jury.PassFraction-2.0/3) > 1e-9 {
		t.Fatalf("score %v passed %v fraction %v", ev.Score, ev.Passed, ev.Jury.PassFraction)
	}
	// The same jury with a unanimous consensus fails.
	m2 := &scripted{answer: m.answer}
	spec.Consensus = 1
	ev, _ = engine(t, m2, Options{}).Grade(context.Background(), spec, fixed)
	if ev.Passed {
		t.Fatal("a 2-of-3 jury passed a unanimous consensus")
	}
}

func TestJurorAbstains(t *testing.T) {
	// Juror 1 answers prose twice (then abstains); jurors 0 and 2 pass.
	m := &scripted{answer: perJuror(verdict(0.9, "a"), "prose", "still prose", verdict(0.8, "c"))}
	spec := WithJudge(Spec{Rubric: textSpec(t)}, &config.Judge{Jury: &config.Jury{Size: 3, Consensus: 1}})
	ev, err := engine(t, m, Options{}).Grade(context.Background(), spec, fixed)
	if err != nil {
		t.Fatal(err)
	}
	j := ev.Jurors[1]
	if !j.Abstained || j.Score != nil || !strings.Contains(j.Error, "prose") {
		t.Fatalf("juror 1 = %+v", j)
	}
	// The abstention counts neither for nor against: 2 of 2 pass.
	if !ev.Passed || ev.Jury.Abstained != 1 || ev.Jury.PassFraction != 1 || ev.Calls != 4 {
		t.Fatalf("eval = %+v, jury %+v", ev, ev.Jury)
	}
	if math.Abs(ev.Score-0.85) > 1e-9 {
		t.Fatalf("score = %v, want the mean of the non-abstaining 0.85", ev.Score)
	}
}

func TestAllJurorsAbstainIsAnError(t *testing.T) {
	m := &scripted{answer: perJuror("nope")}
	spec := WithJudge(Spec{Rubric: textSpec(t)}, &config.Judge{Jury: &config.Jury{Size: 2}})
	_, err := engine(t, m, Options{}).Grade(context.Background(), spec, fixed)
	if !errors.Is(err, ErrReply) || !strings.Contains(err.Error(), "every juror abstained") {
		t.Fatalf("err = %v", err)
	}
}

func TestJuryAlphaOverCriteria(t *testing.T) {
	// Three jurors, two criteria: juror scores per criterion.
	scores := [][]float64{{1, 0.2}, {0.9, 0.1}, {0.8, 0.3}}
	m := &scripted{answer: func(n int, _ sdk.ChatRequest) string { return verdict(scores[n/2][n%2], "r") }}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{crit("a"), crit("b")}})
	spec := WithJudge(Spec{Rubric: r}, &config.Judge{Jury: &config.Jury{Size: 3}})
	ev, err := engine(t, m, Options{}).Grade(context.Background(), spec, fixed)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := agreement.Alpha([][]float64{{1, 0.9, 0.8}, {0.2, 0.1, 0.3}}, agreement.Interval)
	if ev.Jury.Alpha == nil || math.Abs(*ev.Jury.Alpha-want) > 1e-12 || want < 0.9 {
		t.Fatalf("alpha = %v, want %v", ev.Jury.Alpha, want)
	}
	// Per-criterion scores are the jurors' mean.
	if math.Abs(*ev.Criteria[0].Score-0.9) > 1e-9 || math.Abs(*ev.Criteria[1].Score-0.2) > 1e-9 {
		t.Fatalf("criteria = %+v", ev.Criteria)
	}
}

func TestAlphaUndefinedWhenUnanimous(t *testing.T) {
	m := &scripted{answer: perJuror(verdict(1, "a"))}
	spec := WithJudge(Spec{Rubric: textSpec(t)}, &config.Judge{Jury: &config.Jury{Size: 3}})
	ev, _ := engine(t, m, Options{}).Grade(context.Background(), spec, fixed)
	if ev.Jury.Alpha != nil {
		t.Fatalf("alpha = %v for identical scores, want nil", *ev.Jury.Alpha)
	}
}

func TestPanel(t *testing.T) {
	cases := []struct {
		name      string
		scores    map[string]float64
		aggregate string
		tieBreak  string
		pass      bool
	}{
		{"majority tie fails", map[string]float64{"m1": 0.9, "m2": 0.1}, "majority", "fail", false},
		{"majority tie passes", map[string]float64{"m1": 0.9, "m2": 0.1}, "majority", "pass", true},
		{"majority", map[string]float64{"m1": 0.9, "m2": 0.1, "m3": 0.8}, "majority", "fail", true},
		{"mean", map[string]float64{"m1": 0.9, "m2": 0.4}, "mean", "fail", false},
		{"median", map[string]float64{"m1": 0.9, "m2": 0.1, "m3": 0.8}, "median", "fail", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := source{models: map[string]*scripted{}}
			var panel []string
			for _, id := range []string{"m1", "m2", "m3"} {
				if sc, ok := c.scores[id]; ok {
					src.models[id] = &scripted{answer: perJuror(verdict(sc, id))}
					panel = append(panel, id)
				}
			}
			spec := WithJudge(Spec{Rubric: textSpec(t)}, &config.Judge{Panel: panel, Aggregate: c.aggregate, TieBreak: c.tieBreak,
				Jury: &config.Jury{Size: 5}}) // a panel wins over a jury
			ev, err := engine(t, nil, Options{Models: src}).Grade(context.Background(), spec, fixed)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Passed != c.pass || ev.Jury.Kind != "panel" || len(ev.Jurors) != len(panel) {
				t.Fatalf("eval %+v (%s)", ev, ev.Reason)
			}
			var sum float64
			for _, id := range panel {
				sum += c.scores[id]
				if src.models[id].calls() != 1 {
					t.Fatalf("model %s called %d times", id, src.models[id].calls())
				}
			}
			if math.Abs(ev.Score-sum/float64(len(panel))) > 1e-9 {
				t.Fatalf("score %v is not the panel mean", ev.Score)
			}
		})
	}
}

func TestPanelMeanKeepsGates(t *testing.T) {
	src := source{models: map[string]*scripted{
		"m1": {answer: byCriterion(map[string]float64{"must": 0.4, "x": 1})},
		"m2": {answer: byCriterion(map[string]float64{"must": 0.5, "x": 1})},
	}}
	r := resolve(t, &config.Rubric{Criteria: []*config.Criterion{crit("must", func(c *config.Criterion) { c.Required = true }), crit("x")}})
	spec := WithJudge(Spec{Rubric: r}, &config.Judge{Panel: []string{"m1", "m2"}})
	ev, err := engine(t, nil, Options{Models: src}).Grade(context.Background(), spec, fixed)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Passed || !strings.Contains(ev.Reason, "required") {
		t.Fatalf("panel mean passed a failed required criterion: %s", ev.Reason)
	}
}

func TestPanelModelWithoutKeyDefersBeforeAnyCall(t *testing.T) {
	m1 := &scripted{answer: perJuror(verdict(1, "a"))}
	src := source{models: map[string]*scripted{"m1": m1}, noKey: map[string]bool{"claude-haiku-4-5": true}}
	spec := WithJudge(Spec{Rubric: textSpec(t)}, &config.Judge{Panel: []string{"m1", "claude-haiku-4-5"}})
	_, err := engine(t, nil, Options{Models: src}).Grade(context.Background(), spec, fixed)
	if !errors.Is(err, ErrDeferred) || m1.calls() != 0 {
		t.Fatalf("err = %v, %d calls to m1", err, m1.calls())
	}
}
