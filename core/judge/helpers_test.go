package judge

import "github.com/mcptest/mcptest/internal/redact"

func redactorOf(secrets ...string) *redact.Redactor { return redact.New(secrets...) }
