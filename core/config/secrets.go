package config

import (
	"fmt"
	"sort"

	"github.com/mcptest/mcptest/internal/redact"
)

// ProviderKeyEnvs are the environment variables that hold the keys of the
// model provider families mcptest detects from model names. Their values
// are always treated as secrets.
var ProviderKeyEnvs = []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY"}

// collectSecrets returns the values of every credential the suite reads
// from the environment, for redaction: bearer tokens, env-backed headers,
// OAuth client ids and secrets, provider keys. Names never appear in it,
// only values; unset variables contribute nothing.
//
// A value shorter than redact.MinLen cannot be masked without shredding
// the text around it, so a field of the suite that names such a variable
// is an error at that field. The provider variables mcptest only detects
// (ProviderKeyEnvs, unnamed by the suite) are skipped instead when short:
// no provider issues such keys, and the suite may not use that provider.
func collectSecrets(s *Suite) ([]string, []*Error) {
	set := map[string]bool{}
	var errs []*Error
	add := func(name string, at Pos, field string) {
		if name == "" {
			return
		}
		v, ok := s.LookupEnv(name)
		if !ok || v == "" {
			return
		}
		if len(v) < redact.MinLen {
			if field != "" {
				errs = append(errs, shortSecret(s, name, len(v), at, field))
			}
			return
		}
		set[v] = true
	}
	for _, name := range s.ServerOrder {
		srv := s.Servers[name]
		if a := srv.Auth; a != nil {
			add(a.BearerTokenEnv, a.Pos, "bearer_token_env")
			if o := a.OAuth; o != nil {
				if o.ClientIDEnv != "" {
					add(o.ClientIDEnv, a.Pos, "oauth/client_id_env")
					add(o.ClientIDEnv+"_SECRET", a.Pos, "oauth/client_id_env")
				}
				add(o.PrivateKeyEnv, a.Pos, "oauth/private_key_env")
				add(o.IDTokenEnv, a.Pos, "oauth/id_token_env")
				add(o.IDPClientIDEnv, a.Pos, "oauth/idp_client_id_env")
			}
		}
		for _, h := range srv.Headers {
			add(h.Env, h.Pos, "env")
		}
	}
	for _, name := range s.ProviderOrder {
		add(s.Providers[name].APIKeyEnv, s.Providers[name].Pos, "api_key_env")
	}
	for _, name := range ProviderKeyEnvs {
		add(name, Pos{}, "")
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out, errs
}

// shortSecret is the load error for a secret too short to mask. at is the
// position of the enclosing key (auth, a header, a provider); field is
// the path below it.
func shortSecret(s *Suite, name string, n int, at Pos, field string) *Error {
	e := &Error{File: at.File, Line: at.Line, Col: at.Col, Pointer: at.Pointer + "/" + field,
		Msg: fmt.Sprintf("the secret in $%s is %d byte(s) long; secrets must be at least %d bytes, or they could not be masked in reports",
			name, n, redact.MinLen),
		Hint: "use the real credential, or unset the variable"}
	if e.File == "" {
		// Set by a command-line flag: no position in any file.
		e.File, e.Pointer = s.File, ""
	}
	return e
}
