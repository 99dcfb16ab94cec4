package config

import "maps"

// DotenvValues returns a copy of the values read from the suite's dotenv
// files (the .env beside the suite, then --env-file), later files winning.
// The process environment still takes precedence over them; see
// LookupEnv. Hooks and transforms receive the names the process
// environment does not set, the same values interpolation saw.
func (s *Suite) DotenvValues() map[string]string {
	return maps.Clone(s.env)
}
