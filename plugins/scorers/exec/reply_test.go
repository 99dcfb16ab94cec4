package main

import (
	"errors"
	"strings"
	"testing"
)

func TestParseReply(t *testing.T) {
	ok, err := parseReply([]byte("\n {\"verdict\":\"PASS\",\"score\":0.8,\"reasoning\":\"fine\",\"cost_usd\":null,\"extra\":1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ok.Verdict != "pass" || *ok.Score != 0.8 || ok.Reasoning != "fine" || ok.CostUSD != nil {
		t.Errorf("got %+v", ok)
	}
	for _, tc := range []struct{ in, frag string }{
		{``, "stdout was empty"},
		{`[1]`, "not a JSON object"},
		{`"pass"`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`{"verdict":"pass","score":1}{"verdict":"fail","score":0}`, "more than one JSON value"},
		{`{"verdict":"pass","score":1} trailing`, "more than one JSON value"},
		{`{"score":1}`, "no verdict"},
		{`{"verdict":"maybe","score":1}`, `verdict "maybe"`},
		{`{"verdict":true,"score":1}`, "not a JSON object"},
		{`{"verdict":"pass"}`, "no score"},
		{`{"verdict":"pass","score":1.5}`, "outside 0..1"},
		{`{"verdict":"pass","score":"1"}`, "not a JSON object"},
		{`{"verdict":"pass","score":1,"cost_usd":-1}`, "negative"},
	} {
		_, err := parseReply([]byte(tc.in))
		if !errors.Is(err, ErrOutput) || !strings.Contains(err.Error(), tc.frag) {
			t.Errorf("parseReply(%s) = %v, want ErrOutput mentioning %q", tc.in, err, tc.frag)
		}
	}
}
