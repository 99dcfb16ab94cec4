package evidence

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptest/mcptest/core/report"
)

// Sentinel errors of Verify for input it cannot judge.
var (
	// ErrNotPack: the file is not an evidence pack this mcptest reads.
	ErrNotPack = errors.New("not an evidence pack")
	// ErrNothingToVerify: the pack is unsigned and no report was given,
	// so nothing could be checked.
	ErrNothingToVerify = errors.New("nothing to verify")
)

// VerifyOptions say what to check a pack against.
type VerifyOptions struct {
	// Report is the report file's bytes, ReportPath its name for
	// messages; nil when no report is at hand (the signature alone is
	// then checked).
	Report     []byte
	ReportPath string
	// PublicKey is the key the pack must be signed with; nil accepts the
	// key embedded in the pack (integrity, not authorship).
	PublicKey ed25519.PublicKey
}

// Result is the outcome of Verify.
type Result struct {
	// Valid is true when every check made passed and at least one was
	// made.
	Valid bool
	// Problems say why the pack is not valid.
	Problems []string
	// Checked lists what was verified; Notes what was not, and why.
	Checked []string
	Notes   []string
	// Pack is the pack as read.
	Pack *Pack
}

// Verify checks a pack (its file's bytes): the signature, when there is
// one (against opts.PublicKey when given); the report's sha256, when a
// report is given; and that the pack's grades, verdicts and coverage are
// what the report holds. An error means the input could not be judged
// (ErrNotPack, ErrNothingToVerify, ErrBadKey); a pack that fails a check
// is a Result with Problems.
func Verify(raw []byte, opts VerifyOptions) (*Result, error) {
	var p Pack
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotPack, err)
	}
	if p.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%w: schema_version %q, want %q", ErrNotPack, p.SchemaVersion, SchemaVersion)
	}
	if p.Signature == nil && opts.Report == nil && opts.PublicKey == nil {
		return nil, fmt.Errorf("%w: the pack is unsigned and no report was found; pass --report RUN.json", ErrNothingToVerify)
	}
	res := &Result{Pack: &p}
	checkSignature(res, raw, &p, opts.PublicKey)
	if opts.Report != nil {
		checkReport(res, &p, opts.Report, opts.ReportPath)
	} else {
		res.Notes = append(res.Notes, fmt.Sprintf("the report was not checked: pass --report (the pack names %s, which was not found beside it)", p.Report.File))
	}
	res.Valid = len(res.Problems) == 0 && len(res.Checked) > 0
	return res, nil
}

// checkSignature verifies p's signature.
func checkSignature(res *Result, raw []byte, p *Pack, want ed25519.PublicKey) {
	sig := p.Signature
	if sig == nil {
		if want != nil {
			res.Problems = append(res.Problems, "the pack is not signed, but a public key was given to check it against")
			return
		}
		res.Notes = append(res.Notes, "the pack is unsigned: only the report digest and the pack's agreement with the report were checked, not who made it (set "+KeyEnv+" when building packs to sign them)")
		return
	}
	if sig.Algorithm != Algorithm {
		res.Problems = append(res.Problems, fmt.Sprintf("signature algorithm %q is not %s", sig.Algorithm, Algorithm))
		return
	}
	pubRaw, err := base64.StdEncoding.DecodeString(sig.PublicKey)
	if err != nil || len(pubRaw) != ed25519.PublicKeySize {
		res.Problems = append(res.Problems, "the signature's public_key is not the base64 of a 32-byte ed25519 key")
		return
	}
	pub := ed25519.PublicKey(pubRaw)
	if sig.KeyID != KeyID(pub) {
		res.Problems = append(res.Problems, fmt.Sprintf("the signature's key_id %q does not match its public key (%s)", sig.KeyID, KeyID(pub)))
		return
	}
	if want != nil && !want.Equal(pub) {
		res.Problems = append(res.Problems, fmt.Sprintf("the pack is signed with key %s, not with the given public key %s", KeyID(pub), KeyID(want)))
		return
	}
	value, err := base64.StdEncoding.DecodeString(sig.Value)
	if err != nil || len(value) != ed25519.SignatureSize {
		res.Problems = append(res.Problems, "the signature value is not the base64 of a 64-byte ed25519 signature")
		return
	}
	msg, err := signedBytes(raw)
	if err != nil {
		res.Problems = append(res.Problems, err.Error())
		return
	}
	if !ed25519.Verify(pub, msg, value) {
		res.Problems = append(res.Problems, fmt.Sprintf("the signature (key %s) does not match the pack's content: the pack was changed after it was signed", KeyID(pub)))
		return
	}
	if want != nil {
		res.Checked = append(res.Checked, fmt.Sprintf("signature: valid, by the given key %s", KeyID(pub)))
		return
	}
	res.Checked = append(res.Checked, fmt.Sprintf("signature: valid, by the key embedded in the pack (%s)", KeyID(pub)))
	res.Notes = append(res.Notes, "the signing key was not checked against a trusted one: pass --public-key to check who signed the pack")
}

// checkReport compares the report with the digest and the content of p.
func checkReport(res *Result, p *Pack, reportRaw []byte, path string) {
	sum := sha256.Sum256(reportRaw)
	got := hex.EncodeToString(sum[:])
	if got != p.Report.SHA256 || int64(len(reportRaw)) != p.Report.Bytes {
		res.Problems = append(res.Problems, fmt.Sprintf("report digest mismatch: the pack records sha256 %s (%d bytes), %s has sha256 %s (%d bytes): the report was changed, or is not the pack's",
			p.Report.SHA256, p.Report.Bytes, path, got, len(reportRaw)))
		return
	}
	res.Checked = append(res.Checked, fmt.Sprintf("report digest: %s matches sha256 %s", path, got))
	run, err := report.ParseRun(reportRaw, path)
	if err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("the report matches the digest but cannot be read: %v", err))
		return
	}
	want := &Pack{RunID: run.RunID, Tool: run.Tool, StartedAt: run.StartedAt, FinishedAt: run.FinishedAt}
	fillContent(want, run)
	var differ []string
	for _, f := range []struct {
		name      string
		have, exp any
	}{
		{"run_id", p.RunID, want.RunID},
		{"tool", p.Tool, want.Tool},
		{"started_at", p.StartedAt, want.StartedAt},
		{"finished_at", p.FinishedAt, want.FinishedAt},
		{"exit_code", p.ExitCode, want.ExitCode},
		{"summary", p.Summary, want.Summary},
		{"partial", p.Partial, want.Partial},
		{"costs", p.Costs, want.Costs},
		{"coverage", p.Coverage, want.Coverage},
		{"verdicts", p.Verdicts, want.Verdicts},
		{"grades", p.Grades, want.Grades},
	} {
		if !sameJSON(f.have, f.exp) {
			differ = append(differ, f.name)
		}
	}
	if len(differ) > 0 {
		res.Problems = append(res.Problems, fmt.Sprintf("the pack's %v do not match the report it digests: the pack was edited", differ))
		return
	}
	res.Checked = append(res.Checked, fmt.Sprintf("content: the pack's %d verdicts, %d grades and coverage match the report", len(p.Verdicts), len(p.Grades)))
}

// sameJSON compares two values by their JSON encoding.
func sameJSON(a, b any) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}
