package models

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/sdk"
)

// Sentinel errors callers test with errors.Is.
var (
	// ErrNoKey: the model's family or provider entry has no key in the
	// environment. Callers report the test as deferred, naming the
	// variable (NoKeyError.Vars).
	ErrNoKey = errors.New("no model key")
	// ErrUnknownModel: a bare model id matches no provider family.
	ErrUnknownModel = errors.New("unknown model family")
	// ErrUnknownProvider: a model reference names no providers: entry.
	ErrUnknownProvider = errors.New("unknown provider")
)

// NoKeyError says which variable would have held a model's key.
type NoKeyError struct {
	// Model is the model id.
	Model string
	// Family is the provider family, or the providers: entry's name.
	Family string
	// Provider is the providers: entry; "" for an auto-detected family.
	Provider string
	// Vars are the variables any one of which would do, in lookup order.
	Vars []string
}

// Error names the model and the variables to set.
func (e *NoKeyError) Error() string {
	who := fmt.Sprintf("model %q (%s)", e.Model, e.Family)
	if e.Provider != "" {
		who = fmt.Sprintf("model %q of provider %q", e.Model, e.Provider)
	}
	return fmt.Sprintf("%s has no key: set %s", who, strings.Join(e.Vars, " or "))
}

// Is matches ErrNoKey, and sdk.ErrNoModelKey so the Host service tells a
// plugin that asked.
func (e *NoKeyError) Is(target error) bool { return target == ErrNoKey || target == sdk.ErrNoModelKey }

// maskedError is an error whose message went through the redactor. It
// keeps the sentinels of its cause (errors.Is) without handing out the
// cause itself, whose text may hold a key.
type maskedError struct {
	msg   string
	cause error
}

func (e *maskedError) Error() string { return e.msg }

// Is answers for the cause.
func (e *maskedError) Is(target error) bool { return errors.Is(e.cause, target) }
