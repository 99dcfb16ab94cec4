// Package textbench generates the assertions of the performance budget
// "100,000 assertions through the text plugin in one run: at most 1 µs per
// assertion amortised over a direct Go call measured in the same run".
//
// Two benchmarks judge them: BenchmarkJudge100k in core/assert sends them
// through the runner's judging path and the real plugin process, and
// BenchmarkDirect100k in plugins/matchers/text calls the Go matchers
// directly. Both take the items from Generate, so the two sides judge the
// same keys, arguments and values, and the difference is what the
// pipeline costs. The package is only imported by tests.
package textbench

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The size of the benchmark: 1,000 tool tests of 100 assertions each.
const (
	Tests             = 1000
	AssertionsPerTest = 100
)

// SuiteFile and SuiteDir are what the options of each item carry; the core
// benchmark writes its suite under this name.
const (
	SuiteFile = "bench/text100k.yml"
	SuiteDir  = "bench"
)

// Test is one tool test: its name, the response envelope the runner judges
// ({"result": ...}) and its assertions in declaration order.
type Test struct {
	Name       string
	Envelope   json.RawMessage
	Assertions []Assertion
}

// Assertion is one expect entry and what judging it involves.
type Assertion struct {
	// Target is the entry's target path in the envelope.
	Target string
	// Key is the text plugin's matcher key.
	Key string
	// Argument is the matcher's argument as JSON.
	Argument json.RawMessage
	// Actual is the value at Target as the core sends it: the compact JSON
	// encoding of the decoded value (object keys sorted).
	Actual json.RawMessage
	// Pass is the verdict the matcher must reach; about one in four fails.
	Pass bool
}

// TestID is the stable identity the plan gives the test named name in
// SuiteFile (core/plan: file::block::name).
func TestID(name string) string { return SuiteFile + "::tools::" + name }

// Generate returns the tests, the same on every call.
//
// Each envelope is a realistic tool result: a text content block of ~70
// bytes and structured content holding a short string x and a small
// order object. The assertions cycle through exact, contains, regex,
// icontains and starts-with on result.content[0].text,
// result.structuredContent.x and (for the structural forms)
// result.structuredContent.order and its id, with arguments varying from
// one round of ten to the next. Exactly one in four fails, spread evenly
// over the ten shapes, by an argument that differs from a passing one by a
// character or two, so failures cost what a near miss costs (a diff for
// exact, the failure shape for the rest).
func Generate() []Test {
	out := make([]Test, Tests)
	for i := range out {
		out[i] = generateTest(i)
	}
	return out
}

// patterns are the regex arguments: a handful of shapes, as suites repeat
// a few patterns across many tests (the plugin caches them compiled).
var patterns = []struct{ text, x, failText, failX string }{
	{`^Order #\d{6} shipped`, `^[a-z]+-\d+`, `^Order #\d{7} shipped`, `^[A-Z]+-\d+`},
	{`warehouse \d{2};`, `-\d{4}\b`, `warehouse \d{3};`, `-\d{6}\b`},
	{`ETA 2026-12-\d{2}, status=(ok|late)`, `(alpha|beta|gamma)-`, `ETA 2025-12-\d{2}`, `(delta|omega)-`},
	{`(?i)STATUS=OK`, `^\w+-\d+ [a-z]+`, `(?i)STATUS=KO`, `^\w+_\d+`},
}

// words vary the structured content between tests.
var words = []string{"alpha", "beta", "gamma"}

func generateTest(i int) Test {
	text := fmt.Sprintf("Order #%06d shipped to warehouse %02d; ETA 2026-12-%02d, status=ok", i, i%37, 1+i%28)
	x := fmt.Sprintf("%s-%04d %s", words[i%len(words)], i, "ready")
	order := map[string]any{"id": i, "warehouse": i % 37, "status": "ok", "eta": fmt.Sprintf("2026-12-%02d", 1+i%28)}
	env := map[string]any{"result": map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": text}},
		"structuredContent": map[string]any{"x": x, "order": order},
		"isError":           false,
	}}
	t := Test{
		Name:       fmt.Sprintf("order %d ships", i),
		Envelope:   mustJSON(env),
		Assertions: make([]Assertion, AssertionsPerTest),
	}
	for k := range t.Assertions {
		// k/10 shifts the failing slot from one round of ten shapes to
		// the next, so every shape fails as often as the others.
		fail := (i+k+k/10)%4 == 3
		p := patterns[(i+k/10)%len(patterns)]
		a := Assertion{Pass: !fail}
		// q, the round of ten, varies the arguments, so a test does not
		// repeat an assertion more than its shape requires (exact has one
		// passing argument per target). "~" appears in no value, so an
		// argument with it appended never matches.
		q := k / 10
		switch k % 10 {
		case 0:
			a.Target, a.Key, a.Actual = "result.content[0].text", "exact", mustJSON(text)
			a.Argument = mustJSON(pick(fail, text, text[:len(text)-2]+"KO"))
		case 1:
			a.Target, a.Key, a.Actual = "result.content[0].text", "contains", mustJSON(text)
			sub := text[3*q : 3*q+12]
			a.Argument = mustJSON(pick(fail, sub, sub+"~"))
		case 2:
			a.Target, a.Key, a.Actual = "result.content[0].text", "regex", mustJSON(text)
			a.Argument = mustJSON(pick(fail, p.text, p.failText))
		case 3:
			a.Target, a.Key, a.Actual = "result.content[0].text", "icontains", mustJSON(text)
			sub := strings.ToUpper(text[4*q : 4*q+10])
			a.Argument = mustJSON(pick(fail, sub, sub+"~"))
		case 4:
			a.Target, a.Key, a.Actual = "result.content[0].text", "starts-with", mustJSON(text)
			prefix := text[:6+q]
			a.Argument = mustJSON(pick(fail, prefix, prefix+"~"))
		case 5:
			a.Target, a.Key, a.Actual = "result.structuredContent.x", "exact", mustJSON(x)
			a.Argument = mustJSON(pick(fail, x, x+"!"))
		case 6:
			a.Target, a.Key, a.Actual = "result.structuredContent.order", "contains", mustJSON(order)
			// Two of the four fields, a different pair each round.
			keys := []string{"id", "warehouse", "status", "eta"}
			want := map[string]any{keys[q%4]: order[keys[q%4]], keys[(q+1)%4]: order[keys[(q+1)%4]]}
			if fail {
				want["status"] = "late"
			}
			a.Argument = mustJSON(want)
		case 7:
			a.Target, a.Key, a.Actual = "result.structuredContent.order.id", "exact", mustJSON(i)
			a.Argument = mustJSON(pick(fail, i, i+1))
		case 8:
			a.Target, a.Key, a.Actual = "result.structuredContent.x", "regex", mustJSON(x)
			a.Argument = mustJSON(pick(fail, p.x, p.failX))
		case 9:
			a.Target, a.Key, a.Actual = "result.structuredContent.x", "starts-with", mustJSON(x)
			prefix := x[:3+q]
			a.Argument = mustJSON(pick(fail, prefix, prefix+"~"))
		}
		t.Assertions[k] = a
	}
	return t
}

// pick returns pass, or fail when the assertion is meant to fail.
func pick[T any](fail bool, pass, failing T) T {
	if fail {
		return failing
	}
	return pass
}

// mustJSON encodes v as encoding/json does in the core, so maps come out
// with sorted keys, as the core re-encodes an extracted value.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
