package main

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcptest/mcptest/core/evidence"
	"github.com/mcptest/mcptest/core/report"
	"github.com/mcptest/mcptest/internal/safefile"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// evidenceFormat is the --format name of the evidence pack. The core
// writes it, not a reporter plugin: it needs the report file's exact
// bytes and the signing key, which no plugin should hold.
const evidenceFormat = "evidence"

// takeEvidence removes the evidence format from formats. It returns
// whether the pack was asked for and where it goes ("" for stdout).
func takeEvidence(formats []string, output string) (want bool, path string, rest []string, err error) {
	for _, spec := range formats {
		name, p, _ := strings.Cut(spec, "=")
		if name != evidenceFormat {
			rest = append(rest, spec)
			continue
		}
		if want {
			return false, "", nil, errors.New("--format evidence is given twice")
		}
		want, path = true, p
	}
	if !want {
		return false, "", formats, nil
	}
	switch {
	case path == "" && len(rest) == 0:
		path = output
	case path == "":
		return false, "", nil, errors.New("--format evidence with other formats needs a file: --format evidence=PACK.json")
	}
	return true, path, rest, nil
}

// writeEvidence builds the pack of the report raw (read from reportPath),
// signs it when MCPTEST_EVIDENCE_KEY is set, and writes it to path (""
// for stdout).
func writeEvidence(run *rpt.Run, raw []byte, reportPath, path string, stdout, stderr io.Writer) int {
	p := evidence.Build(run, raw, reportPath, rpt.ToolInfo{Name: "mcptest", Version: version}, time.Now())
	note := fmt.Sprintf("unsigned: set %s to sign it", evidence.KeyEnv)
	if text := os.Getenv(evidence.KeyEnv); text != "" {
		key, err := evidence.ParsePrivateKey(text)
		if err != nil {
			// The error names the problem, never the key.
			fmt.Fprintf(stderr, "mcptest report: %s: %v\n", evidence.KeyEnv, err)
			return 2
		}
		if err := evidence.Sign(p, key); err != nil {
			fmt.Fprintf(stderr, "mcptest report: sign the evidence pack: %v\n", err)
			return 2
		}
		note = fmt.Sprintf("signed with ed25519 key %s, public key %s", p.Signature.KeyID, p.Signature.PublicKey)
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "mcptest report: %v\n", err)
		return 2
	}
	b = append(b, '\n')
	if path == "" {
		_, _ = stdout.Write(b)
	} else {
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				fmt.Fprintf(stderr, "mcptest report: %v\n", err)
				return 2
			}
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			fmt.Fprintf(stderr, "mcptest report: %v\n", err)
			return 2
		}
	}
	where := path
	if where == "" {
		where = "stdout"
	}
	fmt.Fprintf(stderr, "evidence pack of run %s (%d tests, %d grades) written to %s; %s\n", p.RunID, len(p.Verdicts), len(p.Grades), where, note)
	return 0
}

// reportVerify is `mcptest report verify PACK`: exit 0 when the pack is
// valid, 1 when it is not (with the reasons), 2 for input that cannot be
// judged.
func reportVerify(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("report verify", stderr)
	reportPath := fs.String("report", "", "the report the pack was built from (default: the file the pack names, beside the pack)")
	publicKey := fs.String("public-key", "", "the signer's ed25519 public key: base64 of its 32 bytes, or a PEM \"PUBLIC KEY\" file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcptest report verify [--report RUN.json] [--public-key KEY] PACK")
		fmt.Fprintln(stderr, "checks an evidence pack: its signature, the report's sha256 and that its grades match the report")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	packPath := fs.Arg(0)
	fail := func(err error) int {
		fmt.Fprintf(stderr, "mcptest report verify: %v\n", err)
		return 2
	}
	packRaw, err := safefile.ReadFile(packPath, report.MaxReportSize)
	if err != nil {
		return fail(err)
	}
	var opts evidence.VerifyOptions
	if *publicKey != "" {
		if opts.PublicKey, err = readPublicKey(*publicKey); err != nil {
			return fail(fmt.Errorf("--public-key: %w", err))
		}
	}
	if *reportPath != "" {
		if opts.Report, err = safefile.ReadFile(*reportPath, report.MaxReportSize); err != nil {
			return fail(fmt.Errorf("--report: %w", err))
		}
		opts.ReportPath = *reportPath
	} else if p := besidePack(packPath, packRaw); p != "" {
		// The name comes from the pack, which is not trusted yet: only a
		// base name, looked up beside the pack.
		if raw, err := safefile.ReadFile(p, report.MaxReportSize); err == nil {
			opts.Report, opts.ReportPath = raw, p
		}
	}
	res, err := evidence.Verify(packRaw, opts)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", packPath, err))
	}
	verdict := "valid"
	if !res.Valid {
		verdict = "INVALID"
	}
	fmt.Fprintf(stdout, "evidence pack %s (run %s): %s\n", packPath, res.Pack.RunID, verdict)
	for _, c := range res.Checked {
		fmt.Fprintf(stdout, "  ok    %s\n", c)
	}
	for _, p := range res.Problems {
		fmt.Fprintf(stdout, "  FAIL  %s\n", p)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(stdout, "  note  %s\n", n)
	}
	if !res.Valid {
		return 1
	}
	return 0
}

// besidePack is the path of the report the pack names, beside the pack;
// "" when the pack names none.
func besidePack(packPath string, raw []byte) string {
	var head struct {
		Report struct {
			File string `json:"file"`
		} `json:"report"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return ""
	}
	name := filepath.Base(head.Report.File)
	if name == "" || name == "." || name == ".." || name == string(filepath.Separator) {
		return ""
	}
	return filepath.Join(filepath.Dir(packPath), name)
}

// readPublicKey reads --public-key: a file holding the key, or the key
// itself.
func readPublicKey(arg string) (ed25519.PublicKey, error) {
	text := arg
	if info, err := os.Stat(arg); err == nil && !info.IsDir() {
		raw, err := safefile.ReadFile(arg, 64<<10)
		if err != nil {
			return nil, err
		}
		text = string(raw)
	}
	return evidence.ParsePublicKey(text)
}
