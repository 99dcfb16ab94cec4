package pluginrpc

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/mcptest/mcptest/sdk/contract"
)

func TestPackedItemsRoundTrip(t *testing.T) {
	items := []MatchItem{
		{ID: 7, Key: "exact", Actual: json.RawMessage(`"a"`), Argument: json.RawMessage(`"a"`),
			Options: contract.MatchOptions{TestID: "s.yml::tools::t1", TestName: "t1", SuiteFile: "s.yml", SuiteDir: ".", Target: "result.x", Message: "m"}},
		{ID: 9, Key: "regex", Actual: json.RawMessage(`{"k":[1,2]}`), Argument: json.RawMessage(`"^x"`),
			Options: contract.MatchOptions{TestID: "s.yml::tools::t1", TestName: "t1", SuiteFile: "s.yml", SuiteDir: ".", Target: "result.y", Raw: json.RawMessage(`{"future":1}`)}},
		{ID: 11, Key: "exact", Actual: json.RawMessage(`null`), Argument: json.RawMessage(`null`),
			Options: contract.MatchOptions{TestID: "s.yml::tools::t2", TestName: "t2 ünïcode", SuiteFile: "s.yml", UpdateSnapshots: true}},
		{ID: 12, Key: "exact", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)},
		// t1 again after others: its context is sent a second time.
		{ID: 13, Key: "exact", Actual: json.RawMessage(`2`), Argument: json.RawMessage(`3`),
			Options: contract.MatchOptions{TestID: "s.yml::tools::t1", TestName: "t1", SuiteFile: "s.yml", SuiteDir: ".", Target: "result.x"}},
	}
	got, ctxs, err := decodePackedItems(encodePackedItems(items))
	if err != nil {
		t.Fatal(err)
	}
	// Contexts are sent once per run of items sharing them: t1, t2, none, t1.
	if len(got) != len(items) || len(ctxs) != 4 {
		t.Fatalf("%d items, %d contexts", len(got), len(ctxs))
	}
	for i, it := range items {
		g := got[i]
		o := it.Options
		var c packedContext
		if g.context > 0 {
			c = ctxs[g.context-1]
		}
		if g.key != it.Key || string(g.actual) != string(it.Actual) || string(g.argument) != string(it.Argument) ||
			string(g.options) != string(o.Raw) || g.target != o.Target || g.message != o.Message ||
			c.testID != o.TestID || c.testName != o.TestName || c.suiteFile != o.SuiteFile || c.suiteDir != o.SuiteDir || c.update != o.UpdateSnapshots {
			t.Errorf("item %d: got %+v context %+v, want %+v", i, g, c, it)
		}
	}
}

func TestPackedResultsRoundTrip(t *testing.T) {
	half, zero := 0.5, 0.0
	in := []MatchItemResult{
		{ID: 1, Pass: true},
		{ID: 2, Failure: json.RawMessage(`{"expected":1}`)},
		{ID: 3, Pass: true, Score: &half},
		{ID: 4, Score: &zero, Failure: json.RawMessage(`{}`)},
		{ID: 5, Error: "boom ✗", ErrorKind: ErrorKindPanic},
		{ID: 6, Deferred: "model \"gpt-4o\" (openai) has no key: set OPENAI_API_KEY"},
		{ID: 7, Pass: true, Score: &half, Eval: json.RawMessage(`{"form":"text","score":0.5}`)},
		// Bare verdicts (the decoder's two-byte fast path) between and
		// after the others, a failure without detail among them.
		{ID: 8, Pass: true},
		{ID: 9},
		{ID: 10, Error: "e", ErrorKind: ErrorKindInternal},
		{ID: 11},
		{ID: 12, Pass: true},
	}
	out := make([]MatchItemResult, len(in))
	if err := DecodePackedResults(encodePackedResults(in), func(i int) uint64 { return in[i].ID }, out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("got %+v\nwant %+v", out, in)
	}
	if err := DecodePackedResults(encodePackedResults(in), func(i int) uint64 { return 0 }, make([]MatchItemResult, 4)); !errors.Is(err, errBadPacked) {
		t.Errorf("a result count that differs from the items: %v", err)
	}
	// Cut anywhere, the batch is an error, whichever reader meets the end.
	full := encodePackedResults(in)
	for n := range len(full) {
		if err := DecodePackedResults(full[:n], func(i int) uint64 { return 0 }, make([]MatchItemResult, len(in))); err == nil {
			t.Fatalf("a batch cut to %d of %d bytes decoded", n, len(full))
		}
	}
}

// FuzzPackedDecoders: whatever bytes arrive, the decoders return an
// error or values, never panic.
func FuzzPackedDecoders(f *testing.F) {
	f.Add(encodePackedItems([]MatchItem{{Key: "k", Actual: json.RawMessage(`1`), Options: contract.MatchOptions{TestID: "t"}}}))
	f.Add(encodePackedResults([]MatchItemResult{{Pass: true}, {Error: "e"}}))
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _ = decodePackedItems(b)
		out := make([]MatchItemResult, 2)
		_ = DecodePackedResults(b, func(int) uint64 { return 0 }, out)
	})
}
