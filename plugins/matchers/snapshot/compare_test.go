package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/mcptest/mcptest/sdk"
)

func TestEqualNumbersByValue(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`100`, `1e2`, true},
		{`-0`, `0.0`, true},
		{`0.1`, `1E-1`, true},
		{`12345678901234567891`, `12345678901234567890`, false},
		{`9007199254740993`, `9007199254740992`, false},
		{`1e999999`, `1e999999`, true},
		{`1e999999`, `1e999998`, false},
		{`{"a":[1,{"b":null}]}`, `{"a":[1.0,{"b":null}]}`, true},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`null`, `false`, false},
		{`"1"`, `1`, false},
	} {
		a, err := decodeValue([]byte(tc.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := decodeValue([]byte(tc.b))
		if err != nil {
			t.Fatal(err)
		}
		if got := equal(a, b); got != tc.want {
			t.Errorf("equal(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}

// input builds a MatchInput as the SDK would hand it to the matcher.
func input(dir, arg, actual string) sdk.MatchInput {
	return sdk.MatchInput{
		Key: "snapshot", Actual: json.RawMessage(actual), Argument: json.RawMessage(arg),
		Options: sdk.MatchOptions{SuiteDir: dir, SuiteFile: filepath.Join(dir, "suite.yml")},
	}
}
