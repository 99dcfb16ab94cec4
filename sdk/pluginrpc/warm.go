package pluginrpc

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/mcptest/mcptest/sdk/report"
)

// warmReportTypes has encoding/json learn the report's types (their field
// lists, built by reflection the first time a type is encoded or decoded,
// and their encoders) once per process, in the background. A reporter
// plugin is a fresh process every run: without this it paid that cost at
// the end of the run, decoding run_finished and, for the formats written
// as JSON, encoding the report, while mcptest waited for the report.
// Called when a render opens, it overlaps the run instead.
var warmReportTypes = sync.OnceFunc(func() {
	_ = json.NewEncoder(io.Discard).Encode(&report.Event{Run: &report.Run{}})
})
