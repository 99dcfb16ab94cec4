package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
)

// ErrCompile marks an expression that does not parse or type-check.
var ErrCompile = errors.New("the CEL expression does not compile")

// ErrNotBool marks an expression that yields something other than a bool.
var ErrNotBool = errors.New("the CEL expression must return a bool")

// compiles counts expression compilations in this process, so tests can
// check that the cache compiles each distinct expression once.
var compiles atomic.Int64

// program is a compiled expression. cel.Program is safe for concurrent
// use, so one program serves every item that uses the expression.
type program struct {
	expr string
	ast  *cel.Ast
	prg  cel.Program
}

// compileExpr parses, type-checks and plans expr. The errors wrap
// ErrCompile or ErrNotBool and carry positions as line:column (1-based).
func compileExpr(env *cel.Env, expr string) (*program, error) {
	compiles.Add(1)
	if strings.TrimSpace(expr) == "" {
		return nil, fmt.Errorf("%w: the expression is empty", ErrCompile)
	}
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return nil, fmt.Errorf("%w: %q: %s", ErrCompile, expr, describeIssues(iss.Errors()))
	}
	// value is dyn, so most expressions check as dyn or bool; one that is
	// known to produce something else (`value.size()`) is refused now
	// rather than on the first item.
	if out := ast.OutputType(); !out.IsExactType(cel.BoolType) && !out.IsExactType(cel.DynType) {
		return nil, fmt.Errorf("%w: %q returns %s", ErrNotBool, expr, out)
	}
	prg, err := env.Program(ast, programOptions()...)
	if err != nil {
		return nil, fmt.Errorf("%w: %q: %w", ErrCompile, expr, err)
	}
	return &program{expr: expr, ast: ast, prg: prg}, nil
}

// describeIssues renders compiler errors on one line each, joined by "; ",
// as "line:column: message".
func describeIssues(errs []*common.Error) string {
	parts := make([]string, 0, len(errs))
	for _, e := range errs {
		parts = append(parts, fmt.Sprintf("%s: %s", position(e.Location), e.Message))
	}
	return strings.Join(parts, "; ")
}

// position renders a location as line:column with a 1-based column (CEL
// counts columns from 0).
func position(l common.Location) string {
	return fmt.Sprintf("%d:%d", l.Line(), l.Column()+1)
}

// maxCachedPrograms bounds the cache; expressions beyond it are compiled on
// every use.
const maxCachedPrograms = 512

// programCache keeps compiled expressions by their text. Concurrent first
// uses of one expression wait for a single compilation, and an expression
// that fails to compile is remembered with its error.
type programCache struct {
	env *cel.Env

	mu      sync.Mutex
	entries map[string]*cacheEntry
}

// cacheEntry is one expression, compiled at most once.
type cacheEntry struct {
	once sync.Once
	p    *program
	err  error
}

// newProgramCache returns an empty cache compiling in env.
func newProgramCache(env *cel.Env) *programCache {
	return &programCache{env: env, entries: make(map[string]*cacheEntry)}
}

// get returns the compiled program for expr.
func (pc *programCache) get(expr string) (*program, error) {
	pc.mu.Lock()
	e, ok := pc.entries[expr]
	if !ok {
		e = &cacheEntry{}
		if len(pc.entries) < maxCachedPrograms {
			pc.entries[expr] = e
		}
	}
	pc.mu.Unlock()
	e.once.Do(func() { e.p, e.err = compileExpr(pc.env, expr) })
	return e.p, e.err
}
