// Package slicepool recycles short-lived slices by capacity class. Judging
// needs a few slices per test that are dropped as soon as the test is
// judged (the plugin requests, the coalescer's joined batches, the scoring
// entries); with a run's results held in memory the collector has a large
// heap to mark, so each allocation saved is a share of a collection saved.
package slicepool
