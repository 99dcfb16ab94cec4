// Package hooks runs the commands a suite attaches to its tests: the
// lifecycle hooks (beforeAll, afterAll, beforeEach, afterEach), context
// hooks that patch the env and vars later hooks see or skip tests, and
// the request, response and assertion transforms. It owns the commands'
// environment, their process groups (stopped when the suite ends) and the
// bounds on what they print. Which tests run between which hooks is the
// caller's concern.
package hooks
