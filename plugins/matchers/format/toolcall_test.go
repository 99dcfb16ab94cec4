package main

import "testing"

const citySchema = `{"schema":{"type":"object","required":["city"],"properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":1}}}}`

func TestIsValidToolsCall(t *testing.T) {
	const key = "is-valid-tools-call"
	run(t, []tcase{
		{name: "mcp shape", key: key, actual: `{"name":"get_weather","arguments":{"city":"Paris"}}`, arg: `null`, pass: true},
		{name: "agent trace shape", key: key, actual: `{"name":"get_weather","server":"weather","args":{"city":"Paris"},"hop_index":0}`, arg: `null`, pass: true},
		{name: "anthropic shape", key: key, actual: `{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Paris"}}`, arg: `null`, pass: true},
		{name: "openai shape", key: key, actual: `{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}`, arg: `true`, pass: true},
		{name: "empty arguments", key: key, actual: `{"name":"list_tools","arguments":{}}`, arg: `null`, pass: true},
		{name: "a list of calls", key: key, actual: `[{"name":"a","arguments":{}},{"function":{"name":"b","arguments":{}}}]`, arg: `null`, pass: true},
		{name: "text holding a call", key: key, actual: str(`{"name": "get_weather", "arguments": {"city": "Paris"}}`), arg: `null`, pass: true},
		{name: "schema passes", key: key, actual: `{"name":"get_weather","arguments":{"city":"Paris","days":3}}`, arg: citySchema, pass: true},
		{name: "schema on openai text arguments", key: key, actual: `{"function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"days\":2}"}}`, arg: citySchema, pass: true},
		{name: "schema fails", key: key, actual: `{"name":"get_weather","arguments":{"days":0}}`, arg: citySchema,
			want: map[string]string{
				"path":   "/arguments",
				"tool":   "get_weather",
				"note":   `the arguments of the "get_weather" call do not match the schema`,
				"errors": `"instance_path":"/days","schema_path":"/properties/days/minimum"`,
			}},
		{name: "schema fails in second call", key: key, actual: `[{"name":"a","args":{"city":"x"}},{"name":"b","args":{"city":7}}]`, arg: citySchema,
			want: map[string]string{"path": "/1/args", "tool": "b", "errors": `"instance_path":"/city"`}},
		{name: "not an object", key: key, actual: `"get_weather"`, arg: `null`,
			want: map[string]string{"note": "the value is text that should hold a tool call, but it is not valid JSON at line 1, column 1"}},
		{name: "a number", key: key, actual: `42`, arg: `null`,
			want: map[string]string{"note": "a tool call must be an object with a name and arguments, got a number"}, absent: []string{"path"}},
		{name: "no name", key: key, actual: `{"arguments":{}}`, arg: `null`,
			want: map[string]string{"note": `a tool call must have a "name"`}},
		{name: "name not a string", key: key, actual: `{"name":7,"arguments":{}}`, arg: `null`,
			want: map[string]string{"path": "/name", "note": `"name" must be a string, got a number`}},
		{name: "empty name", key: key, actual: `{"name":"  ","arguments":{}}`, arg: `null`,
			want: map[string]string{"path": "/name", "note": `"name" is empty`}},
		{name: "no arguments", key: key, actual: `{"name":"get_weather"}`, arg: `null`,
			want: map[string]string{"note": `the "get_weather" call has no arguments`}},
		{name: "arguments twice", key: key, actual: `{"name":"x","arguments":{},"args":{}}`, arg: `null`,
			want: map[string]string{"note": `has both "arguments" and "args"`}},
		{name: "arguments null", key: key, actual: `{"name":"x","arguments":null}`, arg: `null`,
			want: map[string]string{"path": "/arguments", "note": `"arguments" must be an object, got null`}},
		{name: "arguments an array", key: key, actual: `{"name":"x","arguments":[1]}`, arg: `null`,
			want: map[string]string{"path": "/arguments", "note": "got an array"}},
		{name: "arguments text not JSON", key: key, actual: `{"function":{"name":"x","arguments":"{city: Paris}"}}`, arg: `null`,
			want: map[string]string{"path": "/function/arguments", "note": `"arguments" is text that is not valid JSON at line 1, column 2`}},
		{name: "arguments text not an object", key: key, actual: `{"function":{"name":"x","arguments":"[1]"}}`, arg: `null`,
			want: map[string]string{"path": "/function/arguments", "note": "must be an object, got an array"}},
		{name: "function not an object", key: key, actual: `{"function":"x"}`, arg: `null`,
			want: map[string]string{"path": "/function", "note": `"function" must be an object`}},
		{name: "empty list", key: key, actual: `[]`, arg: `null`,
			want: map[string]string{"note": "the list of tool calls is empty"}},
		{name: "bad item in a list", key: key, actual: `[{"name":"a","arguments":{}},{"name":"b"}]`, arg: `null`,
			want: map[string]string{"path": "/1", "note": `the "b" call has no arguments`}},
		{name: "null", key: key, actual: `null`, arg: `null`,
			want: map[string]string{"note": "got null"}},
	})
}
