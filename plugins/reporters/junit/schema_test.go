package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcptest/mcptest/plugins/reporters/internal/rendertest"
)

// validateXSD checks doc against the JUnit schema with xmllint, as CI
// consumers of the report would.
func validateXSD(t *testing.T, doc string) {
	t.Helper()
	if out, err := xmllint(t, doc); err != nil {
		t.Fatalf("xmllint rejects the report: %v\n%s\n--- report\n%s", err, out, doc)
	}
}

// xmllint runs xmllint --schema on doc and returns its output. Without
// xmllint the test is skipped, except under CI, where it fails.
func xmllint(t *testing.T, doc string) (string, error) {
	t.Helper()
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xmllint is not installed (Debian package libxml2-utils); CI must have it")
		}
		t.Skip("xmllint is not installed (Debian package libxml2-utils): JUnit schema validation skipped")
	}
	xsd := filepath.Join(rendertest.ThirdPartySchemas(t), "junit-windyroad.xsd")
	if _, err := os.Stat(xsd); err != nil {
		t.Fatalf("JUnit schema not found (set %s): %v", rendertest.SchemasEnv, err)
	}
	file := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--noout", "--schema", xsd, file).CombinedOutput()
	return string(out), err
}

// TestXMLLintRejectsInvalid makes sure the validation can fail: the schema
// gives <testsuites> no attributes and requires <properties>.
func TestXMLLintRejectsInvalid(t *testing.T) {
	for _, doc := range []string{
		`<testsuites tests="1"></testsuites>`,
		`<testsuites><testsuite name="s" tests="0" failures="0" errors="0" time="0" timestamp="2026-01-01T00:00:00" hostname="h" id="0" package="p"><system-out/><system-err/></testsuite></testsuites>`,
	} {
		if out, err := xmllint(t, doc); err == nil {
			t.Errorf("xmllint accepted %s\n%s", doc, out)
		}
	}
}
