// Package scorer grades candidates with external scorers: the entries of a
// suite's scorers: block, each served by a scorer plugin chosen by its
// type (the bundled plugin serves "exec"; a private plugin may serve
// others).
//
// Resolution happens from manifests alone, before any server or plugin
// starts: Resolve (or ResolveUsed, for every scorer a suite's evals name)
// turns a scorer name into a *Scorer bound to the plugin serving its type,
// and a type no plugin serves is a located error saying the type is not
// available in this build. Score then sends one grading to the plugin
// through the run's plugin host and turns the answer into a report.Eval
// of form "scorer".
//
// The verdict cache and the --max-cost budget are not applied here: the
// eval runner wraps Score with them (CacheKey gives the bytes a cached
// verdict is keyed on), so judges and scorers share one cache and one
// budget.
package scorer
