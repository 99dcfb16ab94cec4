package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// DiscoverResource finds the protected-resource metadata of the MCP server
// at serverURL (RFC 9728): the URL the challenge named first, then the
// path-based well-known URL, then the root one. It returns nil metadata
// and no error when the server publishes none (404 or another 4xx at
// every location): a 2025-03-26 server.
func DiscoverResource(ctx context.Context, client *http.Client, serverURL string, c Challenge) (*ResourceMetadata, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, fmt.Errorf("%w: server URL %q: %w", ErrDiscovery, serverURL, err)
	}
	var candidates []string
	if c.ResourceMetadata != "" {
		if ru, err := u.Parse(c.ResourceMetadata); err == nil && (ru.Scheme == "https" || ru.Scheme == "http") {
			candidates = append(candidates, ru.String())
		}
	}
	origin := u.Scheme + "://" + u.Host
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		candidates = append(candidates, origin+"/.well-known/oauth-protected-resource"+p)
	}
	candidates = append(candidates, origin+"/.well-known/oauth-protected-resource")
	for _, target := range candidates {
		var md ResourceMetadata
		err := getJSON(ctx, client, target, &md)
		var se *statusError
		switch {
		case err == nil && len(md.AuthorizationServers) > 0:
			return &md, nil
		case err == nil, errors.As(err, &se):
			// Not here (or useless): the next location may have it.
		case ctx.Err() != nil:
			return nil, fmt.Errorf("%w: %w", ErrDiscovery, err)
		}
	}
	return nil, nil
}

// CheckResource verifies that the resource the metadata names is the MCP
// server at serverURL: the same origin, and a path that is the server's
// path or one of its parents (RFC 9728 §3.3, RFC 8707). A token for any
// other resource would be a token for someone else.
func CheckResource(serverURL, resource string) error {
	s, err := url.Parse(serverURL)
	if err != nil {
		return fmt.Errorf("%w: server URL %q: %w", ErrResourceMismatch, serverURL, err)
	}
	r, err := url.Parse(resource)
	if err != nil || r.Scheme == "" || r.Host == "" {
		return fmt.Errorf("%w: resource %q is not an absolute URL", ErrResourceMismatch, resource)
	}
	if !strings.EqualFold(s.Scheme, r.Scheme) || !strings.EqualFold(hostPort(s), hostPort(r)) {
		return fmt.Errorf("%w: the metadata names %q, the server is %q", ErrResourceMismatch, resource, serverURL)
	}
	sp, rp := strings.TrimSuffix(s.Path, "/"), strings.TrimSuffix(r.Path, "/")
	if rp != "" && sp != rp && !strings.HasPrefix(sp, rp+"/") {
		return fmt.Errorf("%w: the metadata names %q, the server is %q", ErrResourceMismatch, resource, serverURL)
	}
	return nil
}

// hostPort returns u's host with the scheme's default port made explicit.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return strings.ToLower(u.Host)
	}
	if u.Scheme == "https" {
		return strings.ToLower(u.Hostname()) + ":443"
	}
	return strings.ToLower(u.Hostname()) + ":80"
}

// CanonicalResource returns the resource indicator for serverURL (RFC
// 8707 §2): no fragment, lower-case scheme and host.
func CanonicalResource(serverURL string) string {
	u, err := url.Parse(serverURL)
	if err != nil {
		return serverURL
	}
	u.Fragment, u.RawFragment = "", ""
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	return u.String()
}

// MetadataURLs returns the well-known URLs of an authorization server's
// metadata in the order the MCP specification gives: RFC 8414 first, then
// OpenID Connect discovery, with the issuer's path inserted after the
// well-known segment, and for OpenID Connect also appended to it.
func MetadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%w: authorization server %q is not an absolute URL", ErrDiscovery, issuer)
	}
	origin := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}, nil
}

// DiscoverServer reads the metadata of the authorization server issuer.
// When no document is found and fallback is true (a 2025-03-26 server
// without protected-resource metadata), the endpoints default to
// /authorize, /token and /register at the issuer's origin.
func DiscoverServer(ctx context.Context, client *http.Client, issuer string, fallback bool) (*ServerMetadata, error) {
	urls, err := MetadataURLs(issuer)
	if err != nil {
		return nil, err
	}
	var tried []string
	for _, target := range urls {
		var md ServerMetadata
		err := getJSON(ctx, client, target, &md)
		var se *statusError
		switch {
		case err == nil && md.TokenEndpoint != "":
			md.URL = target
			return &md, nil
		case err == nil:
			tried = append(tried, target+" (no token_endpoint)")
		case errors.As(err, &se):
			tried = append(tried, fmt.Sprintf("%s (HTTP %d)", target, se.status))
		case ctx.Err() != nil:
			return nil, fmt.Errorf("%w: %w", ErrDiscovery, err)
		default:
			tried = append(tried, fmt.Sprintf("%s (%v)", target, err))
		}
	}
	if !fallback {
		return nil, fmt.Errorf("%w: no authorization server metadata for %s; tried %s", ErrDiscovery, issuer, strings.Join(tried, ", "))
	}
	u, _ := url.Parse(issuer)
	origin := u.Scheme + "://" + u.Host
	return &ServerMetadata{
		Issuer:                origin,
		AuthorizationEndpoint: origin + "/authorize",
		TokenEndpoint:         origin + "/token",
		RegistrationEndpoint:  origin + "/register",
		Fallback:              true,
	}, nil
}
