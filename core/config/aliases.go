package config

import "github.com/mcptest/mcptest/core/config/internal/yamlpos"

// ErrInvalidSuite is matched by errors.Is for every error Load and
// LoadFiles return, whatever its cause (missing file, YAML syntax, schema).
var ErrInvalidSuite = yamlpos.ErrInvalidSuite

// Error is one problem found in a suite file: its file, line, column and
// JSON pointer, what was expected and found, and a hint. It is defined
// with the YAML position layer that produces most of them.
type Error = yamlpos.Error

// Errors is every problem found in one or more suite files, sorted by file
// and then by line and column.
type Errors = yamlpos.Errors
