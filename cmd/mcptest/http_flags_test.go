package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcptest/mcptest/core/config"
)

func TestHTTPFlagsRewriteURLServers(t *testing.T) {
	t.Setenv("MCPTEST_FLAG_KEY", "s3cret-value")
	url := &config.Server{Name: "api", Kind: config.URLServer, Headers: []*config.Header{{Name: "x-tenant", Value: "yaml"}, {Name: "X-Keep", Value: "k"}}}
	stdio := &config.Server{Name: "local", Kind: config.StdioServer}
	suite := &config.Suite{Servers: map[string]*config.Server{"api": url, "local": stdio}}
	h := httpFlags{
		headers:    []string{"X-Tenant=cli"},
		headerEnvs: []string{"X-Api-Key=MCPTEST_FLAG_KEY"},
		insecure:   true, caBundle: "/ca.pem", httpTimeout: 2.5, connectTimeout: 1,
	}
	var warn strings.Builder
	if err := h.apply([]*config.Suite{suite}, &warn); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, hd := range url.Headers {
		got = append(got, hd.Name+"="+hd.Value+"$"+hd.Env)
	}
	if strings.Join(got, ",") != "X-Keep=k$,X-Tenant=cli$,X-Api-Key=$MCPTEST_FLAG_KEY" {
		t.Errorf("headers = %v", got)
	}
	tls := url.HTTP.TLS
	if !tls.InsecureSkipVerify || tls.CABundlePath != "/ca.pem" || url.HTTP.Timeout != 2500*time.Millisecond || url.HTTP.ConnectTimeout != time.Second {
		t.Errorf("http = %+v", url.HTTP)
	}
	if len(stdio.Headers) != 0 {
		t.Errorf("stdio servers are left alone")
	}
	if !strings.Contains(warn.String(), "WARNING") {
		t.Errorf("no warning banner: %q", warn.String())
	}
	if len(suite.Secrets) != 1 || suite.Secrets[0] != "s3cret-value" {
		t.Errorf("secrets = %v", suite.Secrets)
	}
}

func TestHTTPFlagsRefuseBadHeaders(t *testing.T) {
	for _, spec := range []string{"Authorization=Bearer x", "proxy-authorization=x", "Bad Name=x", "NoValue", "X-A="} {
		h := httpFlags{headers: []string{spec}}
		if err := h.apply(nil, &strings.Builder{}); !errors.Is(err, errBadHeaderFlag) {
			t.Errorf("%q accepted: %v", spec, err)
		}
	}
	t.Setenv("MCPTEST_SHORT_FLAG_KEY", "abc")
	h := httpFlags{headerEnvs: []string{"X-A=MCPTEST_SHORT_FLAG_KEY"}}
	if err := h.apply(nil, &strings.Builder{}); !errors.Is(err, errBadHeaderFlag) || !strings.Contains(err.Error(), "at least 4 bytes") {
		t.Errorf("a 3-byte secret: %v", err)
	}
	h = httpFlags{headerEnvs: []string{"X-A=MCPTEST_SURELY_UNSET_VAR"}}
	if err := h.apply(nil, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "MCPTEST_SURELY_UNSET_VAR") {
		t.Errorf("unset variable: %v", err)
	}
}
