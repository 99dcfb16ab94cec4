// Package plugin is mcptest's plugin host: it discovers plugin folders,
// reads and checks their manifests, resolves matcher keys and report formats
// to plugins without starting anything, launches only the plugins a run
// needs (one process each, in parallel), batches calls, and turns a plugin
// that crashes or hangs into errored items instead of a failed run.
package plugin
