package schemas

import _ "embed"

// PluginManifestV1 is the JSON Schema of mcptest-plugin.yaml.
//
//go:embed plugin-manifest.v1.json
var PluginManifestV1 []byte
