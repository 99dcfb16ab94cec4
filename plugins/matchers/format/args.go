package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mcptest/mcptest/plugins/matchers/internal/jsonvalue"
)

// decodeArgument decodes a matcher argument. An empty argument is the
// same as ~ (null): the host may leave it out.
func decodeArgument(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	v, err := jsonvalue.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("argument is not valid JSON: %w", err)
	}
	return v, nil
}

// flagOnly reports whether arg means "no options": ~ or true. false is
// refused rather than read as "off", since a matcher cannot be switched off
// by its own argument and the author probably meant something else.
func flagOnly(arg any) (bool, error) {
	switch v := arg.(type) {
	case nil:
		return true, nil
	case bool:
		if !v {
			return false, errors.New("false is not a valid argument; write ~ (or true) for the plain check")
		}
		return true, nil
	}
	return false, nil
}

// parseSchemaOption reads the argument of is-json and is-valid-tools-call:
// ~, true, or {schema: <JSON Schema>} (where schema may be left out).
func parseSchemaOption(_ *family, arg any) (options, error) {
	if ok, err := flagOnly(arg); ok || err != nil {
		return options{}, err
	}
	obj, ok := arg.(map[string]any)
	if !ok {
		return options{}, fmt.Errorf("expected ~, true or {schema: ...}, got %s", jsonvalue.Describe(arg))
	}
	if err := onlyFields(obj, "schema"); err != nil {
		if looksLikeSchema(obj) {
			return options{}, fmt.Errorf("%w; to validate against a JSON Schema, nest it under schema: {schema: {type: ...}}", err)
		}
		return options{}, err
	}
	doc, ok := obj["schema"]
	if !ok {
		// {} is an options object with nothing set, as the suite schema
		// allows: the plain check.
		return options{}, nil
	}
	sch, err := compileSchema(doc)
	if err != nil {
		return options{}, err
	}
	return options{schema: sch}, nil
}

// parseXMLOption reads the argument of is-xml: ~, true, or {root: NAME}
// (where root may be left out).
func parseXMLOption(_ *family, arg any) (options, error) {
	if ok, err := flagOnly(arg); ok || err != nil {
		return options{}, err
	}
	obj, ok := arg.(map[string]any)
	if !ok {
		return options{}, fmt.Errorf("expected ~, true or {root: NAME}, got %s", jsonvalue.Describe(arg))
	}
	if err := onlyFields(obj, "root"); err != nil {
		return options{}, err
	}
	raw, ok := obj["root"]
	if !ok {
		return options{}, nil
	}
	root, ok := raw.(string)
	if !ok {
		return options{}, fmt.Errorf(`field "root" must be a string, got %s`, jsonvalue.Describe(raw))
	}
	if root == "" || strings.IndexFunc(root, unicode.IsSpace) >= 0 || strings.ContainsAny(root, "<>") {
		return options{}, fmt.Errorf(`field "root" must be an element name such as "note" or "soap:Envelope", got %q`, root)
	}
	return options{root: root}, nil
}

// parseNoOption reads the argument of is-sql, which takes no options.
func parseNoOption(_ *family, arg any) (options, error) {
	if ok, err := flagOnly(arg); ok || err != nil {
		return options{}, err
	}
	return options{}, fmt.Errorf("takes no options: write ~ (got %s)", jsonvalue.Describe(arg))
}

// onlyFields refuses any field of obj not in allowed, naming them all in a
// stable order.
func onlyFields(obj map[string]any, allowed ...string) error {
	var unknown []string
	for k := range obj {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return fmt.Errorf("unknown field %q (the only field is %s)", unknown[0], strings.Join(allowed, ", "))
}

// looksLikeSchema reports whether obj carries JSON Schema keywords, to
// suggest nesting it under schema: when it was written bare.
func looksLikeSchema(obj map[string]any) bool {
	for _, k := range []string{"type", "properties", "required", "$schema", "items", "enum", "const", "anyOf", "oneOf", "allOf"} {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}
