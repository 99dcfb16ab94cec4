package report

import "github.com/mcptest/mcptest/internal/redact"

// Mask replaces every secret in reports, logs and errors (redact.Mask).
const Mask = redact.Mask

// Redactor is the program's one redactor (internal/redact), which the
// emitter runs on every event before a reporter sees it.
//
// Deprecated: use redact.Redactor; this name stays for code written
// against it.
type Redactor = redact.Redactor

// NewRedactor returns a redactor for secrets.
//
// Deprecated: use redact.New.
func NewRedactor(secrets []string) *Redactor { return redact.New(secrets...) }
