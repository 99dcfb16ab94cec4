package scorer

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/mcptest/mcptest/core/config"
	"github.com/mcptest/mcptest/core/plugin"
	"github.com/mcptest/mcptest/internal/redact"
	"github.com/mcptest/mcptest/sdk"
)

// Sentinel errors callers test with errors.Is.
var (
	// ErrUnknownScorer: no entry of the scorers: block has the name.
	ErrUnknownScorer = errors.New("unknown scorer")
	// ErrTypeUnavailable: no plugin serves the scorer's type.
	ErrTypeUnavailable = errors.New("scorer type not available")
	// ErrBadVerdict: the scorer answered, but not with a verdict the
	// envelope allows (no verdict, a score outside 0..1, a negative cost).
	ErrBadVerdict = errors.New("invalid scorer verdict")
)

// Scorer is one entry of a suite's scorers: block, bound to the plugin
// serving its type. It is safe for concurrent use.
type Scorer struct {
	// Config is the scorers: entry.
	Config *config.Scorer
	// Plugin serves Config.Type.
	Plugin *plugin.Found

	// config is the entry as the plugin receives it.
	config []byte
	// redactor masks the suite's secrets and the scorer's own
	// credentials in what the scorer says.
	redactor *redact.Redactor
}

// Name is the scorer's name in the suite.
func (s *Scorer) Name() string { return s.Config.Name }

// Timeout is the per-call timeout (timeout_ms).
func (s *Scorer) Timeout() time.Duration {
	ms := s.Config.TimeoutMS
	if ms <= 0 {
		ms = config.DefaultScorerTimeoutMS
	}
	return time.Duration(ms) * time.Millisecond
}

// Resolve finds the scorers: entry called name in suite and the plugin of
// reg serving its type, from manifests alone (nothing is started). An
// unknown name wraps ErrUnknownScorer; a type no plugin serves wraps
// ErrTypeUnavailable. Both are *config.Error values located at the entry
// (or, for an unknown name, the suite file).
func Resolve(reg *plugin.Registry, suite *config.Suite, name string) (*Scorer, error) {
	for _, c := range suite.Scorers {
		if c.Name == name {
			return resolveEntry(reg, suite, c)
		}
	}
	return nil, &config.Error{File: suite.File, Pointer: "/scorers",
		Msg: fmt.Sprintf("unknown scorer %q", name), Hint: "declare it under scorers:", Cause: ErrUnknownScorer}
}

// ResolveUsed resolves every scorer the suite's evals name, once each, by
// name. Every failure is returned, joined, so a suite with two bad scorers
// shows both before anything starts.
func ResolveUsed(reg *plugin.Registry, suite *config.Suite) (map[string]*Scorer, error) {
	out := map[string]*Scorer{}
	tried := map[string]bool{}
	var errs []error
	for _, ev := range suite.Evals {
		if ev.Scorer == "" || tried[ev.Scorer] {
			continue
		}
		tried[ev.Scorer] = true
		s, err := Resolve(reg, suite, ev.Scorer)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[ev.Scorer] = s
	}
	return out, errors.Join(errs...)
}

// resolveEntry binds one scorers: entry to its plugin.
func resolveEntry(reg *plugin.Registry, suite *config.Suite, c *config.Scorer) (*Scorer, error) {
	at := func(msg, hint string, cause error) error {
		p := c.TypePos
		if p.Line == 0 {
			p = c.Pos
		}
		return &config.Error{File: p.File, Line: p.Line, Col: p.Col, Pointer: p.Pointer,
			Msg: msg, Hint: hint, Cause: cause}
	}
	f, err := reg.Resolve(sdk.KindScorer, c.Type)
	switch {
	case errors.Is(err, plugin.ErrUnknownKey):
		hint := "install a plugin that serves it (mcptest plugins install), or use type: exec"
		if keys := reg.Keys(sdk.KindScorer); len(keys) > 0 {
			hint = fmt.Sprintf("available scorer types: %v; %s", keys, hint)
		}
		return nil, at(fmt.Sprintf("scorer type '%s' not available in this build", c.Type), hint,
			fmt.Errorf("%w: %w", ErrTypeUnavailable, err))
	case err != nil:
		return nil, at(fmt.Sprintf("scorer type '%s': %v", c.Type, err), "", err)
	}
	raw, err := wireConfig(c)
	if err != nil {
		return nil, at(fmt.Sprintf("scorer %q: %v", c.Name, err), "", err)
	}
	return &Scorer{Config: c, Plugin: f, config: raw, redactor: redactorFor(suite, c)}, nil
}

// wireConfig is the entry as the plugin receives it: the fields of the
// scorers: block, with cwd made absolute so the plugin's own working
// directory never matters.
func wireConfig(c *config.Scorer) ([]byte, error) {
	cwd := c.Cwd
	if cwd != "" && !filepath.IsAbs(cwd) {
		abs, err := filepath.Abs(cwd)
		if err != nil {
			return nil, fmt.Errorf("cwd %q: %w", cwd, err)
		}
		cwd = abs
	}
	return json.Marshal(struct {
		Name      string            `json:"name"`
		Type      string            `json:"type"`
		Command   []string          `json:"command,omitempty"`
		Env       map[string]string `json:"env,omitempty"`
		Cwd       string            `json:"cwd,omitempty"`
		TimeoutMS int               `json:"timeout_ms"`
	}{c.Name, c.Type, c.Command, c.Env, cwd, c.TimeoutMS})
}

// redactorFor masks the suite's secrets (which include the scorers'
// credential-like env values, see config) in what a scorer says.
func redactorFor(suite *config.Suite, c *config.Scorer) *redact.Redactor {
	r := redact.New(suite.Secrets...)
	for _, v := range config.ScorerSecrets(c) {
		r.Add(v)
	}
	return r
}
