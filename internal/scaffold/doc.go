// Package scaffold writes the starting point of a new plugin module for
// `mcptest plugins new`: main.go for one component kind, a test that serves
// the plugin in-process with sdk/plugintest, go.mod requiring only the SDK
// module, and a Makefile with build, test and install targets. The files
// build unchanged; authors then replace the sample logic with theirs.
package scaffold
