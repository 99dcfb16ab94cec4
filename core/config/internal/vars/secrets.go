package vars

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mcptest/mcptest/internal/redact"
)

// ProviderKeyEnvs are the environment variables that hold the keys of the
// model provider families mcptest detects from model names. Their values
// are always treated as secrets.
var ProviderKeyEnvs = []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY"}

// ErrShortSecret is the condition of a secret too short to mask: masking
// a value of one to three bytes would shred the text around it.
var ErrShortSecret = errors.New("secret too short to mask")

// ShortSecretError names the variable whose value is too short, and its
// length (never the value). It matches ErrShortSecret with errors.Is.
type ShortSecretError struct {
	Name string
	Len  int
}

// Error says which variable, how long it is and what the minimum is.
func (e *ShortSecretError) Error() string {
	return fmt.Sprintf("the secret in $%s is %d byte(s) long; secrets must be at least %d bytes, or they could not be masked in reports",
		e.Name, e.Len, redact.MinLen)
}

// Is reports whether target is ErrShortSecret.
func (e *ShortSecretError) Is(target error) bool { return target == ErrShortSecret }

// Secrets collects the values of the credentials a suite reads from the
// environment, for redaction. Names never enter it, only values; unset
// and empty variables contribute nothing.
type Secrets struct {
	lookup func(string) (string, bool)
	set    map[string]bool
}

// NewSecrets returns an empty collection that reads variables through
// lookup (the environment first, then the dotenv files).
func NewSecrets(lookup func(string) (string, bool)) *Secrets {
	return &Secrets{lookup: lookup, set: map[string]bool{}}
}

// Add records the value of the variable name. A value shorter than
// redact.MinLen is not recorded and Add returns a *ShortSecretError; the
// caller decides whether that is an error (a variable the suite names) or
// not (a provider variable mcptest only detects).
func (c *Secrets) Add(name string) error {
	if name == "" {
		return nil
	}
	v, ok := c.lookup(name)
	if !ok || v == "" {
		return nil
	}
	if len(v) < redact.MinLen {
		return &ShortSecretError{Name: name, Len: len(v)}
	}
	c.set[v] = true
	return nil
}

// Values returns the recorded values, sorted, each once.
func (c *Secrets) Values() []string {
	out := make([]string, 0, len(c.set))
	for v := range c.set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}
