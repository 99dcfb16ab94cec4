package config

import "sort"

// ProviderKeyEnvs are the environment variables that hold the keys of the
// model provider families mcptest detects from model names. Their values
// are always treated as secrets.
var ProviderKeyEnvs = []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY"}

// collectSecrets returns the values of every credential the suite reads
// from the environment, for redaction: bearer tokens, env-backed headers,
// OAuth client ids and secrets, provider keys. Names never appear in it,
// only values; unset variables contribute nothing.
func collectSecrets(s *Suite) []string {
	set := map[string]bool{}
	add := func(name string) {
		if name == "" {
			return
		}
		if v, ok := s.LookupEnv(name); ok && v != "" {
			set[v] = true
		}
	}
	for _, name := range s.ServerOrder {
		srv := s.Servers[name]
		if a := srv.Auth; a != nil {
			add(a.BearerTokenEnv)
			if a.OAuth != nil {
				add(a.OAuth.ClientIDEnv)
				add(a.OAuth.ClientIDEnv + "_SECRET")
			}
		}
		for _, h := range srv.Headers {
			add(h.Env)
		}
	}
	for _, name := range s.ProviderOrder {
		add(s.Providers[name].APIKeyEnv)
	}
	for _, name := range ProviderKeyEnvs {
		add(name)
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}
