package schemas

import _ "embed"

// ReportV1 is the JSON Schema (draft 2020-12) of the canonical run report,
// version 1: the document the json reporter writes and `mcptest report`
// reads. It describes report.Run exactly as the Go types encode it.
//
//go:embed report.v1.json
var ReportV1 []byte
