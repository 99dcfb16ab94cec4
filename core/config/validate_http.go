package config

import (
	"fmt"
	"net/url"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcptest/mcptest/core/config/internal/yamlpos"
)

// authKeys are the keys of a URL server's auth block.
var authKeys = yamlpos.NewObjectSpec("the auth block",
	yamlpos.Key("bearer_token_env"),
	yamlpos.Key("oauth"),
	yamlpos.Key("headers"),
	yamlpos.Key("mtls"),
)

// oauthKeys are the keys of auth.oauth.
var oauthKeys = yamlpos.NewObjectSpec("the oauth block",
	yamlpos.Key("flow"),
	yamlpos.Key("discover"),
	yamlpos.Key("client_id_env"),
	yamlpos.Key("client_metadata_url"),
	yamlpos.Key("token_endpoint_auth"),
	yamlpos.Key("private_key_env"),
	yamlpos.Key("private_key_file"),
	yamlpos.Key("redirect_port"),
	yamlpos.Key("id_token_env"),
	yamlpos.Key("idp_token_url"),
	yamlpos.Key("idp_client_id_env"),
	yamlpos.Key("authorization_url"),
	yamlpos.Key("token_url"),
	yamlpos.Key("scopes"),
)

// httpKeys are the keys of a URL server's http block.
var httpKeys = yamlpos.NewObjectSpec("the http block",
	yamlpos.Key("timeout"),
	yamlpos.Key("connect_timeout"),
	yamlpos.Key("max_redirects"),
	yamlpos.Key("user_agent_override"),
	yamlpos.Key("tls"),
	yamlpos.Key("transport"),
).WithMisplaced(map[string]string{
	"mtls":       "client certificates are not supported yet",
	"timeout_ms": "http.timeout takes a duration string such as 30s",
})

// tlsKeys are the keys of http.tls.
var tlsKeys = yamlpos.NewObjectSpec("the tls block",
	yamlpos.Key("insecure_skip_verify"),
	yamlpos.Key("ca_bundle_path"),
	yamlpos.Key("min_version"),
)

// headerEnvKeys are the keys of an env-backed header value.
var headerEnvKeys = yamlpos.NewObjectSpec("an env-backed header", yamlpos.RequiredKey("env"))

// httpURL reads an absolute http or https URL.
func (l *loader) httpURL(n *yaml.Node, ptr, what string) (string, bool) {
	s, ok := l.NonEmptyStr(n, ptr, what)
	if !ok {
		return "", false
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		l.C.Add(n, ptr, fmt.Sprintf("invalid %s %q: %v", what, s, rootURLError(err)), "")
	case u.Scheme != "http" && u.Scheme != "https":
		l.C.Add(n, ptr, fmt.Sprintf("invalid %s %q: the scheme must be http or https", what, s),
			"write the full address, for example https://mcp.example.com/v1")
	case u.Host == "":
		l.C.Add(n, ptr, fmt.Sprintf("invalid %s %q: no host", what, s), "")
	default:
		return s, true
	}
	return "", false
}

// rootURLError strips the repeated URL from a url.Parse error.
func rootURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// auth reads a URL server's auth block: exactly one of bearer_token_env
// and oauth. headers and mtls are reserved for a later release: they are
// accepted, ignored and warned about.
func (l *loader) auth(e yamlpos.Entry, ptr string) *Auth {
	f, ok := l.Object(e.Value, ptr, authKeys)
	if !ok {
		return nil
	}
	a := &Auth{Pos: l.pos(e.KeyNode, ptr)}
	good := l.Exclusive(f, authKeys, true, "bearer_token_env", "oauth") != ""
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		switch fe.Key {
		case "bearer_token_env":
			name, ok := l.NonEmptyStr(fe.Value, fp, "bearer_token_env (an environment variable name)")
			a.BearerTokenEnv, good = name, good && ok
		case "oauth":
			a.OAuth = l.oauth(fe.Value, fp)
			good = good && a.OAuth != nil
		case "headers", "mtls":
			l.C.Warn(fe.KeyNode, fp, fmt.Sprintf("auth.%s is reserved for a later release and is ignored", fe.Key),
				"custom headers go under the server's headers:, TLS settings under http.tls")
		}
	}
	if !good {
		return nil
	}
	return a
}

// oauth reads auth.oauth. Which keys are required depends on the flow:
// the classic client-credentials block (no discovery) needs the client
// and both URLs, as it always did; discovery makes the URLs optional;
// authorization_code may register its client dynamically.
func (l *loader) oauth(n *yaml.Node, ptr string) *OAuth {
	f, ok := l.Object(n, ptr, oauthKeys)
	if !ok {
		return nil
	}
	o := &OAuth{}
	good := true
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		ok := true
		switch fe.Key {
		case "flow":
			o.Flow, ok = l.Enum(fe.Value, fp, "flow", "client_credentials", "authorization_code", "identity_assertion")
		case "discover":
			o.Discover, ok = l.Boolean(fe.Value, fp, "discover")
		case "client_id_env":
			o.ClientIDEnv, ok = l.NonEmptyStr(fe.Value, fp, "client_id_env (an environment variable name)")
		case "client_metadata_url":
			o.ClientMetadataURL, ok = l.httpURL(fe.Value, fp, "client_metadata_url")
		case "token_endpoint_auth":
			o.TokenEndpointAuth, ok = l.Enum(fe.Value, fp, "token_endpoint_auth", "client_secret_basic", "client_secret_post", "none", "private_key_jwt")
		case "private_key_env":
			o.PrivateKeyEnv, ok = l.NonEmptyStr(fe.Value, fp, "private_key_env (an environment variable name)")
		case "private_key_file":
			o.PrivateKeyFile, ok = l.NonEmptyStr(fe.Value, fp, "private_key_file (a path)")
		case "redirect_port":
			o.RedirectPort, ok = l.IntRange(fe.Value, fp, "redirect_port", 0, 65535)
		case "id_token_env":
			o.IDTokenEnv, ok = l.NonEmptyStr(fe.Value, fp, "id_token_env (an environment variable name)")
		case "idp_token_url":
			o.IDPTokenURL, ok = l.httpURL(fe.Value, fp, "idp_token_url")
		case "idp_client_id_env":
			o.IDPClientIDEnv, ok = l.NonEmptyStr(fe.Value, fp, "idp_client_id_env (an environment variable name)")
		case "authorization_url":
			o.AuthorizationURL, ok = l.httpURL(fe.Value, fp, "authorization_url")
		case "token_url":
			o.TokenURL, ok = l.httpURL(fe.Value, fp, "token_url")
		case "scopes":
			o.Scopes, ok = l.StringList(fe.Value, fp, "scopes", true)
		}
		good = good && ok
	}
	if !good {
		return nil
	}
	var required []string
	switch {
	case o.Flow == "identity_assertion":
		required = []string{"client_id_env", "id_token_env", "idp_token_url"}
	case o.Flow == "authorization_code":
	case !o.Discover: // the classic client-credentials block
		required = []string{"client_id_env", "authorization_url", "token_url"}
	default:
		required = []string{"client_id_env"}
	}
	for _, k := range required {
		if !f.Has(k) {
			l.C.Add(n, ptr, fmt.Sprintf("missing required key %q in the oauth block", k), oauthRequiredHint(o))
			good = false
		}
	}
	if f.Has("private_key_env") && f.Has("private_key_file") {
		l.C.Add(f.KeyNode("private_key_file"), yamlpos.Child(ptr, "private_key_file"),
			"the oauth block takes only one of \"private_key_env\" or \"private_key_file\"", "")
		good = false
	}
	if o.TokenEndpointAuth == "private_key_jwt" && o.PrivateKeyEnv == "" && o.PrivateKeyFile == "" {
		l.C.Add(f.KeyNode("token_endpoint_auth"), yamlpos.Child(ptr, "token_endpoint_auth"),
			"token_endpoint_auth private_key_jwt needs the client's key", "set private_key_env or private_key_file")
		good = false
	}
	if !good {
		return nil
	}
	return o
}

// oauthRequiredHint explains which shape of the oauth block asks for the
// missing key.
func oauthRequiredHint(o *OAuth) string {
	switch {
	case o.Flow == "identity_assertion":
		return "the identity_assertion flow needs the client (client_id_env), the ID token (id_token_env) and the identity provider's token endpoint (idp_token_url)"
	case !o.Discover:
		return "or set discover: true (or flow: authorization_code) to find the endpoints from the server's metadata"
	}
	return ""
}

// headers reads a URL server's headers: names to literal strings or
// {env: NAME}.
func (l *loader) headers(n *yaml.Node, ptr string) ([]*Header, bool) {
	es, ok := l.Mapping(n, ptr, "headers (an object of header names)")
	if !ok {
		return nil, false
	}
	out := make([]*Header, 0, len(es))
	good := true
	for _, e := range es {
		hp := yamlpos.Child(ptr, e.Key)
		if !l.headerName(e.KeyNode, hp, e.Key) {
			good = false
			continue
		}
		h := &Header{Name: e.Key, Pos: l.pos(e.KeyNode, hp)}
		if yamlpos.Deref(e.Value).Kind == yaml.MappingNode {
			f, ok := l.Object(e.Value, hp, headerEnvKeys)
			if !ok || !f.Has("env") {
				good = false
				continue
			}
			en, ep := f.Get("env")
			h.Env, ok = l.NonEmptyStr(en, ep, "env (an environment variable name)")
			good = good && ok
		} else {
			var ok bool
			h.Value, ok = l.Str(e.Value, hp, "a header value")
			good = good && ok
		}
		out = append(out, h)
	}
	return out, good
}

// headerName checks a header name: an RFC 7230 token, and not one of the
// credentials headers the auth block owns.
func (l *loader) headerName(at *yaml.Node, ptr, name string) bool {
	if strings.EqualFold(name, "Authorization") || strings.EqualFold(name, "Proxy-Authorization") {
		l.C.Add(at, ptr, fmt.Sprintf("the %s header cannot be set in headers", name),
			"credentials go in the auth block: auth: {bearer_token_env: NAME}")
		return false
	}
	if !isToken(name) {
		l.C.Add(at, ptr, fmt.Sprintf("invalid header name %q", name),
			"a header name is letters, digits and !#$%&'*+-.^_`|~ only (no spaces or colons)")
		return false
	}
	return true
}

// isToken reports whether s is an RFC 7230 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// httpOptions reads a URL server's http block into h, which holds the
// defaults.
func (l *loader) httpOptions(h *HTTPOptions, n *yaml.Node, ptr string) bool {
	f, ok := l.Object(n, ptr, httpKeys)
	if !ok {
		return false
	}
	good := true
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		ok := true
		switch fe.Key {
		case "timeout":
			h.Timeout, ok = l.Duration(fe.Value, fp, "timeout")
		case "connect_timeout":
			h.ConnectTimeout, ok = l.Duration(fe.Value, fp, "connect_timeout")
		case "max_redirects":
			h.MaxRedirects, ok = l.IntRange(fe.Value, fp, "max_redirects", 0, 50)
		case "user_agent_override":
			h.UserAgentOverride, ok = l.Boolean(fe.Value, fp, "user_agent_override")
		case "tls":
			ok = l.tlsOptions(&h.TLS, fe.Value, fp)
		case "transport":
			h.Transport, ok = l.Enum(fe.Value, fp, "transport", TransportStreamable, TransportSSE)
		}
		good = good && ok
	}
	return good
}

// tlsOptions reads http.tls into t.
func (l *loader) tlsOptions(t *TLSOptions, n *yaml.Node, ptr string) bool {
	f, ok := l.Object(n, ptr, tlsKeys)
	if !ok {
		return false
	}
	good := true
	for _, fe := range f.Entries {
		fp := yamlpos.Child(ptr, fe.Key)
		ok := true
		switch fe.Key {
		case "insecure_skip_verify":
			t.InsecureSkipVerify, ok = l.Boolean(fe.Value, fp, "insecure_skip_verify")
			if ok && t.InsecureSkipVerify {
				l.C.Warn(fe.KeyNode, fp, "TLS certificate verification is off for this server", "use only against a private staging endpoint")
			}
		case "ca_bundle_path":
			t.CABundlePath, ok = l.NonEmptyStr(fe.Value, fp, "ca_bundle_path")
		case "min_version":
			if d := yamlpos.Deref(fe.Value); d.Kind == yaml.ScalarNode && d.ShortTag() == yamlpos.TagFloat {
				l.C.Add(fe.Value, fp, "expected min_version (\"1.2\" or \"1.3\"), found the number "+d.Value,
					fmt.Sprintf("quote it: %q", d.Value))
				ok = false
				break
			}
			t.MinVersion, ok = l.Enum(fe.Value, fp, "TLS min_version", "1.2", "1.3")
		}
		good = good && ok
	}
	return good
}
