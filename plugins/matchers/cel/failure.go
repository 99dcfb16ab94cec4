package main

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/mcptest/mcptest/sdk"
)

// maxActualBytes is the largest actual value a failure carries whole. A
// tool response can be megabytes long; a report needs only enough of it to
// see what the expression looked at.
const maxActualBytes = 4096

// falseFailure is the failure of an expression that evaluated to false:
// the expression as expected, the value as actual (cut short when huge).
func falseFailure(expr string, actual json.RawMessage) sdk.Failure {
	f := sdk.Failure{Expected: sdk.JSON(expr), Note: "the expression evaluated to false"}
	if len(actual) <= maxActualBytes {
		f.Actual = actual
		return f
	}
	// Cut JSON is no longer JSON, so the head travels as a string.
	f.Actual = sdk.JSON(truncateUTF8(string(actual), maxActualBytes) + "…")
	f.Note += fmt.Sprintf("; the value is %d bytes of JSON, and only its first %d are shown, as a string", len(actual), maxActualBytes)
	return f
}

// truncateUTF8 cuts s to at most n bytes without splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
