package config

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

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
