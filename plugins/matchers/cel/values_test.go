package main

import (
	"math"
	"reflect"
	"testing"
)

func TestDecodeValueNumbers(t *testing.T) {
	for _, tc := range []struct {
		json string
		want any
	}{
		{`3`, int64(3)},
		{`-3`, int64(-3)},
		{`9223372036854775807`, int64(math.MaxInt64)},
		{`-9223372036854775808`, int64(math.MinInt64)},
		{`9223372036854775808`, uint64(1) << 63},
		{`18446744073709551615`, uint64(math.MaxUint64)},
		{`18446744073709551616`, 18446744073709551616.0},
		{`3.0`, 3.0},
		{`2.5`, 2.5},
		{`1e3`, 1000.0},
		{`-0`, int64(0)},
		{`1e400`, math.Inf(1)},
	} {
		got, err := decodeValue([]byte(tc.json))
		if err != nil {
			t.Fatalf("%s: %v", tc.json, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %T %v, want %T %v", tc.json, got, got, tc.want, tc.want)
		}
	}
}

func TestDecodeValueNested(t *testing.T) {
	got, err := decodeValue([]byte(`{"a":[1,{"b":2.5}],"s":"7","n":null,"t":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{int64(1), map[string]any{"b": 2.5}}, "s": "7", "n": nil, "t": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v", got)
	}
}
