package main

import "testing"

func TestContainsAllAny(t *testing.T) {
	runCases(t, []matchCase{
		{name: "all in text", key: "contains-all", actual: `"order 7 shipped, tracking 123"`, arg: `["order","shipped","tracking"]`, pass: true},
		{name: "all lists missing", key: "contains-all", actual: `"order shipped"`, arg: `["order","tracking","shipped","refund"]`, pass: false,
			fields: map[string]string{"missing": `["tracking","refund"]`, "expected": `["order","tracking","shipped","refund"]`, "actual": `"order shipped"`},
			substr: map[string]string{"note": "2 of 4 values not found"}},
		{name: "all in array by JSON equality", key: "contains-all", actual: `["a","b",1,{"k":[1]}]`, arg: `["a",1.0,{"k":[1]}]`, pass: true},
		{name: "all array elements are not substrings", key: "contains-all", actual: `["abc"]`, arg: `["b"]`, pass: false,
			fields: map[string]string{"missing": `["b"]`}},
		{name: "all non-string needle in text", key: "contains-all", actual: `"200 OK"`, arg: `[200,"OK"]`, pass: false,
			fields: map[string]string{"missing": `[200]`},
			substr: map[string]string{"note": "1 value is not a string"}},
		{name: "all on object text", key: "contains-all", actual: `{"id":5,"ok":true}`, arg: `["\"ok\":true","\"id\":5"]`, pass: true},
		{name: "all empty list passes", key: "contains-all", actual: `"x"`, arg: `[]`, pass: true},

		{name: "any in text", key: "contains-any", actual: `"request accepted"`, arg: `["approved","accepted"]`, pass: true},
		{name: "any none found", key: "contains-any", actual: `"request denied"`, arg: `["approved","accepted"]`, pass: false,
			fields: map[string]string{"expected": `["approved","accepted"]`, "actual": `"request denied"`},
			absent: []string{"missing"},
			substr: map[string]string{"note": "none of the 2 values was found"}},
		{name: "any in array", key: "contains-any", actual: `[1,2,3]`, arg: `[9,3.0]`, pass: true},
		{name: "any empty list never passes", key: "contains-any", actual: `"anything"`, arg: `[]`, pass: false,
			fields: map[string]string{"expected": `[]`, "actual": `"anything"`},
			substr: map[string]string{"note": "empty list never matches"}},
		{name: "any empty list fails on empty array", key: "contains-any", actual: `[]`, arg: `[]`, pass: false},
	})
}
