// Package suggest finds the "did you mean" candidate for a misspelt name:
// a YAML key, an enum value, a server or matcher name, a subcommand. It is
// the one copy of that logic, shared by the loader, the planner, the plugin
// registry and the CLI, so that every message guesses the same way.
package suggest
