// Package catalog captures what an MCP server offers (its tools,
// resources, resource templates and prompts) as a snapshot file, reads
// catalogs back from snapshots and cassettes, and classifies the changes
// between two catalogs as breaking or non-breaking (diff.go, schema.go).
// Package drift (core/catalog/drift) builds on it to watch a server over
// time. docs/catalog.md describes the file format and every rule.
package catalog
