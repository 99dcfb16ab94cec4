package pluginrpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/plugintest"
	"github.com/mcptest/mcptest/sdk/report"
)

func TestDescribe(t *testing.T) {
	p := &sdk.Plugin{
		Name: "multi", Version: "1.2.3",
		Matchers:  map[string]sdk.Matcher{"b": sdk.MatcherFunc(nil), "a": sdk.MatcherFunc(nil)},
		Reporters: map[string]sdk.Reporter{"r": sdk.ReporterFunc(nil)},
	}
	var buf bytes.Buffer
	if err := sdk.WriteDescription(&buf, p); err != nil {
		t.Fatal(err)
	}
	var d sdk.Description
	if err := json.Unmarshal(buf.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.Name != "multi" || d.Version != "1.2.3" || fmt.Sprint(d.ProtocolVersions) != "[1]" {
		t.Fatalf("description = %+v", d)
	}
	if fmt.Sprint(d.Components) != "[{matcher [a b]} {reporter [r]}]" {
		t.Fatalf("components = %v", d.Components)
	}
	conn := plugintest.New(t, p, nil)
	got, err := conn.Info.Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Components) != fmt.Sprint(d.Components) || got.Name != d.Name {
		t.Fatalf("Describe over gRPC = %+v, want %+v", got, d)
	}
}

func TestMatchCarriesOptionsScoreAndFailure(t *testing.T) {
	var seen sdk.MatchOptions
	var mu sync.Mutex
	m := sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		mu.Lock()
		seen = in.Options
		mu.Unlock()
		s := 0.25
		return sdk.MatchResult{Pass: false, Score: &s, Failure: &sdk.Failure{
			Expected: in.Argument, Actual: in.Actual, Note: "n", Extra: map[string]any{"match": nil},
		}}, nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "m1", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"k": m}}, nil)
	res, err := conn.Matcher.Match(context.Background(), []pluginrpc.MatchItem{{
		ID: 9, Key: "k", Actual: json.RawMessage(`12345678901234567890`), Argument: json.RawMessage(`"x"`),
		Options: sdk.MatchOptions{TestName: "t", Target: "result", Raw: json.RawMessage(`{"future_field":1}`)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.ID != 9 || r.Pass || r.Score == nil || *r.Score != 0.25 {
		t.Fatalf("result = %+v", r)
	}
	var f map[string]any
	if err := json.Unmarshal(r.Failure, &f); err != nil {
		t.Fatal(err)
	}
	if _, ok := f["match"]; !ok || f["note"] != "n" || f["expected"] != "x" {
		t.Fatalf("failure = %s", r.Failure)
	}
	if !strings.Contains(string(r.Failure), "12345678901234567890") {
		t.Fatalf("big integer lost: %s", r.Failure)
	}
	if seen.TestName != "t" || seen.Target != "result" || !strings.Contains(string(seen.Raw), "future_field") {
		t.Fatalf("options = %+v", seen)
	}
}

func TestLargeBatchRoundTrips(t *testing.T) {
	m := sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		return sdk.MatchResult{Pass: bytes.Equal(in.Actual, in.Argument)}, nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "m1", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"eq": m}}, nil)
	big := json.RawMessage(`"` + strings.Repeat("a", 6<<20) + `"`) // over gRPC's 4 MiB default
	items := []pluginrpc.MatchItem{{ID: 1, Key: "eq", Actual: big, Argument: big}}
	for i := range 2000 {
		v := json.RawMessage(fmt.Sprint(i))
		items = append(items, pluginrpc.MatchItem{ID: uint64(i + 2), Key: "eq", Actual: v, Argument: v})
	}
	// Classic, then packed: a batch with a huge item goes classic even
	// when packing is on, and a batch of small ones goes packed.
	for round, batch := range [][]pluginrpc.MatchItem{items, items, items[1:]} {
		conn.Matcher.UsePacked(round > 0)
		res, err := conn.Matcher.Match(context.Background(), batch)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for i, r := range res {
			if !r.Pass || r.ID != batch[i].ID {
				t.Fatalf("round %d item %d: %+v", round, i, r)
			}
		}
	}
}

func TestReporterStreamsOutputPerEvent(t *testing.T) {
	rep := sdk.ReporterFunc(func(_ context.Context, s *sdk.RenderSession) error {
		fmt.Fprintf(s.Progress, "start %s color=%v\n", s.Key, s.Terminal.Color)
		for ev := range s.Events() {
			switch ev.Type {
			case report.EventTestFinished:
				fmt.Fprintf(s.Primary, "test %s %s\n", ev.Test.Name, ev.Test.Status)
			case report.EventRunFinished:
				fmt.Fprintf(s.Primary, "total %d\n", ev.Run.Summary.Total)
				fmt.Fprintln(s.StepSummary, "## summary")
			}
		}
		return nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "r1", Version: "1.0.0", Reporters: map[string]sdk.Reporter{"txt": rep}}, nil)
	var mu sync.Mutex
	out := map[pluginrpc.Sink]*bytes.Buffer{pluginrpc.SinkPrimary: {}, pluginrpc.SinkProgress: {}, pluginrpc.SinkStepSummary: {}}
	var order []string
	rs, err := conn.Reporter.Render(context.Background(), pluginrpc.RenderStart{Key: "txt", Terminal: sdk.Terminal{Color: true}},
		func(s pluginrpc.Sink, b []byte) {
			mu.Lock()
			defer mu.Unlock()
			out[s].Write(b)
			order = append(order, string(b))
		})
	if err != nil {
		t.Fatal(err)
	}
	send := func(ev report.Event) {
		b, _ := json.Marshal(ev)
		if err := rs.Send(b); err != nil {
			t.Fatal(err)
		}
	}
	send(report.Event{Type: report.EventRunStarted, Total: 1})
	send(report.Event{Type: report.EventTestFinished, Test: &report.Test{Name: "a", Status: report.StatusPassed}})
	send(report.Event{Type: report.EventRunFinished, Run: &report.Run{Summary: report.Summary{Total: 1}}})
	if err := rs.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out[pluginrpc.SinkPrimary].String(); got != "test a passed\ntotal 1\n" {
		t.Errorf("primary = %q", got)
	}
	if got := out[pluginrpc.SinkProgress].String(); got != "start txt color=true\n" {
		t.Errorf("progress = %q", got)
	}
	if got := out[pluginrpc.SinkStepSummary].String(); got != "## summary\n" {
		t.Errorf("step summary = %q", got)
	}
}

func TestReporterErrorAndPanicReachTheHost(t *testing.T) {
	p := &sdk.Plugin{Name: "r1", Version: "1.0.0", Reporters: map[string]sdk.Reporter{
		"fails":  sdk.FinalReporter(func(context.Context, *sdk.RenderSession, *report.Run) error { return errors.New("disk full") }),
		"panics": sdk.ReporterFunc(func(context.Context, *sdk.RenderSession) error { panic("kaboom") }),
	}}
	conn := plugintest.New(t, p, nil)
	for key, want := range map[string]string{"fails": "disk full", "panics": "kaboom"} {
		rs, err := conn.Reporter.Render(context.Background(), pluginrpc.RenderStart{Key: key}, func(pluginrpc.Sink, []byte) {})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(report.Event{Type: report.EventRunFinished, Run: &report.Run{}})
		_ = rs.Send(b)
		if err := rs.Close(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: close error = %v, want %q", key, err, want)
		}
	}
}

// TestMatchReusesNoStateAcrossBatches: the client reuses its request
// buffers, so a batch after a larger one with other tests must still carry
// its own items and contexts only.
func TestMatchReusesNoStateAcrossBatches(t *testing.T) {
	m := sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		want := in.Options.TestName + ":" + in.Options.Target
		if string(in.Actual) == `"fail"` {
			return sdk.Fail(sdk.Failure{Note: want}), nil
		}
		return sdk.MatchResult{Pass: string(in.Argument) == strconv.Quote(want)}, nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "m1", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"k": m}}, nil)
	batch := func(tests, per int, prefix string) []pluginrpc.MatchItem {
		var items []pluginrpc.MatchItem
		for i := range tests {
			for j := range per {
				name, target := fmt.Sprintf("%s%d", prefix, i), fmt.Sprintf("t%d", j)
				items = append(items, pluginrpc.MatchItem{ID: uint64(len(items)), Key: "k", Actual: json.RawMessage(`1`),
					Argument: json.RawMessage(strconv.Quote(name + ":" + target)),
					Options:  sdk.MatchOptions{TestID: name, TestName: name, Target: target}})
			}
		}
		return items
	}
	failing := batch(4, 50, "f")
	for i := range failing {
		failing[i].Actual = json.RawMessage(`"fail"`)
	}
	// Both encodings; the packed one reuses its arrays from batch to batch,
	// so a failing batch comes before passing ones of other sizes.
	for _, packed := range []bool{false, true} {
		conn.Matcher.UsePacked(packed)
		for round, items := range [][]pluginrpc.MatchItem{batch(7, 30, "a"), failing, batch(2, 3, "b"), batch(5, 1, "a"), batch(1, 200, "c")} {
			res, err := conn.Matcher.Match(context.Background(), items)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != len(items) {
				t.Fatalf("packed %v round %d: %d results for %d items", packed, round, len(res), len(items))
			}
			for i, r := range res {
				it := items[i]
				if string(it.Actual) == `"fail"` {
					if want := `{"note":"` + it.Options.TestName + ":" + it.Options.Target + `"}`; r.Pass || string(r.Failure) != want {
						t.Fatalf("packed %v round %d item %d: %+v, want failure %s", packed, round, i, r, want)
					}
					continue
				}
				if !r.Pass || r.ID != it.ID || r.Error != "" || len(r.Failure) != 0 {
					t.Fatalf("packed %v round %d item %d: %+v", packed, round, i, r)
				}
			}
		}
	}
}

// TestFinalReportersAreDeclared: a reporter made with FinalReporter is
// declared final-only, so hosts can leave the live events out; others are
// not.
func TestFinalReportersAreDeclared(t *testing.T) {
	p := &sdk.Plugin{Name: "r1", Version: "1.0.0", Capabilities: []string{"custom"}, Reporters: map[string]sdk.Reporter{
		"final": sdk.FinalReporter(func(context.Context, *sdk.RenderSession, *report.Run) error { return nil }),
		"live":  sdk.ReporterFunc(func(context.Context, *sdk.RenderSession) error { return nil }),
	}}
	d := p.Describe()
	if want := []string{"custom", sdk.CapabilityFinalOnly + "final"}; !slices.Equal(d.Capabilities, want) {
		t.Fatalf("capabilities = %v, want %v", d.Capabilities, want)
	}
	if !d.FinalOnly("final") || d.FinalOnly("live") || d.FinalOnly("other") {
		t.Fatalf("FinalOnly: final=%v live=%v other=%v", d.FinalOnly("final"), d.FinalOnly("live"), d.FinalOnly("other"))
	}
	// The description travels over gRPC unchanged.
	conn := plugintest.New(t, p, nil)
	got, err := conn.Info.Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !got.FinalOnly("final") || got.FinalOnly("live") {
		t.Fatalf("described over gRPC: %v", got.Capabilities)
	}
}

// TestPackedAndClassicBatchesAgree sends the same batch both ways through
// a real gRPC connection: options, contexts, scores, failures, errors and
// panics come back the same.
func TestPackedAndClassicBatchesAgree(t *testing.T) {
	m := sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		switch string(in.Argument) {
		case `"panic"`:
			panic("boom")
		case `"error"`:
			return sdk.MatchResult{}, sdk.InvalidArgument("bad argument for %s", in.Options.Target)
		}
		s := 0.25
		desc := in.Options.TestID + "|" + in.Options.TestName + "|" + in.Options.SuiteFile + "|" + in.Options.SuiteDir + "|" +
			in.Options.Target + "|" + in.Options.Message + "|" + strconv.FormatBool(in.Options.UpdateSnapshots) + "|" + string(in.Options.Raw)
		return sdk.MatchResult{Pass: string(in.Actual) == string(in.Argument), Score: &s, Failure: &sdk.Failure{Note: desc, Actual: in.Actual}}, nil
	})
	var items []pluginrpc.MatchItem
	for i := range 300 {
		arg := `"x"`
		switch i % 50 {
		case 7:
			arg = `"panic"`
		case 8:
			arg = `"error"`
		}
		items = append(items, pluginrpc.MatchItem{ID: uint64(1000 + i), Key: "k", Actual: json.RawMessage(fmt.Sprintf(`"%d"`, i%3)), Argument: json.RawMessage(arg),
			Options: sdk.MatchOptions{TestID: fmt.Sprintf("t%d", i/10), TestName: fmt.Sprintf("test %d", i/10), SuiteFile: "s.yml", SuiteDir: "dir",
				Target: fmt.Sprintf("result.x[%d]", i%4), Message: "msg", UpdateSnapshots: i%20 == 0, Raw: json.RawMessage(`{"o":1}`)}})
	}
	items = append(items, pluginrpc.MatchItem{ID: 5, Key: "missing", Actual: json.RawMessage(`1`), Argument: json.RawMessage(`1`)})
	conn := plugintest.New(t, &sdk.Plugin{Name: "m1", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"k": m}}, nil)
	classic, err := conn.Matcher.Match(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	conn.Matcher.UsePacked(true)
	packed, err := conn.Matcher.Match(context.Background(), items)
	if err != nil {
		t.Fatal(err)
	}
	if len(classic) != len(items) || len(packed) != len(items) {
		t.Fatalf("%d classic and %d packed results for %d items", len(classic), len(packed), len(items))
	}
	for i := range items {
		c, p := classic[i], packed[i]
		cs, ps := -1.0, -1.0
		if c.Score != nil {
			cs = *c.Score
		}
		if p.Score != nil {
			ps = *p.Score
		}
		if c.ID != items[i].ID || p.ID != c.ID || p.Pass != c.Pass || cs != ps || string(p.Failure) != string(c.Failure) || p.Error != c.Error || p.ErrorKind != c.ErrorKind {
			t.Fatalf("item %d:\nclassic %+v\npacked  %+v", i, c, p)
		}
	}
	if k := packed[7].ErrorKind; k != pluginrpc.ErrorKindPanic {
		t.Errorf("a panic: kind %v", k)
	}
	if k := packed[8].ErrorKind; k != pluginrpc.ErrorKindInvalidArgument {
		t.Errorf("an invalid argument: kind %v", k)
	}
	if k := packed[len(items)-1]; k.ErrorKind != pluginrpc.ErrorKindInvalidArgument || !strings.Contains(k.Error, "no matcher") {
		t.Errorf("an unknown key: %+v", k)
	}
	if !strings.Contains(string(packed[20].Failure), `t2|test 2|s.yml|dir|result.x[0]|msg|true|{\"o\":1}`) {
		t.Errorf("options did not arrive: %s", packed[20].Failure)
	}
}

// TestPackedRequestMemoryIsReusedSafely: the plugin reads a packed batch
// in the pooled buffer it arrived in and frees it when the call is done.
// The results of a batch (failures quoting the item's actual value) must
// not change when later batches reuse that memory, and no buffer may stay
// held once a call returned.
func TestPackedRequestMemoryIsReusedSafely(t *testing.T) {
	m := sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		return sdk.Fail(sdk.Failure{Actual: in.Actual, Expected: in.Argument}), nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "m1", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"k": m}}, nil)
	conn.Matcher.UsePacked(true)
	batch := func(round int) []pluginrpc.MatchItem {
		items := make([]pluginrpc.MatchItem, 500)
		for i := range items {
			items[i] = pluginrpc.MatchItem{ID: uint64(i), Key: "k",
				Actual:   json.RawMessage(fmt.Sprintf(`"round %d item %d %s"`, round, i, strings.Repeat("x", 40))),
				Argument: json.RawMessage(fmt.Sprintf(`%d`, round*1000+i))}
		}
		return items
	}
	pluginrpc.ForgetReceived()
	var kept [][]pluginrpc.MatchItemResult
	for round := range 6 {
		res, err := conn.Matcher.Match(context.Background(), batch(round))
		if err != nil {
			t.Fatal(err)
		}
		if n := pluginrpc.ReceivedWaiting(); n != 0 {
			t.Fatalf("round %d: %d received batches still hold their buffers", round, n)
		}
		kept = append(kept, res)
	}
	for round, res := range kept {
		for i, r := range res {
			want := fmt.Sprintf(`{"expected":%d,"actual":"round %d item %d %s"}`, round*1000+i, round, i, strings.Repeat("x", 40))
			if string(r.Failure) != want {
				t.Fatalf("round %d item %d: failure %s, want %s", round, i, r.Failure, want)
			}
		}
	}
}

// TestMatchSourceAgreesWithMatchInto: items given through an ItemSource
// (how the host sends its own requests) come back, packed and classic,
// as a classic MatchInto returns them, with the ids the caller gives; and
// no option of one item reaches the matcher with the next (the packed
// server reuses one input per range).
func TestMatchSourceAgreesWithMatchInto(t *testing.T) {
	m := sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		if string(in.Actual) == string(in.Argument) {
			return sdk.Pass(), nil
		}
		o := in.Options
		return sdk.Fail(sdk.Failure{Actual: in.Actual, Note: fmt.Sprintf("%s|%s|%s|%s|%s|%v|%s|%s", o.TestID, o.TestName, o.SuiteFile, o.SuiteDir, o.Target, o.UpdateSnapshots, o.Message, o.Raw)}), nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "m1", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"k": m}}, nil)
	var items []pluginrpc.MatchItem
	for i := range 300 {
		opts := sdk.MatchOptions{TestID: fmt.Sprintf("t%d", i/7), TestName: fmt.Sprintf("test %d", i/7), SuiteFile: "s.yml", SuiteDir: "d",
			Target: fmt.Sprintf("x[%d]", i%5), UpdateSnapshots: i%11 == 0}
		// Items without a test, or with a message or further options,
		// among the others: nothing of one item may show in the next.
		switch {
		case i%3 == 1:
			opts = sdk.MatchOptions{}
		case i%4 == 2:
			opts.Message, opts.Raw = "m", json.RawMessage(`{"o":1}`)
		}
		items = append(items, pluginrpc.MatchItem{ID: uint64(i), Key: "k", Actual: json.RawMessage(fmt.Sprintf(`%d`, i%3)), Argument: json.RawMessage(`0`), Options: opts})
	}
	// The classic encoding builds each input afresh: the reference.
	want := make([]pluginrpc.MatchItemResult, len(items))
	if err := conn.Matcher.MatchInto(context.Background(), items, want); err != nil {
		t.Fatal(err)
	}
	for _, packed := range []bool{false, true} {
		conn.Matcher.UsePacked(packed)
		got := make([]pluginrpc.MatchItemResult, len(items))
		ids := func(i int) uint64 { return uint64(i) }
		if err := conn.Matcher.MatchSourceInto(context.Background(), pluginrpc.MatchItems(items), ids, got); err != nil {
			t.Fatal(err)
		}
		for i := range items {
			w, g := want[i], got[i]
			if g.ID != w.ID || g.Pass != w.Pass || string(g.Failure) != string(w.Failure) || g.Error != w.Error {
				t.Fatalf("packed %v item %d:\nMatchInto       %+v\nMatchSourceInto %+v", packed, i, w, g)
			}
		}
	}
}

// TestConcurrentPackedBatchesWithFailures: batches judged at once, each
// split over several ranges whose items fail, each range writing its
// failures to its own buffer of a fresh scratch. The ranges used to grow
// the scratch's list of buffers themselves, at the same time: the race
// detector (make test-race) caught it in a core/run test. Every failure
// must still be the item's own.
func TestConcurrentPackedBatchesWithFailures(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	m := sdk.MatcherFunc(func(_ context.Context, in sdk.MatchInput) (sdk.MatchResult, error) {
		return sdk.MatchResult{Failure: &sdk.Failure{Note: "item " + string(in.Argument), Actual: in.Actual}}, nil
	})
	conn := plugintest.New(t, &sdk.Plugin{Name: "m1", Version: "1.0.0", Matchers: map[string]sdk.Matcher{"k": m}}, nil)
	conn.Matcher.UsePacked(true)
	const callers, size = 8, 300
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for c := range callers {
		wg.Go(func() {
			items := make([]pluginrpc.MatchItem, size)
			for i := range items {
				n := c*size + i
				items[i] = pluginrpc.MatchItem{ID: uint64(n), Key: "k", Actual: json.RawMessage(strconv.Itoa(n)), Argument: json.RawMessage(strconv.Itoa(n))}
			}
			res, err := conn.Matcher.Match(context.Background(), items)
			if err != nil {
				errs <- err
				return
			}
			for i, r := range res {
				n := c*size + i
				if want := fmt.Sprintf(`"item %d"`, n); r.ID != uint64(n) || r.Pass || !strings.Contains(string(r.Failure), want) {
					errs <- fmt.Errorf("caller %d item %d: %+v (failure %s), want a failure noting %s", c, i, r, r.Failure, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
