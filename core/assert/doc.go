// Package assert judges a test: it reads each expect entry's target from
// the response, sends every matcher a plugin decides to the plugins in one
// batch, combines compositions and assert-sets from the verdicts, adds the
// checks of the long form of expect (duration, tokens, headers) and scores
// the test. It also vets matcher arguments before a run (CheckArguments).
//
// A Judge carries what judging needs from the run (the plugin call, the
// redactor, the transform hook and where plugin failures are noted), so
// the package knows nothing of sessions, servers or hooks.
package assert
