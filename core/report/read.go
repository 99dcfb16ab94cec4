package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcptest/mcptest/internal/safefile"
	"github.com/mcptest/mcptest/schemas"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// ErrInvalidReport is wrapped by every error reading a saved report.
var ErrInvalidReport = errors.New("invalid report")

var reportSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemas.ReportV1))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.v1.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("report.v1.json")
})

// MaxReportSize bounds a saved report that ReadRun accepts. Checking a
// report against its schema holds the whole document in memory several
// times over, so the size is checked (from fstat, before any read) rather
// than discovered by running out of memory: a sparse 3 GB file is refused
// at once.
const MaxReportSize = 256 << 20

// ReadRun reads a saved JSON report (mcptest run --reporter json) and checks
// it against schemas/report.v1.json, so a re-render never works from a
// truncated or foreign file. Like a suite, the file must be a regular
// file (a FIFO or device is refused before anything blocks on it) of at
// most MaxReportSize bytes.
func ReadRun(path string) (*rpt.Run, error) {
	raw, err := safefile.ReadFile(path, MaxReportSize)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidReport, err)
	}
	return ParseRun(raw, path)
}

// ParseRun checks raw, the bytes of a saved report read from path (named
// in errors), as ReadRun does. Callers that need the exact bytes as well
// (the evidence pack digests them) read once and parse with it.
func ParseRun(raw []byte, path string) (*rpt.Run, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not JSON: %w", ErrInvalidReport, path, err)
	}
	var head struct {
		SchemaVersion string `json:"schema_version"`
	}
	_ = json.Unmarshal(raw, &head)
	if head.SchemaVersion != rpt.SchemaVersion {
		return nil, fmt.Errorf("%w: %s has schema_version %q; this mcptest reads version %q reports (written by mcptest run --reporter json)",
			ErrInvalidReport, path, head.SchemaVersion, rpt.SchemaVersion)
	}
	sch, err := reportSchema()
	if err != nil {
		return nil, fmt.Errorf("compile report schema: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		return nil, fmt.Errorf("%w: %s does not match the report schema: %v", ErrInvalidReport, path, err)
	}
	var run rpt.Run
	if err := json.Unmarshal(raw, &run); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidReport, path, err)
	}
	upgradeWarnings(&run, raw)
	return &run, nil
}
