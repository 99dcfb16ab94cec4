package config

import (
	"slices"
	"testing"
)

// TestDefaultTestMerge checks that defaultTest's assertions come after
// each test's own and that its options apply only where a test leaves
// them unset.
func TestDefaultTestMerge(t *testing.T) {
	s, err := LoadWith("testdata/valid/scoring.yml", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	weighted, keywords := s.Tools[0], s.Tools[1]
	if len(weighted.Expect) != 3 || weighted.Expect[2].Target != "result.isError" || weighted.Expect[2].Pos.Pointer != "/defaultTest/expect/0" {
		t.Errorf("weighted expect = %+v", weighted.Expect)
	}
	if *weighted.Threshold != 0.6 || weighted.KeyPos["threshold"].Pointer != "/tools/0/threshold" {
		t.Errorf("an explicit threshold must win: %v %+v", *weighted.Threshold, weighted.KeyPos["threshold"])
	}
	if *keywords.Threshold != 0.8 || keywords.KeyPos["threshold"].Pointer != "/defaultTest/threshold" {
		t.Errorf("the default threshold must apply: %v %+v", *keywords.Threshold, keywords.KeyPos["threshold"])
	}
	if keywords.TimeoutMS != 4000 || keywords.Expect[0].Set == nil || keywords.Expect[1].Target != "result.isError" {
		t.Errorf("keywords = %+v", keywords)
	}
}

func TestDefaultTestOptions(t *testing.T) {
	src := `servers: {s: {command: [x]}}
defaultTest:
  tags: [base]
  profile: full
  transform: {response: ./norm.sh}
  expect:
    assertions:
      - {target: result.isError, matcher: {exact: false}}
    max_duration_ms: 900
tools:
  - {name: inherits, server: s, tool: t}
  - name: overrides
    server: s
    tool: t
    tags: [own]
    profile: quick
    expect:
      assertions: [{target: a, matcher: {exact: 1}}]
      max_duration_ms: 100
      response_headers_absent: [x-debug]
resources:
  - {name: r, server: s, uri: "x://y"}
`
	s, err := loadBytesWith("d.yml", []byte(src), envOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	in, own, res := s.Tools[0], s.Tools[1], s.Resources[0]
	if !slices.Equal(in.Tags, []string{"base"}) || in.Profile != "full" || in.Transform == nil ||
		in.ExpectOptions.MaxDurationMS != 900 || len(in.Expect) != 1 {
		t.Errorf("inherits = %+v", in)
	}
	if !slices.Equal(own.Tags, []string{"own"}) || own.Profile != "quick" || own.ExpectOptions.MaxDurationMS != 100 ||
		!slices.Equal(own.ExpectOptions.ResponseHeadersAbsent, []string{"x-debug"}) || len(own.Expect) != 2 {
		t.Errorf("overrides = %+v", own)
	}
	if res.Transform != nil || len(res.Expect) != 1 {
		t.Errorf("a resource test takes no transform: %+v", res)
	}
}
