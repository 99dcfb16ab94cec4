package main

import (
	"slices"
	"testing"
)

func TestTakeEvidence(t *testing.T) {
	for _, tc := range []struct {
		formats []string
		output  string
		want    bool
		path    string
		rest    []string
		err     bool
	}{
		{formats: nil, want: false},
		{formats: []string{"pretty"}, output: "o.txt", rest: []string{"pretty"}},
		{formats: []string{"evidence"}, output: "pack.json", want: true, path: "pack.json"},
		{formats: []string{"evidence"}, want: true},
		{formats: []string{"evidence=p.json", "junit=j.xml"}, want: true, path: "p.json", rest: []string{"junit=j.xml"}},
		{formats: []string{"evidence", "pretty"}, err: true},
		{formats: []string{"evidence=a", "evidence=b"}, err: true},
	} {
		want, path, rest, err := takeEvidence(tc.formats, tc.output)
		if (err != nil) != tc.err || want != tc.want || path != tc.path || (!tc.err && !slices.Equal(rest, tc.rest)) {
			t.Errorf("takeEvidence(%v, %q) = %v %q %v %v", tc.formats, tc.output, want, path, rest, err)
		}
	}
}
