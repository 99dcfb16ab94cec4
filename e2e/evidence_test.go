package e2e

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// evidenceRun runs mixedSuite once and returns the saved report's path.
func evidenceRun(t *testing.T, dir string) string {
	t.Helper()
	saved := filepath.Join(dir, "run.json")
	r := mcptest(t, "run", "--reporter", "json="+saved, writeSuite(t, mixedSuite))
	if r.code != 1 {
		t.Fatalf("run:\n%s", r)
	}
	return saved
}

// seedKey is a fixed ed25519 key: its seed as MCPTEST_EVIDENCE_KEY holds
// it, and its public key.
func seedKey(b byte) (string, ed25519.PublicKey) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, ed25519.SeedSize))
	return base64.StdEncoding.EncodeToString(priv.Seed()), priv.Public().(ed25519.PublicKey)
}

// TestEvidencePackRoundTrip: a signed pack of a saved run verifies against
// its report and the signer's public key (base64 or PEM file); the pack
// holds the run's verdicts and coverage; the key never shows.
func TestEvidencePackRoundTrip(t *testing.T) {
	dir := t.TempDir()
	saved := evidenceRun(t, dir)
	seed, pub := seedKey(1)
	pack := filepath.Join(dir, "pack.json")
	r := mcptestEnv(t, []string{"MCPTEST_EVIDENCE_KEY=" + seed}, "report", saved, "--format", "evidence", "-o", pack)
	if r.code != 0 {
		t.Fatalf("evidence:\n%s", r)
	}
	pubB64 := base64.StdEncoding.EncodeToString(pub)
	mustContain(t, "evidence stderr", r.stderr, "(3 tests, 0 grades) written to "+pack, "signed with ed25519 key", pubB64)
	raw, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(seed)) || strings.Contains(r.stdout+r.stderr, seed) {
		t.Errorf("the private key reached the pack or the output")
	}
	var p struct {
		Report struct {
			File   string `json:"file"`
			SHA256 string `json:"sha256"`
		} `json:"report"`
		Summary  struct{ Total, Passed, Failed int } `json:"summary"`
		Coverage struct {
			Blocks []struct {
				Name          string
				Total, Passed int
			} `json:"blocks"`
		} `json:"coverage"`
		Verdicts []struct{ Status string } `json:"verdicts"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if p.Report.File != "run.json" || len(p.Report.SHA256) != 64 || p.Summary.Total != 3 || p.Summary.Failed != 2 ||
		len(p.Verdicts) != 3 || len(p.Coverage.Blocks) != 1 || p.Coverage.Blocks[0].Name != "tools" || p.Coverage.Blocks[0].Passed != 1 {
		t.Errorf("pack = %+v", p)
	}

	// The report beside the pack is found by name.
	v := mcptest(t, "report", "verify", "--public-key", pubB64, pack)
	if v.code != 0 {
		t.Fatalf("verify:\n%s", v)
	}
	mustContain(t, "verify", v.stdout, ": valid", "signature: valid, by the given key", "report digest:", "3 verdicts, 0 grades and coverage match")

	// A PEM public key file works too, and so does --report elsewhere.
	der, _ := x509.MarshalPKIXPublicKey(pub)
	pemFile := filepath.Join(dir, "signer.pub")
	if err := os.WriteFile(pemFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(t.TempDir(), "elsewhere.json")
	evidenceCopy(t, saved, moved)
	if v := mcptest(t, "report", "verify", "--public-key", pemFile, "--report", moved, pack); v.code != 0 {
		t.Fatalf("verify with a PEM key:\n%s", v)
	}
}

// TestEvidencePackTampering: every change is caught with its reason and
// exit 1; input that cannot be judged is exit 2.
func TestEvidencePackTampering(t *testing.T) {
	dir := t.TempDir()
	saved := evidenceRun(t, dir)
	seed, pub := seedKey(2)
	pubB64 := base64.StdEncoding.EncodeToString(pub)
	pack := filepath.Join(dir, "pack.json")
	if r := mcptestEnv(t, []string{"MCPTEST_EVIDENCE_KEY=" + seed}, "report", saved, "--format", "evidence", "-o", pack); r.code != 0 {
		t.Fatalf("evidence:\n%s", r)
	}
	raw, _ := os.ReadFile(pack)
	report, _ := os.ReadFile(saved)

	// A report changed after the pack was made.
	tamperedReport := filepath.Join(t.TempDir(), "run.json")
	edited := flipFailed(report)
	if bytes.Equal(edited, report) {
		t.Fatal("the report edit changed nothing")
	}
	evidenceWrite(t, tamperedReport, edited)
	v := mcptest(t, "report", "verify", "--public-key", pubB64, "--report", tamperedReport, pack)
	if v.code != 1 {
		t.Fatalf("tampered report: want exit 1\n%s", v)
	}
	mustContain(t, "tampered report", v.stdout, ": INVALID", "FAIL  report digest mismatch")

	// A pack changed after it was signed (one verdict flipped).
	tamperedPack := filepath.Join(dir, "tampered-pack.json")
	flipped := flipFailed(raw)
	if bytes.Equal(flipped, raw) {
		t.Fatal("the pack edit changed nothing")
	}
	evidenceWrite(t, tamperedPack, flipped)
	v = mcptest(t, "report", "verify", "--public-key", pubB64, tamperedPack)
	if v.code != 1 {
		t.Fatalf("tampered pack: want exit 1\n%s", v)
	}
	mustContain(t, "tampered pack", v.stdout, "the pack was changed after it was signed", "do not match the report it digests")

	// Checked against another key.
	_, other := seedKey(3)
	v = mcptest(t, "report", "verify", "--public-key", base64.StdEncoding.EncodeToString(other), pack)
	if v.code != 1 {
		t.Fatalf("wrong key: want exit 1\n%s", v)
	}
	mustContain(t, "wrong key", v.stdout, "not with the given public key")

	// Bad input: no such pack, not a pack, a malformed key, a malformed
	// signing key (whose value never shows).
	for _, args := range [][]string{
		{"report", "verify", filepath.Join(dir, "absent.json")},
		{"report", "verify", saved},
		{"report", "verify", "--public-key", "not-a-key", pack},
	} {
		if v := mcptest(t, args...); v.code != 2 {
			t.Errorf("%v: want exit 2\n%s", args, v)
		}
	}
	badKey := "c2hvcnQta2V5LXZhbHVlLXNlY3JldA"
	r := mcptestEnv(t, []string{"MCPTEST_EVIDENCE_KEY=" + badKey}, "report", saved, "--format", "evidence", "-o", filepath.Join(dir, "x.json"))
	if r.code != 2 || strings.Contains(r.stderr, badKey) || !strings.Contains(r.stderr, "MCPTEST_EVIDENCE_KEY") {
		t.Errorf("bad signing key: want exit 2 naming the variable, not its value\n%s", r)
	}
}

// TestEvidencePackUnsigned: without a key the pack is written unsigned and
// verifies for its digest and content only, saying so.
func TestEvidencePackUnsigned(t *testing.T) {
	dir := t.TempDir()
	saved := evidenceRun(t, dir)
	r := mcptest(t, "report", saved, "--format", "evidence")
	if r.code != 0 {
		t.Fatalf("evidence to stdout:\n%s", r)
	}
	mustContain(t, "stderr", r.stderr, "unsigned: set MCPTEST_EVIDENCE_KEY to sign it")
	pack := filepath.Join(dir, "pack.json")
	evidenceWrite(t, pack, []byte(r.stdout))
	v := mcptest(t, "report", "verify", pack)
	if v.code != 0 {
		t.Fatalf("verify unsigned:\n%s", v)
	}
	mustContain(t, "verify unsigned", v.stdout, ": valid", "report digest:", "note  the pack is unsigned")
	// An unsigned pack never passes a check against a key.
	_, pub := seedKey(4)
	if v := mcptest(t, "report", "verify", "--public-key", base64.StdEncoding.EncodeToString(pub), pack); v.code != 1 {
		t.Errorf("unsigned pack with --public-key: want exit 1\n%s", v)
	}
	// Nothing to check: unsigned, and no report.
	lone := filepath.Join(t.TempDir(), "pack.json")
	evidenceWrite(t, lone, []byte(r.stdout))
	if v := mcptest(t, "report", "verify", lone); v.code != 2 || !strings.Contains(v.stderr, "nothing to verify") {
		t.Errorf("unsigned pack without its report: want exit 2\n%s", v)
	}
}

func evidenceWrite(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func evidenceCopy(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	evidenceWrite(t, to, b)
}

// flipFailed turns the first failed status in a JSON document, compact or
// indented, into a pass.
func flipFailed(b []byte) []byte {
	for _, sep := range []string{":", ": "} {
		from := []byte(`"status"` + sep + `"failed"`)
		if bytes.Contains(b, from) {
			return bytes.Replace(b, from, []byte(`"status"`+sep+`"passed"`), 1)
		}
	}
	return b
}
