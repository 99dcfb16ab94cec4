// Package plugin is mcptest's plugin host: it discovers plugin folders,
// reads and checks their manifests, resolves matcher keys and report formats
// to plugins without starting anything, launches only the plugins a run
// needs (one process each, in parallel), batches calls, and turns a plugin
// that crashes or hangs into errored items instead of a failed run.
//
// # Size
//
// The package is about 3,700 lines without tests (late 2026), over the
// ~3,000 the project aims for, since the three private caches that keep
// plugin start-up off a run's critical path (digests of verified
// executables, parsed manifests, pure vetting verdicts: digestcache.go,
// manifestcache.go, vetcache.go and privatecache.go, ~550 lines) joined
// the host. They read the host's Found plugins and its launcher's stamps;
// the next move is to put them behind a small interface in a package of
// their own (core/plugin/internal/cache), with discovery (discover.go,
// registry.go, manifest*.go, trust*.go) the candidate after that.
package plugin
