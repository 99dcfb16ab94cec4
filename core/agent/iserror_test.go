package agent

import (
	"encoding/json"
	"testing"
)

func TestWithIsErrorFillsOnlyAMissingFlag(t *testing.T) {
	for in, want := range map[string]string{
		`{"content":[]}`:                `{"isError":false,"content":[]}`,
		` { } `:                         `{"isError":false}`,
		`{"isError":true,"content":[]}`: `{"isError":true,"content":[]}`,
		`{"isError":false}`:             `{"isError":false}`,
		`null`:                          `null`,
		`[1]`:                           `[1]`,
		`{"content":`:                   `{"content":`,
	} {
		got := string(WithIsError(json.RawMessage(in)))
		if got != want {
			t.Errorf("WithIsError(%s) = %s, want %s", in, got, want)
		}
		if json.Valid([]byte(in)) && !json.Valid([]byte(got)) {
			t.Errorf("WithIsError(%s) = %s is not JSON", in, got)
		}
	}
}
