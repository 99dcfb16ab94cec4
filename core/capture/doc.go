// Package capture carries values from one test to the next: the Store
// records what a test captures from its response, makes the tests that
// use a value wait for its producer, and substitutes ${capture:NAME}
// references. Substitute is the one substitution engine of the core; the
// ${fixture} and composition references use it too.
package capture
