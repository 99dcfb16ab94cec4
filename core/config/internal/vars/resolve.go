package vars

// Env looks name up in the process environment (lookup), then in the
// values read from the dotenv files: the environment wins, so CI can
// override any value without editing a file.
func Env(lookup func(string) (string, bool), dotenv map[string]string, name string) (string, bool) {
	if v, ok := lookup(name); ok {
		return v, true
	}
	v, ok := dotenv[name]
	return v, ok
}

// Resolve computes the value of a declared variable: the variable's own
// name in env first, then for a from_env variable the variable it names
// and its default, else the literal value. unresolved is true when a
// from_env variable finds nothing; a variable with neither from_env nor a
// value resolves to "".
func Resolve(env func(string) (string, bool), name, fromEnv string, def, value *string) (resolved string, unresolved bool) {
	if val, ok := env(name); ok {
		return val, false
	}
	if fromEnv != "" {
		if val, ok := env(fromEnv); ok {
			return val, false
		}
		if def != nil {
			return *def, false
		}
		return "", true
	}
	if value != nil {
		return *value, false
	}
	return "", false
}
