package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestRoundTrip loads every valid suite, dumps its canonical form, loads
// that again and expects the same Suite (positions and provenance aside).
// Dumping the reloaded suite must give the same bytes: the form is a
// fixed point.
func TestRoundTrip(t *testing.T) {
	for _, path := range validSuites(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s1, err := LoadWith(path, testOptions())
			if err != nil {
				t.Fatal(err)
			}
			out, err := Dump(s1)
			if err != nil {
				t.Fatal(err)
			}
			// The dump goes beside the original, so that relative paths
			// (cassettes, the .env file) mean the same thing.
			dumped := filepath.Join(t.TempDir(), "dumped.yml")
			if err := os.WriteFile(dumped, out, 0o644); err != nil {
				t.Fatal(err)
			}
			s2, err := LoadWith(dumped, testOptions())
			if err != nil {
				t.Fatalf("the dump does not load: %v\n%s", err, out)
			}
			canonical(s1)
			canonical(s2)
			if !reflect.DeepEqual(s1, s2) {
				t.Errorf("round trip changed the suite:\n%s", diffFields(reflect.ValueOf(s1).Elem(), reflect.ValueOf(s2).Elem(), "Suite"))
			}
			again, err := Dump(s2)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != string(out) {
				t.Errorf("the canonical form is not a fixed point:\nfirst:\n%s\nsecond:\n%s", out, again)
			}
		})
	}
}

// canonical clears what a round trip legitimately changes: positions,
// provenance and the environment hooks.
func canonical(s *Suite) {
	s.File, s.Dir, s.Imports, s.Blocks, s.Warnings, s.Overrides = "", "", nil, nil, nil, nil
	s.lookupEnv, s.env, s.defaultTest = nil, nil, nil
	zeroPositions(reflect.ValueOf(s))
}

var posType = reflect.TypeOf(Pos{})

// zeroPositions zeroes every Pos and KeyPos reachable from v.
func zeroPositions(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			zeroPositions(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == posType {
			v.Set(reflect.Zero(posType))
			return
		}
		for i := range v.NumField() {
			f := v.Field(i)
			if v.Type().Field(i).Name == "KeyPos" {
				f.Set(reflect.Zero(f.Type()))
				continue
			}
			if f.CanSet() {
				zeroPositions(f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			zeroPositions(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			if e.Kind() == reflect.Pointer {
				zeroPositions(e)
			}
		}
	}
}

// diffFields names the fields that differ, for a readable failure.
func diffFields(a, b reflect.Value, path string) string {
	if reflect.DeepEqual(a.Interface(), b.Interface()) {
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return path + ": one side is nil\n"
		}
		return diffFields(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		var out strings.Builder
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				out.WriteString(diffFields(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name))
			}
		}
		return out.String()
	case reflect.Slice:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: %d elements (nil %v) != %d elements (nil %v)\n", path, a.Len(), a.IsNil(), b.Len(), b.IsNil())
		}
		var out strings.Builder
		for i := range a.Len() {
			out.WriteString(diffFields(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)))
		}
		return out.String()
	}
	return fmt.Sprintf("%s: %s != %s\n", path, show(a), show(b))
}

func show(v reflect.Value) string {
	if b, ok := v.Interface().(json.RawMessage); ok {
		return string(b)
	}
	return fmt.Sprintf("%#v", v.Interface())
}
