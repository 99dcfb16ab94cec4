package plugin

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/mcptest/mcptest/sdk"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// HostOptions tune a Host.
type HostOptions struct {
	// CallTimeout bounds every call to a plugin; a plugin that does not
	// answer in time is killed and its items errored. 0 means 60 s.
	CallTimeout time.Duration
	// Services is offered to plugins for model calls; nil offers none.
	Services sdk.Host
	// RunJSON is run-wide context handed to every plugin by Configure.
	RunJSON []byte
	// MaxBatchItems and MaxBatchBytes bound one matcher call; 0 means
	// 1,000 items and 4 MiB.
	MaxBatchItems int
	MaxBatchBytes int
}

// Host runs the plugins of one run: one process per plugin, started on
// first use (or up front with Start), shared by all of its kinds and keys.
type Host struct {
	launcher Launcher
	opts     HostOptions

	mu     sync.Mutex
	procs  map[string]*proc
	closed bool

	// oversized lets one batch at a time carry an item over the batch
	// byte limit (a huge response under test), so such items are not
	// encoded side by side, each as large as the response.
	oversized chan struct{}
}

// NewHost returns a host that starts plugins with launcher.
func NewHost(launcher Launcher, opts HostOptions) *Host {
	if opts.CallTimeout == 0 {
		opts.CallTimeout = 60 * time.Second
	}
	if opts.MaxBatchItems == 0 {
		opts.MaxBatchItems = 1000
	}
	if opts.MaxBatchBytes == 0 {
		opts.MaxBatchBytes = 4 << 20
	}
	return &Host{launcher: launcher, opts: opts, procs: map[string]*proc{}, oversized: make(chan struct{}, 1)}
}

// proc is one plugin process and its clients.
type proc struct {
	found *Found
	once  sync.Once
	err   error // start error
	inst  Instance
	desc  sdk.Description

	info     *sdk.InfoClient
	matcher  *sdk.MatcherClient
	reporter *sdk.ReporterClient
	provider *sdk.ProviderClient
	scorer   *sdk.ScorerClient

	// sem bounds concurrent calls into the plugin.
	sem chan struct{}

	deadMu sync.Mutex
	dead   *PluginError
}

// Start launches the given plugins in parallel and returns every start
// error, joined. Plugins already started are left alone.
func (h *Host) Start(ctx context.Context, plugins []*Found) error {
	errs := make([]error, len(plugins))
	var wg sync.WaitGroup
	for i, f := range plugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = h.get(ctx, f)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// get returns f's process, starting it on first use.
func (h *Host) get(ctx context.Context, f *Found) (*proc, error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, fmt.Errorf("plugin host is closed")
	}
	p, ok := h.procs[f.Manifest.Name]
	if !ok {
		p = &proc{found: f, sem: make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))}
		h.procs[f.Manifest.Name] = p
	}
	h.mu.Unlock()
	p.once.Do(func() { p.err = h.start(ctx, p) })
	if p.err != nil {
		return nil, p.err
	}
	if d := p.deadErr(); d != nil {
		return nil, d
	}
	return p, nil
}

func (h *Host) start(ctx context.Context, p *proc) error {
	f := p.found
	inst, err := h.launcher.Launch(ctx, f)
	if err != nil {
		var pe *PluginError
		if errors.As(err, &pe) {
			return err
		}
		return newPluginError(f, fmt.Errorf("%w: %w", ErrPluginStart, err), "")
	}
	p.inst = inst
	fail := func(err error) error {
		tail := inst.StderrTail(10)
		inst.Kill()
		return newPluginError(f, err, tail)
	}
	raw, err := inst.Dispense(sdk.KindInfo)
	if err != nil {
		return fail(fmt.Errorf("%w: dispense info: %w", ErrPluginStart, err))
	}
	p.info = raw.(*sdk.InfoClient)
	cctx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
	defer cancel()
	desc, err := p.info.Describe(cctx)
	if err != nil {
		return fail(fmt.Errorf("%w: describe: %w", ErrPluginStart, err))
	}
	if desc.Name != f.Manifest.Name || desc.Version != f.Manifest.Version || !sameComponents(desc.Components, f.Manifest.Components) {
		return fail(fmt.Errorf("%w: the binary says it is %s@%s serving %v, the manifest %s says %s@%s serving %v; reinstall it with `mcptest plugins install`",
			ErrDescribeMismatch, desc.Name, desc.Version, desc.Components, f.ManifestPath, f.Manifest.Name, f.Manifest.Version, f.Manifest.Components))
	}
	p.desc = desc
	if err := p.info.Configure(cctx, h.opts.Services, h.opts.RunJSON); err != nil {
		return fail(fmt.Errorf("%w: configure: %w", ErrPluginStart, err))
	}
	for _, c := range desc.Components {
		raw, err := inst.Dispense(c.Kind)
		if err != nil {
			return fail(fmt.Errorf("%w: dispense %s: %w", ErrPluginStart, c.Kind, err))
		}
		switch cl := raw.(type) {
		case *sdk.MatcherClient:
			// Plugins built with a recent SDK read packed batches, which
			// cost far less to encode and decode than one message per item.
			cl.UsePacked(desc.ProtocolMinor >= sdk.PackedMinor)
			p.matcher = cl
		case *sdk.ReporterClient:
			p.reporter = cl
		case *sdk.ProviderClient:
			p.provider = cl
		case *sdk.ScorerClient:
			p.scorer = cl
		}
	}
	return nil
}

func (p *proc) deadErr() *PluginError {
	p.deadMu.Lock()
	defer p.deadMu.Unlock()
	return p.dead
}

// callFailed classifies an error of a call into p: a crash or a hang marks
// the plugin dead (and a hung one is killed) so its remaining work fails
// fast; other errors are returned as they are.
func (h *Host) callFailed(p *proc, callCtx context.Context, err error) error {
	if d := p.deadErr(); d != nil {
		return d
	}
	var reason error
	// gRPC's own deadline timer can fire a moment before the context's, so
	// the status code counts as much as the context.
	timedOut := errors.Is(callCtx.Err(), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
	switch {
	case timedOut && !p.inst.Exited():
		reason = fmt.Errorf("%w: no answer within %s; the plugin was stopped", ErrPluginHung, h.opts.CallTimeout)
		p.inst.Kill()
	case errors.Is(err, sdk.ErrPluginExited) || p.inst.Exited():
		// Give go-plugin a moment to notice the exit and drain stderr, so
		// the tail holds the panic or the last words.
		for i := 0; i < 20 && !p.inst.Exited(); i++ {
			time.Sleep(10 * time.Millisecond)
		}
		reason = fmt.Errorf("%w: the plugin process exited during the run: %v", ErrPluginCrashed, err)
	default:
		return newPluginError(p.found, err, "")
	}
	time.Sleep(20 * time.Millisecond)
	pe := newPluginError(p.found, reason, p.inst.StderrTail(10))
	p.deadMu.Lock()
	if p.dead == nil {
		p.dead = pe
	}
	pe = p.dead
	p.deadMu.Unlock()
	return pe
}

// Description returns what a started plugin said about itself.
func (h *Host) Description(ctx context.Context, f *Found) (sdk.Description, error) {
	p, err := h.get(ctx, f)
	if err != nil {
		return sdk.Description{}, err
	}
	return p.desc, nil
}

// Reporter returns the reporter client of f, starting it if needed.
func (h *Host) Reporter(ctx context.Context, f *Found) (*sdk.ReporterClient, error) {
	p, err := h.get(ctx, f)
	if err != nil {
		return nil, err
	}
	if p.reporter == nil {
		return nil, newPluginError(f, errors.New("serves no reporters"), "")
	}
	return p.reporter, nil
}

// ReporterFailed classifies an error a reporter stream returned, the same
// way matcher calls are classified.
func (h *Host) ReporterFailed(ctx context.Context, f *Found, err error) error {
	p, gerr := h.get(ctx, f)
	if gerr != nil {
		return gerr
	}
	return h.callFailed(p, ctx, err)
}

// Close stops every plugin in parallel and waits for them to exit.
func (h *Host) Close() {
	h.mu.Lock()
	h.closed = true
	procs := make([]*proc, 0, len(h.procs))
	for _, p := range h.procs {
		procs = append(procs, p)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		// Waits for a start in progress; marks one never begun as closed.
		p.once.Do(func() { p.err = fmt.Errorf("plugin host is closed") })
		if p.inst == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.inst.Kill()
		}()
	}
	wg.Wait()
}
