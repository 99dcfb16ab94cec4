// Package models routes model calls: it turns a model reference of a
// suite (a bare model id, or {provider, id} naming a providers: entry) into
// the provider plugin that serves it and the endpoint to reach it with
// (base URL, key, organization), reads keys from the environment variables
// the suite format names, registers every key with the run's redactor, and
// prices calls from the plugins' price tables.
//
// The agent loop, the judges and the Host service offered to matcher and
// scorer plugins all call models through a Router, so a key is read in one
// place and never leaves the host except towards its provider plugin.
//
// A model whose family has no key is not answered by anything: Complete
// returns an error matching ErrNoKey that names the variable to set, which
// callers report as a deferred test. The deterministic stub answers only
// when a suite names the model "stub".
package models
