// Package schemas embeds the JSON Schemas mcptest publishes, so the CLI can
// print them (mcptest schema) and tests can validate against them.
package schemas

import _ "embed"

// SuiteV1 is the JSON Schema (draft 2020-12) of the v1 suite format, the
// content of schemas/v1.json. Editors use it through the
// "# yaml-language-server: $schema=..." directive. Treat it as read-only.
//
//go:embed v1.json
var SuiteV1 []byte
