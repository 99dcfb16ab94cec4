package assert

import (
	"encoding/json"

	rpt "github.com/mcptest/mcptest/sdk/report"
)

// A model-graded matcher whose model has no key cannot judge its item; the
// plugin says so with a deferral (not an error string), and the assertion
// is deferred: neither passed nor failed, the exit code untouched, the
// note naming the variable to set. --require-models turns it into an
// error instead, for CI jobs that must grade.

// requireModelsHint tells an errored assertion's reader why a missing key
// is an error in this run.
const requireModelsHint = " (--require-models / MCPTEST_REQUIRE_MODELS=1 make a missing model key an error)"

// deferred is the status and note of an assertion a plugin deferred.
func (jd *Judge) deferred(reason string) (rpt.Status, string) {
	msg := jd.Redact.String(reason)
	if jd.RequireModels {
		return rpt.StatusErrored, msg + requireModelsHint
	}
	return rpt.StatusDeferred, msg
}

// maxEvalText bounds each long text of a matcher's grade (the candidate,
// the reasons) as the report keeps it: a grade explains a verdict, it
// need not repeat a large value in full.
const maxEvalText = 16 << 10

// evalOf decodes the grade a model-graded matcher sent with its verdict,
// secrets masked and long texts cut; nil when there is none or it is not
// a grade (a plugin's output is not trusted to be sane).
func (jd *Judge) evalOf(raw json.RawMessage) *rpt.Eval {
	if len(raw) == 0 {
		return nil
	}
	var ev rpt.Eval
	if err := json.Unmarshal(jd.Redact.Bytes(raw), &ev); err != nil {
		return nil
	}
	ev.Response = cutText(ev.Response)
	ev.Prompt = cutText(ev.Prompt)
	ev.Reason = cutText(ev.Reason)
	for i := range ev.Jurors {
		ev.Jurors[i].Reason = cutText(ev.Jurors[i].Reason)
		ev.Jurors[i].Error = cutText(ev.Jurors[i].Error)
	}
	return &ev
}

// cutText keeps the first maxEvalText bytes of s, on a rune boundary,
// marking the cut.
func cutText(s string) string {
	if len(s) <= maxEvalText {
		return s
	}
	end := maxEvalText
	for end > 0 && s[end]&0xC0 == 0x80 {
		end--
	}
	return s[:end] + "…[truncated]"
}

// firstDeferred returns the note of the first deferred assertion among as
// (members of assert-sets included), for the test's own error.
func firstDeferred(as []rpt.Assertion) (string, bool) {
	for i := range as {
		if as[i].Status != rpt.StatusDeferred {
			continue
		}
		if as[i].Error != "" {
			return as[i].Error, true
		}
		if msg, ok := firstDeferred(as[i].Assertions); ok {
			return msg, true
		}
	}
	return "", false
}
