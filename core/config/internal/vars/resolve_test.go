package vars

import "testing"

// TestResolvePrecedence checks the order a declared variable takes its
// value from: its own name in the environment, the variable from_env
// names, the default, the literal value.
func TestResolvePrecedence(t *testing.T) {
	env := map[string]string{"SET": "from-env", "EMPTY": "", "SRC": "from-src"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	dotenv := map[string]string{"SET": "from-dotenv", "DOT": "from-dotenv"}
	get := func(k string) (string, bool) { return Env(lookup, dotenv, k) }
	p := func(s string) *string { return &s }
	cases := []struct {
		name, fromEnv string
		def, value    *string
		want          string
		unresolved    bool
	}{
		{name: "SET", value: p("lit"), want: "from-env"},
		{name: "EMPTY", value: p("lit"), want: ""},
		{name: "DOT", value: p("lit"), want: "from-dotenv"},
		{name: "v", value: p("lit"), want: "lit"},
		{name: "v", want: ""},
		{name: "v", fromEnv: "SRC", def: p("d"), want: "from-src"},
		{name: "v", fromEnv: "DOT", def: p("d"), want: "from-dotenv"},
		{name: "v", fromEnv: "NONE", def: p("d"), want: "d"},
		{name: "v", fromEnv: "NONE", unresolved: true},
		{name: "SET", fromEnv: "NONE", want: "from-env"},
	}
	for _, tc := range cases {
		got, unresolved := Resolve(get, tc.name, tc.fromEnv, tc.def, tc.value)
		if got != tc.want || unresolved != tc.unresolved {
			t.Errorf("Resolve(%s, from_env %q) = %q, %v; want %q, %v", tc.name, tc.fromEnv, got, unresolved, tc.want, tc.unresolved)
		}
	}
}
