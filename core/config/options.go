package config

import "os"

// StrictVarsEnv is the environment variable that, set to 1, turns
// unresolved variable references into errors.
const StrictVarsEnv = "MCPTEST_STRICT_VARS"

// Options tune LoadWith and LoadFilesWith. The zero value loads a suite
// the way `mcptest run` does without flags: the process environment, the
// .env file beside the suite, MCPTEST_STRICT_VARS from the environment.
type Options struct {
	// LookupEnv reads the process environment; nil means os.LookupEnv.
	// Tests replace it to control what a suite sees.
	LookupEnv func(string) (string, bool)
	// EnvFiles are dotenv files read after the .env beside the suite, in
	// order; a later file overrides an earlier one (--env-file).
	EnvFiles []string
	// StrictVars makes unresolved variable references errors instead of
	// warnings; MCPTEST_STRICT_VARS=1 in the environment does the same.
	StrictVars bool
	// Servers holds the command-line server overrides.
	Servers ServerOverrides
}

// lookup returns the environment lookup of o.
func (o Options) lookup() func(string) (string, bool) {
	if o.LookupEnv != nil {
		return o.LookupEnv
	}
	return os.LookupEnv
}

// strict reports whether unresolved variables are errors.
func (o Options) strict() bool {
	if o.StrictVars {
		return true
	}
	v, _ := o.lookup()(StrictVarsEnv)
	return v == "1" || v == "true"
}
