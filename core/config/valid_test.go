package config

import (
	"path/filepath"
	"testing"
)

// testEnv is the environment the testdata suites are loaded with, so that
// the results do not depend on the machine.
var testEnv = map[string]string{
	"MCPTEST_REQUIRED_TOKEN": "tok-required-123",
	"HOSTED_MCP_TOKEN":       "hosted-secret-value",
	"TENANT_API_KEY":         "tenant-key-value",
	"GW_CLIENT_SECRET":       "gateway-client-secret",
	"ROUTER_API_KEY":         "router-api-key",
	"ORG_CLIENT_ID":          "org-client-id",
	"ORG_CLIENT_ID_SECRET":   "org-client-secret",
}

// testOptions are load options reading testEnv instead of the process
// environment.
func testOptions() Options {
	return Options{LookupEnv: func(k string) (string, bool) { v, ok := testEnv[k]; return v, ok }}
}

// validSuites lists the valid testdata suites.
func validSuites(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "valid", "*.yml"))
	if len(files) < 15 {
		t.Fatalf("only %d valid testdata suites", len(files))
	}
	return files
}

// TestValidSuitesLoad loads every valid testdata suite: each rewrites the
// examples of one part of the v1 format, and together they cover every
// block and matcher.
func TestValidSuitesLoad(t *testing.T) {
	for _, path := range validSuites(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s, err := LoadWith(path, testOptions())
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range s.Warnings {
				t.Logf("warning: %v", w)
			}
		})
	}
}
