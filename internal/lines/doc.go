// Package lines is the one bounded line reader: it splits a child's
// output (a stdio MCP server's stdout) into lines without ever holding
// more than its bound of one line, skipping over-long lines while keeping
// their start for the report. core/session and core/probe both read
// stdout through it.
package lines
