// Package evidence builds and verifies evidence packs: the governance
// artifact of a run. A pack holds the run's grades (every eval and
// model-graded result, with its verdict), a verdict per test, coverage
// (tests per block, server and suite file, the tools each server was
// tested through), the run's costs, and the sha256 of the exact report
// file it was built from. When a private key is at hand (KeyEnv), the
// pack is signed with ed25519 over its canonical JSON, so neither the
// pack nor, through the digest, the report can change unnoticed.
//
// Verify checks a pack against its report (digest, then the pack's
// content rebuilt from the report) and its signature (against a given
// public key, or the one the pack embeds).
package evidence
