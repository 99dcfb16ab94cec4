package main

import (
	"strings"
	"testing"
)

// TestComplianceTakesTheSharedServerFlags: compliance run takes --header
// NAME=VALUE, --header-env and --server-auth-bearer-env as the toolkit
// commands do, and keeps 'Name: value' and --bearer-env as aliases.
func TestComplianceTakesTheSharedServerFlags(t *testing.T) {
	t.Setenv("TK_HEADER_SECRET", "header-secret-value")
	t.Setenv("TK_BEARER", "bearer-secret-value")
	f := complianceFlags{server: "https://example.test/mcp",
		headers:    []string{"X-New=a:b", "X-Old: c=d"},
		headerEnvs: []string{"X-Env=TK_HEADER_SECRET"}, serverBearer: "TK_BEARER"}
	target, secrets, err := f.target()
	if err != nil {
		t.Fatal(err)
	}
	h := target.Header
	if h.Get("X-New") != "a:b" || h.Get("X-Old") != "c=d" || h.Get("X-Env") != "header-secret-value" || h.Get("Authorization") != "Bearer bearer-secret-value" {
		t.Errorf("headers %v", h)
	}
	if !strings.Contains(strings.Join(secrets, ","), "header-secret-value") || !strings.Contains(strings.Join(secrets, ","), "bearer-secret-value") {
		t.Errorf("secrets %v", secrets)
	}
	f = complianceFlags{server: "https://example.test/mcp", bearerEnv: "TK_BEARER"}
	if target, _, err := f.target(); err != nil || target.Header.Get("Authorization") != "Bearer bearer-secret-value" {
		t.Errorf("--bearer-env alias: %v %v", target.Header, err)
	}
	for _, bad := range []complianceFlags{
		{server: "https://example.test/mcp", bearerEnv: "TK_BEARER", serverBearer: "TK_HEADER_SECRET"},
		{server: "https://example.test/mcp", headerEnvs: []string{"X-Env=TK_UNSET_VARIABLE"}},
		{server: "./server", headerEnvs: []string{"X-Env=TK_HEADER_SECRET"}},
		{server: "https://example.test/mcp", headers: []string{"novalue"}},
	} {
		if _, _, err := bad.target(); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}

// TestServerFlagsTarget: the toolkit commands' --server reads a URL with
// its headers and token, or a command with its environment, and refuses
// the flags of the other kind.
func TestServerFlagsTarget(t *testing.T) {
	t.Setenv("TK_TOKEN", "toolkit-token-value")
	f := serverFlags{server: "http://127.0.0.1:1/mcp", headers: []string{"X-A=1"}, headerEnvs: []string{"X-B=TK_TOKEN"}, bearerEnv: "TK_TOKEN"}
	tg, err := f.target()
	if err != nil {
		t.Fatal(err)
	}
	if len(tg.Headers) != 2 || tg.Headers[1].Env != "TK_TOKEN" || tg.BearerToken != "toolkit-token-value" || len(tg.Secrets) != 2 {
		t.Errorf("target %+v", tg)
	}
	f = serverFlags{server: "node 'my server.js' --flag", env: []string{"K=V"}}
	if tg, err = f.target(); err != nil || len(tg.Command) != 3 || tg.Command[1] != "my server.js" || tg.Env["K"] != "V" {
		t.Errorf("command target %+v %v", tg, err)
	}
	for _, bad := range []serverFlags{{}, {server: "./s", headers: []string{"X=1"}}, {server: "http://h/", env: []string{"K=V"}},
		{server: "http://h/", bearerEnv: "TK_UNSET_VARIABLE"}, {server: "./s", env: []string{"=V"}}} {
		if _, err := bad.target(); err == nil {
			t.Errorf("%+v: want an error", bad)
		}
	}
}
