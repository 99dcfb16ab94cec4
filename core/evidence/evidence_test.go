package evidence

import (
	"bytes"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"strings"
	"testing"
	"time"

	rpt "github.com/mcptest/mcptest/sdk/report"
	"github.com/mcptest/mcptest/sdk/report/reporttest"
)

var generator = rpt.ToolInfo{Name: "mcptest", Version: "test"}

// sampleReport is the sample run as a saved report file.
func sampleReport(t *testing.T) (*rpt.Run, []byte) {
	t.Helper()
	run := reporttest.Sample()
	raw, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return run, raw
}

// testKey is a fixed key, so failures reproduce.
func testKey(b byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, ed25519.SeedSize))
}

// packBytes builds (and signs, with a key) the pack of the sample report.
func packBytes(t *testing.T, run *rpt.Run, raw []byte, key ed25519.PrivateKey) []byte {
	t.Helper()
	p := Build(run, raw, "/some/dir/run.json", generator, time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	if key != nil {
		if err := Sign(p, key); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBuildCoverage(t *testing.T) {
	run, raw := sampleReport(t)
	p := Build(run, raw, "/x/run.json", generator, time.Now())
	if p.Report.File != "run.json" || len(p.Report.SHA256) != 64 || p.Report.Bytes != int64(len(raw)) {
		t.Errorf("report = %+v", p.Report)
	}
	if len(p.Verdicts) != len(run.Tests) || p.Summary != run.Summary || p.ExitCode != 2 {
		t.Errorf("verdicts %d summary %+v exit %d", len(p.Verdicts), p.Summary, p.ExitCode)
	}
	want := map[string]Count{
		"tools":      {Name: "tools", Total: 5, Passed: 2, Failed: 1, Errored: 1, Skipped: 1},
		"compliance": {Name: "compliance", Total: 3, Passed: 1, Failed: 1, Warned: 1},
	}
	for _, c := range p.Coverage.Blocks {
		if c != want[c.Name] {
			t.Errorf("block %s = %+v, want %+v", c.Name, c, want[c.Name])
		}
	}
	if len(p.Coverage.Blocks) != 2 || len(p.Coverage.Servers) != 2 || len(p.Coverage.Files) != 2 {
		t.Errorf("coverage = %+v", p.Coverage)
	}
	if len(p.Coverage.Tools) != 2 || p.Coverage.Tools[1].Server != "demo" || strings.Join(p.Coverage.Tools[1].Tools, ",") != "echo,greet" {
		t.Errorf("tools = %+v", p.Coverage.Tools)
	}
}

func TestBuildCollectsEveryGrade(t *testing.T) {
	run := reporttest.Sample()
	run.Tests[0].Eval = &rpt.Eval{Form: "scorer", Scorer: "vendor", Candidate: "response", Score: 0.9, Threshold: 0.7, Passed: true, Calls: 1}
	run.Tests[2].Assertions[1].Assertions = []rpt.Assertion{{Index: 0, Matcher: "llm-judge", Status: rpt.StatusFailed,
		Eval: &rpt.Eval{Form: "text", Candidate: "value", Score: 0.2, Threshold: 0.7, Calls: 1}}}
	p := Build(run, []byte("{}"), "run.json", generator, time.Now())
	if len(p.Grades) != 2 {
		t.Fatalf("grades = %+v", p.Grades)
	}
	if g := p.Grades[0]; g.TestID != run.Tests[0].ID || g.Assertion != nil || g.Eval.Scorer != "vendor" || g.Status != rpt.StatusPassed {
		t.Errorf("test grade = %+v", g)
	}
	if g := p.Grades[1]; g.Matcher != "llm-judge" || len(g.Assertion) != 2 || g.Assertion[0] != 1 || g.Assertion[1] != 0 || g.Eval.Score != 0.2 {
		t.Errorf("nested assertion grade = %+v", g)
	}
}

func TestVerifySignedRoundTrip(t *testing.T) {
	run, raw := sampleReport(t)
	key := testKey(7)
	pack := packBytes(t, run, raw, key)
	pub := key.Public().(ed25519.PublicKey)
	res, err := Verify(pack, VerifyOptions{Report: raw, ReportPath: "run.json", PublicKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid || len(res.Problems) != 0 || len(res.Checked) != 3 {
		t.Fatalf("result = %+v", res)
	}
	// Re-indenting the pack changes no value: still valid.
	var buf bytes.Buffer
	if err := json.Compact(&buf, pack); err != nil {
		t.Fatal(err)
	}
	if res, _ := Verify(buf.Bytes(), VerifyOptions{Report: raw, PublicKey: pub}); !res.Valid {
		t.Errorf("a compacted pack no longer verifies: %+v", res)
	}
	// Without the public key: valid, with a note that the signer was not
	// checked.
	res, _ = Verify(pack, VerifyOptions{Report: raw})
	if !res.Valid || !strings.Contains(strings.Join(res.Notes, "\n"), "--public-key") {
		t.Errorf("result = %+v", res)
	}
	// Without the report: the signature alone, with a note.
	res, _ = Verify(pack, VerifyOptions{PublicKey: pub})
	if !res.Valid || !strings.Contains(strings.Join(res.Notes, "\n"), "report was not checked") {
		t.Errorf("result = %+v", res)
	}
}

func TestVerifyTamperedReport(t *testing.T) {
	run, raw := sampleReport(t)
	pack := packBytes(t, run, raw, testKey(7))
	tampered := bytes.Replace(raw, []byte(`"status": "failed"`), []byte(`"status": "passed"`), 1)
	res, err := Verify(pack, VerifyOptions{Report: tampered, ReportPath: "run.json"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid || !strings.Contains(strings.Join(res.Problems, "\n"), "report digest mismatch") {
		t.Errorf("result = %+v", res)
	}
}

func TestVerifyTamperedPack(t *testing.T) {
	run, raw := sampleReport(t)
	for _, key := range []ed25519.PrivateKey{testKey(7), nil} {
		pack := packBytes(t, run, raw, key)
		// Flip one verdict in the pack.
		edited := bytes.Replace(pack, []byte(`"status": "failed"`), []byte(`"status": "passed"`), 1)
		if bytes.Equal(edited, pack) {
			t.Fatal("the edit changed nothing")
		}
		res, err := Verify(edited, VerifyOptions{Report: raw})
		if err != nil {
			t.Fatal(err)
		}
		problems := strings.Join(res.Problems, "\n")
		if res.Valid || !strings.Contains(problems, "do not match the report") {
			t.Errorf("signed=%v: result = %+v", key != nil, res)
		}
		if key != nil && !strings.Contains(problems, "changed after it was signed") {
			t.Errorf("signed pack: problems lack the signature: %s", problems)
		}
	}
	// A member added to a signed pack breaks the signature too.
	pack := packBytes(t, run, raw, testKey(7))
	added := bytes.Replace(pack, []byte(`"schema_version"`), []byte(`"approved_by": "nobody", "schema_version"`), 1)
	res, _ := Verify(added, VerifyOptions{})
	if res.Valid || !strings.Contains(strings.Join(res.Problems, "\n"), "changed after it was signed") {
		t.Errorf("added member: result = %+v", res)
	}
}

func TestVerifyWrongKey(t *testing.T) {
	run, raw := sampleReport(t)
	pack := packBytes(t, run, raw, testKey(7))
	other := testKey(8).Public().(ed25519.PublicKey)
	res, _ := Verify(pack, VerifyOptions{Report: raw, PublicKey: other})
	if res.Valid || !strings.Contains(strings.Join(res.Problems, "\n"), "not with the given public key") {
		t.Errorf("result = %+v", res)
	}
	// A pack re-signed by someone else, with their key embedded, still
	// fails against the trusted key.
	var p Pack
	_ = json.Unmarshal(pack, &p)
	_ = Sign(&p, testKey(9))
	forged, _ := json.Marshal(&p)
	res, _ = Verify(forged, VerifyOptions{Report: raw, PublicKey: testKey(7).Public().(ed25519.PublicKey)})
	if res.Valid {
		t.Errorf("a pack re-signed with another key verified against the trusted one")
	}
}

func TestVerifyUnsigned(t *testing.T) {
	run, raw := sampleReport(t)
	pack := packBytes(t, run, raw, nil)
	res, err := Verify(pack, VerifyOptions{Report: raw})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Valid || !strings.Contains(strings.Join(res.Notes, "\n"), "the pack is unsigned") {
		t.Errorf("result = %+v", res)
	}
	if _, err := Verify(pack, VerifyOptions{}); !errors.Is(err, ErrNothingToVerify) {
		t.Errorf("no report, no signature: err = %v", err)
	}
	res, _ = Verify(pack, VerifyOptions{Report: raw, PublicKey: testKey(7).Public().(ed25519.PublicKey)})
	if res.Valid {
		t.Errorf("an unsigned pack passed a check against a public key")
	}
}

func TestVerifyNotAPack(t *testing.T) {
	for _, in := range []string{`not json`, `{"schema_version":"other"}`, `[]`} {
		if _, err := Verify([]byte(in), VerifyOptions{Report: []byte("{}")}); !errors.Is(err, ErrNotPack) {
			t.Errorf("Verify(%s) err = %v, want ErrNotPack", in, err)
		}
	}
}

func TestParseKeys(t *testing.T) {
	key := testKey(3)
	pub := key.Public().(ed25519.PublicKey)
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	pemKey := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	for name, text := range map[string]string{
		"seed std":     base64.StdEncoding.EncodeToString(key.Seed()),
		"seed raw url": base64.RawURLEncoding.EncodeToString(key.Seed()),
		"64-byte key":  base64.StdEncoding.EncodeToString(key),
		"pkcs8 pem":    pemKey,
		"seed with nl": base64.StdEncoding.EncodeToString(key.Seed()) + "\n",
	} {
		got, err := ParsePrivateKey(text)
		if err != nil || !got.Equal(key) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, text := range map[string]string{
		"short":       base64.StdEncoding.EncodeToString([]byte("short")),
		"not base64":  "%%%",
		"public pem":  "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
		"bad 64-byte": base64.StdEncoding.EncodeToString(append(key.Seed(), make([]byte, 32)...)),
	} {
		_, err := ParsePrivateKey(text)
		if !errors.Is(err, ErrBadKey) {
			t.Errorf("%s: err = %v, want ErrBadKey", name, err)
		}
		if err != nil && strings.Contains(err.Error(), text) && len(text) > 4 {
			t.Errorf("%s: the error shows the key material", name)
		}
	}
	pkix, _ := x509.MarshalPKIXPublicKey(pub)
	for name, text := range map[string]string{
		"raw b64": base64.StdEncoding.EncodeToString(pub),
		"pem":     string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pkix})),
	} {
		got, err := ParsePublicKey(text)
		if err != nil || !got.Equal(pub) {
			t.Errorf("public %s: %v", name, err)
		}
	}
	if _, err := ParsePublicKey("abcd"); !errors.Is(err, ErrBadKey) {
		t.Errorf("short public key: err = %v", err)
	}
}
