package config

import (
	"errors"
	"slices"
	"sort"

	"github.com/mcptest/mcptest/core/config/internal/vars"
)

// ProviderKeyEnvs are the environment variables that hold the keys of the
// model provider families mcptest detects from model names. Their values
// are always treated as secrets.
var ProviderKeyEnvs = vars.ProviderKeyEnvs

// collectSecrets returns the values of every credential the suite reads
// from the environment, for redaction: bearer tokens, env-backed headers,
// OAuth client ids and secrets, provider keys (internal/vars collects
// them; this walk knows where the suite names them), and the
// credential-like env values of scorers (ScorerSecrets).
//
// A value too short to mask is an error at the field of the suite that
// names its variable. The provider variables mcptest only detects
// (ProviderKeyEnvs, unnamed by the suite) are skipped instead when short:
// no provider issues such keys, and the suite may not use that provider.
func collectSecrets(s *Suite) ([]string, []*Error) {
	c := vars.NewSecrets(s.LookupEnv)
	var errs []*Error
	add := func(name string, at Pos, field string) {
		var short *vars.ShortSecretError
		if err := c.Add(name); errors.As(err, &short) && field != "" {
			errs = append(errs, shortSecret(s, short, at, field))
		}
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
	values := c.Values()
	for _, sc := range s.Scorers {
		values = append(values, ScorerSecrets(sc)...)
	}
	if len(s.Scorers) > 0 {
		sort.Strings(values)
		values = slices.Compact(values)
	}
	return values, errs
}

// shortSecret is the load error for a secret too short to mask. at is the
// position of the enclosing key (auth, a header, a provider); field is
// the path below it.
func shortSecret(s *Suite, short *vars.ShortSecretError, at Pos, field string) *Error {
	e := &Error{File: at.File, Line: at.Line, Col: at.Col, Pointer: at.Pointer + "/" + field,
		Msg: short.Error(), Hint: "use the real credential, or unset the variable", Cause: short}
	if e.File == "" {
		// Set by a command-line flag: no position in any file.
		e.File, e.Pointer = s.File, ""
	}
	return e
}
