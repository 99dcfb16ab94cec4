package plugin

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptest/mcptest/internal/timeline"
	"github.com/mcptest/mcptest/sdk"
	"github.com/mcptest/mcptest/sdk/pluginrpc"
	"github.com/mcptest/mcptest/sdk/pluginrpc/hostrpc"
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

	// life bounds plugin starts; Close cancels it. Starts do not run under
	// the context of the caller that happened to need the plugin first, so
	// a caller giving up does not leave the plugin failed for the others.
	life context.Context
	stop context.CancelFunc

	mu     sync.Mutex
	procs  map[string]*proc
	closed bool

	// oversized lets one batch at a time carry an item over the batch
	// byte limit (a huge response under test), so such items are not
	// encoded side by side, each as large as the response.
	oversized chan struct{}

	// vetting remembers verdicts on matcher arguments across runs
	// (vetcache.go); identities holds, per plugin, the verified identity
	// its verdicts are keyed by ("" when it has none), and vetLookups
	// counts the lookups made (maxVetLookups).
	vetting    *vetCache
	identities map[*Found]string
	vetLookups int

	// reflexive holds the arguments of reflexive keys vetted valid, so
	// an assertion passing by identity is recorded without starting its
	// plugin (reflexive.go).
	reflexive reflexiveArgs
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
	life, stop := context.WithCancel(context.Background())
	return &Host{launcher: launcher, opts: opts, life: life, stop: stop, procs: map[string]*proc{}, oversized: make(chan struct{}, 1),
		vetting: sharedVetting}
}

// proc is one plugin for the whole run: its current process (an
// incarnation) and what befell the earlier ones.
type proc struct {
	found *Found
	// sem bounds concurrent calls into the plugin.
	sem chan struct{}

	mu sync.Mutex
	// cur is the running incarnation; nil before the first start and
	// after one was stopped for a hang.
	cur *incarnation
	// last is the most recent incarnation, running or not.
	last *incarnation
	// starting is closed when the start in progress ends.
	starting chan struct{}
	// startErr is a start that failed for the plugin's own reasons; it
	// stands for the rest of the run.
	startErr error
	// restarts counts starts after a hang.
	restarts int
	// dead is a failure that stands for the rest of the run: a crash, or
	// a hang with no restart left.
	dead   *PluginError
	closed bool
}

// incarnation is one process of a plugin and its clients.
type incarnation struct {
	inst Instance
	desc sdk.Description

	info     *hostrpc.InfoClient
	matcher  *hostrpc.MatcherClient
	reporter *hostrpc.ReporterClient
	provider *hostrpc.ProviderClient
	scorer   *hostrpc.ScorerClient

	// stopped is set when the host kills this process because a call hung;
	// calls that fail on it then are collateral, not crashes.
	stopped atomic.Bool
}

// Start launches the given plugins in parallel and returns every start
// error, joined in the order given. Plugins already started are left alone.
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

// proc returns f's record, creating it on first use.
func (h *Host) proc(f *Found) (*proc, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errHostClosed
	}
	p, ok := h.procs[f.Manifest.Name]
	if !ok {
		p = &proc{found: f, sem: make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))}
		h.procs[f.Manifest.Name] = p
	}
	return p, nil
}

var errHostClosed = errors.New("plugin host is closed")

// get returns f's running incarnation, starting the plugin on first use
// and once more after a hang. If ctx ends first, get returns its error and
// the start goes on for the next caller.
func (h *Host) get(ctx context.Context, f *Found) (*incarnation, error) {
	p, err := h.proc(f)
	if err != nil {
		return nil, err
	}
	for {
		p.mu.Lock()
		switch {
		case p.dead != nil:
			dead := p.dead
			p.mu.Unlock()
			return nil, dead
		case p.startErr != nil:
			err := p.startErr
			p.mu.Unlock()
			return nil, err
		case p.cur != nil:
			inc := p.cur
			p.mu.Unlock()
			return inc, nil
		case p.closed:
			p.mu.Unlock()
			return nil, errHostClosed
		case p.starting == nil:
			h.beginStartLocked(p)
		}
		wait := p.starting
		p.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for plugin %s to start: %w", f.Label(), ctx.Err())
		}
	}
}

// beginStartLocked starts p in the background; p.mu is held and no start
// is in progress.
func (h *Host) beginStartLocked(p *proc) {
	if p.last != nil {
		p.restarts++
	}
	p.starting = make(chan struct{})
	// From now on the plugin judges every assertion (reflexive.go).
	h.reflexive.retire(p.found)
	go h.startAsync(p, p.starting)
}

// Prestart begins starting the given plugins, in parallel, and returns at
// once: the first call that needs one waits for its start, and a start
// that fails is that call's error (a plugin error, as for any start).
// Plugins started (even once), starting or failed are left alone, and so
// is a plugin the run may never need: every argument it was vetted is one
// of its reflexive keys' (reflexive.go), so it starts only if an
// assertion is not passed by identity. The run uses Prestart for the
// matcher plugins whose every argument was vetted before (vetcache.go),
// so they start beside the servers rather than before.
func (h *Host) Prestart(plugins []*Found) {
	for _, f := range plugins {
		if h.reflexive.spareable(f) {
			continue
		}
		p, err := h.proc(f)
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.last == nil && p.starting == nil && p.startErr == nil && p.dead == nil && !p.closed {
			h.beginStartLocked(p)
		}
		p.mu.Unlock()
	}
}

// startAsync starts p under the host's own lifetime and publishes the
// outcome.
func (h *Host) startAsync(p *proc, done chan struct{}) {
	inc, err := h.start(h.life, p.found)
	p.mu.Lock()
	p.starting = nil
	closed := p.closed
	switch {
	case err != nil:
		p.startErr = err
	case !closed:
		p.cur, p.last = inc, inc
	}
	p.mu.Unlock()
	if err == nil && closed {
		// Close came while the plugin was starting, and waits on done:
		// stop the process before saying the start is over.
		inc.inst.Kill()
	}
	close(done)
}

func (h *Host) start(ctx context.Context, f *Found) (*incarnation, error) {
	timeline.MarkOf("plugin-launch", f.Manifest.Name)
	inst, err := h.launcher.Launch(ctx, f)
	if err != nil {
		var pe *PluginError
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, newPluginError(f, fmt.Errorf("%w: %w", ErrPluginStart, err), "")
	}
	inc := &incarnation{inst: inst}
	fail := func(err error) (*incarnation, error) {
		tail := inst.StderrTail(10)
		inst.Kill()
		return nil, newPluginError(f, err, tail)
	}
	raw, err := inst.Dispense(pluginrpc.KindInfo)
	if err != nil {
		return fail(fmt.Errorf("%w: dispense info: %w", ErrPluginStart, err))
	}
	inc.info = raw.(*hostrpc.InfoClient)
	cctx, cancel := context.WithTimeout(ctx, h.opts.CallTimeout)
	defer cancel()
	// Describe and Configure go out together, so a start waits for one
	// round trip to the plugin instead of two: what Configure offers is
	// chosen from the manifest, which describes the same binary (its
	// sha256 was checked) and which Describe's answer is compared with.
	services := h.servicesFor(f.Manifest.Capabilities, f.Manifest.Components)
	configured := make(chan error, 1)
	go func() { configured <- inc.info.Configure(cctx, services, h.opts.RunJSON) }()
	desc, err := inc.info.Describe(cctx)
	cerr := <-configured
	if err != nil {
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return fail(fmt.Errorf("%w: no answer to describe within %s (%s): %w", ErrPluginStart, h.opts.CallTimeout, TimeoutFlag, err))
		}
		return fail(fmt.Errorf("%w: describe: %w", ErrPluginStart, err))
	}
	if diff := describeDiff(desc, f.Manifest); diff != "" {
		return fail(fmt.Errorf("%w: %s (manifest %s); reinstall it with `mcptest plugins install`",
			ErrDescribeMismatch, diff, f.ManifestPath))
	}
	inc.desc = desc
	timeline.MarkOf("plugin-described", f.Manifest.Name)
	if want := h.servicesFor(desc.Capabilities, desc.Components); cerr == nil && (want == nil) != (services == nil) {
		// The manifest lags behind its binary on capabilities (one
		// written by hand): the binary's own word decides, at the cost
		// of a second round trip.
		cerr = inc.info.Configure(cctx, want, h.opts.RunJSON)
	}
	if cerr != nil {
		return fail(fmt.Errorf("%w: configure: %w", ErrPluginStart, cerr))
	}
	for _, c := range desc.Components {
		raw, err := inst.Dispense(c.Kind)
		if err != nil {
			return fail(fmt.Errorf("%w: dispense %s: %w", ErrPluginStart, c.Kind, err))
		}
		switch cl := raw.(type) {
		case *hostrpc.MatcherClient:
			// Plugins built with a recent SDK read packed batches, which
			// cost far less to encode and decode than one message per item.
			cl.UsePacked(desc.ProtocolMinor >= pluginrpc.PackedMinor)
			inc.matcher = cl
		case *hostrpc.ReporterClient:
			inc.reporter = cl
		case *hostrpc.ProviderClient:
			inc.provider = cl
		case *hostrpc.ScorerClient:
			inc.scorer = cl
		}
	}
	return inc, nil
}

func (p *proc) deadErr() *PluginError {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dead
}

// Description returns what a started plugin said about itself.
func (h *Host) Description(ctx context.Context, f *Found) (sdk.Description, error) {
	inc, err := h.get(ctx, f)
	if err != nil {
		return sdk.Description{}, err
	}
	return inc.desc, nil
}

// Close stops every plugin in parallel and waits for them to exit, and
// for starts in progress to end first.
func (h *Host) Close() {
	h.mu.Lock()
	h.closed = true
	procs := make([]*proc, 0, len(h.procs))
	for _, p := range h.procs {
		procs = append(procs, p)
	}
	h.mu.Unlock()
	h.stop()
	var wg sync.WaitGroup
	// What vetting learnt is saved while the plugins stop.
	if h.vetting != nil {
		wg.Go(h.vetting.save)
	}
	for _, p := range procs {
		p.mu.Lock()
		p.closed = true
		wait := p.starting
		p.mu.Unlock()
		if wait != nil {
			<-wait
		}
		p.mu.Lock()
		inc := p.cur
		p.cur = nil
		p.mu.Unlock()
		if inc == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			inc.inst.Kill()
		}()
	}
	wg.Wait()
}
