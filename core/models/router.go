package models

import (
	"context"
	"fmt"
	"os"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/sdk"
)

// Backend reaches provider plugins by provider key (a family name).
// PluginBackend is the real one.
type Backend interface {
	Complete(ctx context.Context, key string, ep sdk.Endpoint, req sdk.ChatRequest) (sdk.ChatResponse, error)
	Embed(ctx context.Context, key string, ep sdk.Endpoint, req sdk.EmbedRequest) (sdk.EmbedResponse, error)
	// Prices returns the price table shipped with the plugin serving key.
	Prices(key string) ([]sdk.ModelPrice, error)
}

// Provider is one entry of a suite's providers: block.
type Provider struct {
	// Name is the entry's key.
	Name string
	// Type is the wire protocol; "openai" is the only one.
	Type string
	// BaseURL is the endpoint's base URL.
	BaseURL string
	// APIKeyEnv names the variable holding the key; "" for a keyless
	// endpoint, which is sent "Authorization: Bearer EMPTY".
	APIKeyEnv string
	// Organization is sent as OpenAI-Organization; "" for none.
	Organization string
	// Prices override the plugin's table for this entry's models.
	Prices []sdk.ModelPrice
}

// Options configure a Router.
type Options struct {
	// Backend reaches the provider plugins.
	Backend Backend
	// Providers are the suite's providers: entries by name.
	Providers map[string]Provider
	// Getenv reads keys and base URLs; nil means os.Getenv.
	Getenv func(string) string
	// Redactor receives every key the router reads, so reports, logs and
	// errors mask it; nil gives the router a redactor of its own.
	Redactor *redact.Redactor
}

// Router routes model calls to provider plugins. It is safe for
// concurrent use.
type Router struct {
	opts Options
}

// New returns a router.
func New(opts Options) *Router {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Redactor == nil {
		opts.Redactor = redact.New()
	}
	return &Router{opts: opts}
}

// ProvidersOf converts a suite's providers: block.
func ProvidersOf(s *config.Suite) map[string]Provider {
	out := make(map[string]Provider, len(s.Providers))
	for name, p := range s.Providers {
		prov := Provider{Name: name, Type: p.Type, BaseURL: p.BaseURL, APIKeyEnv: p.APIKeyEnv, Organization: p.Organization}
		for _, pr := range p.Prices {
			prov.Prices = append(prov.Prices, sdk.ModelPrice{Model: pr.Model, InputPerMTok: pr.InputPerMTok, OutputPerMTok: pr.OutputPerMTok})
		}
		out[name] = prov
	}
	return out
}

// Route is where a model reference leads.
type Route struct {
	// Model is the model id sent to the vendor.
	Model string
	// Key is the provider key (family) of the plugin that serves it.
	Key string
	// Endpoint is the address and credentials of the call.
	Endpoint sdk.Endpoint
}

// Resolve finds the plugin and endpoint of ref. The error matches
// ErrNoKey when the key's variable is unset, ErrUnknownModel or
// ErrUnknownProvider when ref leads nowhere.
func (r *Router) Resolve(ref config.ModelRef) (Route, error) {
	if ref.Provider != "" {
		return r.resolveEntry(ref)
	}
	if ref.ID == StubModel {
		return Route{Model: ref.ID, Key: FamilyStub}, nil
	}
	f, ok := detect(ref.ID)
	if !ok {
		return Route{}, fmt.Errorf("%w: model %q starts with none of %s; declare its endpoint under providers: and write { provider: NAME, id: %s }",
			ErrUnknownModel, ref.ID, prefixList(), ref.ID)
	}
	rt := Route{Model: ref.ID, Key: f.name, Endpoint: sdk.Endpoint{BaseURL: r.opts.Getenv(f.baseEnv)}}
	for _, env := range f.keyEnvs {
		if v := r.opts.Getenv(env); v != "" {
			r.opts.Redactor.Add(v)
			rt.Endpoint.APIKey, rt.Endpoint.KeyEnv = v, env
			break
		}
	}
	if rt.Endpoint.APIKey == "" {
		return Route{}, &NoKeyError{Model: ref.ID, Family: f.name, Vars: f.keyEnvs}
	}
	if f.orgEnv != "" {
		rt.Endpoint.Organization = r.opts.Getenv(f.orgEnv)
	}
	return rt, nil
}

// keylessToken is the bearer token of a providers: entry without a key,
// which the common self-hosted servers accept.
const keylessToken = "EMPTY"

func (r *Router) resolveEntry(ref config.ModelRef) (Route, error) {
	p, ok := r.opts.Providers[ref.Provider]
	if !ok {
		return Route{}, fmt.Errorf("%w: model %q names provider %q, which the suite's providers: block does not declare", ErrUnknownProvider, ref.ID, ref.Provider)
	}
	if p.Type != "" && p.Type != FamilyOpenAI {
		return Route{}, fmt.Errorf("%w: provider %q has type %q; the only supported type is openai", ErrUnknownProvider, p.Name, p.Type)
	}
	rt := Route{Model: ref.ID, Key: FamilyOpenAI, Endpoint: sdk.Endpoint{BaseURL: p.BaseURL, Organization: p.Organization, Name: p.Name}}
	if p.APIKeyEnv == "" {
		rt.Endpoint.APIKey = keylessToken
		return rt, nil
	}
	v := r.opts.Getenv(p.APIKeyEnv)
	if v == "" {
		return Route{}, &NoKeyError{Model: ref.ID, Family: p.Name, Provider: p.Name, Vars: []string{p.APIKeyEnv}}
	}
	r.opts.Redactor.Add(v)
	rt.Endpoint.APIKey, rt.Endpoint.KeyEnv = v, p.APIKeyEnv
	return rt, nil
}

// Complete sends req to the model ref names (req.Model is set to its id)
// and prices the reply when the plugin did not. Errors are masked.
func (r *Router) Complete(ctx context.Context, ref config.ModelRef, req sdk.ChatRequest) (sdk.ChatResponse, error) {
	rt, err := r.Resolve(ref)
	if err != nil {
		return sdk.ChatResponse{}, err
	}
	req.Model, req.Key = rt.Model, rt.Key
	resp, err := r.opts.Backend.Complete(ctx, rt.Key, rt.Endpoint, req)
	if err != nil {
		return sdk.ChatResponse{}, r.mask(err)
	}
	if resp.Usage.CostUSD == nil {
		if p, ok := r.Price(ref); ok {
			c := p.Cost(resp.Usage)
			resp.Usage.CostUSD = &c
		}
	}
	return resp, nil
}

// Embed computes embeddings on the model ref names.
func (r *Router) Embed(ctx context.Context, ref config.ModelRef, req sdk.EmbedRequest) (sdk.EmbedResponse, error) {
	rt, err := r.Resolve(ref)
	if err != nil {
		return sdk.EmbedResponse{}, err
	}
	req.Model, req.Key = rt.Model, rt.Key
	resp, err := r.opts.Backend.Embed(ctx, rt.Key, rt.Endpoint, req)
	if err != nil {
		return sdk.EmbedResponse{}, r.mask(err)
	}
	return resp, nil
}

// Price is what ref's model costs, from its providers: entry's override or
// the price table shipped with its plugin; ok is false when neither knows
// the model. It needs no key and starts no plugin.
func (r *Router) Price(ref config.ModelRef) (price sdk.ModelPrice, ok bool) {
	key := ""
	if ref.Provider != "" {
		p, found := r.opts.Providers[ref.Provider]
		if !found {
			return sdk.ModelPrice{}, false
		}
		if price, ok := sdk.LookupPrice(p.Prices, ref.ID); ok {
			return price, true
		}
		key = FamilyOpenAI
	} else if key, ok = Detect(ref.ID); !ok {
		return sdk.ModelPrice{}, false
	}
	table, err := r.opts.Backend.Prices(key)
	if err != nil {
		return sdk.ModelPrice{}, false
	}
	return sdk.LookupPrice(table, ref.ID)
}

// Redactor returns the redactor holding every key the router has read.
func (r *Router) Redactor() *redact.Redactor { return r.opts.Redactor }

// mask hides every known key in err's message.
func (r *Router) mask(err error) error {
	return &maskedError{msg: r.opts.Redactor.String(err.Error()), cause: err}
}
