package main

import (
	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
	"github.com/mcptest/mcptest/sdk"
)

// matchExact passes when the actual value is structurally equal to the
// argument (see jsonvalue.Equal). A failure carries both values and a
// diff, and a note when the two are of different JSON types (such as "5"
// and 5).
func matchExact(_ *family, in input) (sdk.MatchResult, error) {
	if jsonvalue.Equal(in.actual.v, in.arg) {
		return sdk.Pass(), nil
	}
	f := sdk.Failure{
		Expected: in.argRaw,
		Actual:   in.actualRaw,
		Diff:     diffValues(in.arg, in.actual.v),
	}
	if want, got := jsonvalue.Describe(in.arg), jsonvalue.Describe(in.actual.v); want != got {
		f.Note = "type mismatch: expected " + want + ", got " + got
	}
	return sdk.Fail(f), nil
}
