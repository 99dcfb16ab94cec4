package contract

import "context"

// Endpoint is where and with which credentials a provider reaches its
// model for one call. The host resolves it (family defaults, environment
// variables, a providers: entry) and sends it beside the request, never
// inside ChatRequest, so a request that is recorded or reported never
// carries the key. A provider reads it with EndpointFrom.
type Endpoint struct {
	// BaseURL overrides the vendor's default API address; "" keeps it.
	BaseURL string
	// APIKey is the credential; "" for a keyless endpoint.
	APIKey string
	// KeyEnv names the environment variable APIKey came from, so an
	// authentication error can say which variable to fix.
	KeyEnv string
	// Organization is sent as the OpenAI-Organization header; "" for none.
	Organization string
	// Name is the providers: entry the call goes through; "" for an
	// auto-detected family.
	Name string
}

// String describes the endpoint with its key masked, so an Endpoint that
// ends up in a log or an error never shows the credential.
func (e Endpoint) String() string {
	key := "none"
	if e.APIKey != "" {
		key = "set"
		if e.KeyEnv != "" {
			key = "from " + e.KeyEnv
		}
	}
	s := "endpoint{base_url=" + e.BaseURL + " key=" + key
	if e.Name != "" {
		s += " provider=" + e.Name
	}
	return s + "}"
}

// GoString masks the key like String, for %#v.
func (e Endpoint) GoString() string { return e.String() }

type endpointKey struct{}

// WithEndpoint returns ctx carrying ep for a provider's Complete or Embed.
func WithEndpoint(ctx context.Context, ep Endpoint) context.Context {
	return context.WithValue(ctx, endpointKey{}, ep)
}

// EndpointFrom returns the endpoint the host sent with the current call;
// ok is false when it sent none (the provider then uses its defaults).
func EndpointFrom(ctx context.Context) (ep Endpoint, ok bool) {
	ep, ok = ctx.Value(endpointKey{}).(Endpoint)
	return ep, ok
}
