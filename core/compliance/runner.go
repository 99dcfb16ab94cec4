package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/probe"
	"github.com/mcptest/mcptest/internal/redact"
	rpt "github.com/mcptest/mcptest/sdk/report"
)

// Options tune a compliance run.
type Options struct {
	// Revision is the protocol revision to speak; "" means the newest
	// legacy revision. The server may answer initialize with another one;
	// the run then speaks that and says so.
	Revision string
	// Timeout bounds every single wait; 0 means 5 s.
	Timeout time.Duration
	// CheckTimeout bounds one whole check; 0 means 60 s.
	CheckTimeout time.Duration
	// Jobs is how many checks run at once, 0 meaning 4: over stdio each
	// has a process of its own; over HTTP only checks that send nothing
	// a client would not overlap, and the others run alone, so a server
	// that stops answering is charged to the check that stopped it.
	Jobs int
	// Only runs just these check ids (the others are left out of the
	// report); nil runs every check.
	Only []string
	// NoToolCalls stops checks that call the server's tools (T04, T05,
	// T07, U03); they are then not applicable. Checks only ever call tools
	// annotated read-only and not destructive.
	NoToolCalls bool
	// ClientVersion is the clientInfo version sent.
	ClientVersion string
	// Redact masks secrets (--header values, the --bearer-env token) in
	// the frames kept as evidence, before they are cut to size; nil masks
	// nothing.
	Redact *redact.Redactor
	// OnStart and OnResult, when set, are called as each check starts and
	// finishes, one call at a time.
	OnStart  func(*Check)
	OnResult func(*Result)

	// pool holds the run's idle stdio sessions for reuse.
	pool *sessionPool
	// reaper stops closed stdio servers off the checks' time.
	reaper *reaper
	// hellos holds what discovery's fresh stdio server answered to
	// initialize, for the handshake checks.
	hellos *greetings
	// slow is what T05 learned about slow tools, for U03 (nil unless
	// both run; see slowTools).
	slow *slowTools
	// selected are the ids of the checks the run runs.
	selected []string
}

// Result is the outcome of one check.
type Result struct {
	Check  *Check
	Status Status
	// Message is a one-line summary: the first failure, or why the check
	// did not apply or could not run.
	Message  string
	Findings []Finding
	// Frames are the messages sent and received, as evidence.
	Frames []rpt.Frame
	// Stderr is the tail of the server's stderr (stdio).
	Stderr   string
	Duration time.Duration
	// Revision is the revision the check was judged against.
	Revision string
	// Known is set when a baseline lists this check as a known failure
	// and it failed; KnownReason is the baseline's note.
	Known       bool
	KnownReason string
	// Stale is set when a baseline lists this check but it passed.
	Stale bool
}

// Report is the outcome of a run.
type Report struct {
	Target    Target
	Transport Transport
	// Revision is the revision the run spoke.
	Revision string
	// Requested is the revision asked for.
	Requested string
	Server    *ServerInfo
	// Err is set when the server could not be reached or initialised; every
	// check is then errored.
	Err      error
	Results  []*Result
	Started  time.Time
	Finished time.Time
}

func (o *Options) defaults() {
	if o.Revision == "" {
		o.Revision = probe.LatestLegacy
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.CheckTimeout <= 0 {
		o.CheckTimeout = 60 * time.Second
	}
	if o.Jobs <= 0 {
		o.Jobs = 4
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
}

// Selected returns the checks opts selects, in report order, or an error
// naming an unknown id.
func Selected(only []string) ([]*Check, error) {
	if len(only) == 0 {
		return All(), nil
	}
	var out []*Check
	for _, c := range All() {
		if slices.Contains(only, c.ID) {
			out = append(out, c)
		}
	}
	for _, id := range only {
		if _, ok := Lookup(id); !ok {
			return nil, fmt.Errorf("unknown compliance check %q", id)
		}
	}
	return out, nil
}

// Run runs the selected checks against the target. It always returns a
// report; a server that cannot be reached gives errored checks and Err.
func Run(ctx context.Context, t Target, opts Options) (*Report, error) {
	opts.defaults()
	if err := t.validate(); err != nil {
		return nil, err
	}
	checks, err := Selected(opts.Only)
	if err != nil {
		return nil, err
	}
	for _, c := range checks {
		opts.selected = append(opts.selected, c.ID)
	}
	if slices.Contains(opts.selected, "T05") && slices.Contains(opts.selected, "U03") {
		opts.slow = newSlowTools()
		// However T05 ends (not applicable, errored, interrupted), U03
		// waits no longer than the run.
		defer opts.slow.finish()
	}
	rep := &Report{Target: t, Transport: t.Transport(), Requested: opts.Revision, Revision: opts.Revision, Started: time.Now()}
	if rep.Transport == Stdio {
		opts.pool, opts.hellos, opts.reaper = &sessionPool{}, &greetings{}, &reaper{}
		// Deferred calls run last first: the pool closes its idle
		// servers, then the run waits until every server has stopped.
		defer opts.reaper.wait()
		defer opts.pool.close()
	}
	info, discErr := discover(ctx, t, &opts)
	rep.Server = info
	if info != nil && info.ProtocolVersion != "" {
		rep.Revision = info.ProtocolVersion
	}
	var mu sync.Mutex
	started := func(c *Check) {
		if opts.OnStart != nil {
			mu.Lock()
			opts.OnStart(c)
			mu.Unlock()
		}
	}
	rep.Results = make([]*Result, len(checks))
	// Results are handed to OnResult in report order, whatever order the
	// checks finish in, so streamed output reads like the final report.
	next := 0
	finish := func(i int, r *Result) {
		mu.Lock()
		defer mu.Unlock()
		rep.Results[i] = r
		for next < len(rep.Results) && rep.Results[next] != nil {
			if opts.OnResult != nil {
				opts.OnResult(rep.Results[next])
			}
			next++
		}
	}
	if discErr != nil {
		rep.Err = discErr
		for i, c := range checks {
			started(c)
			finish(i, &Result{Check: c, Status: Errored, Revision: rep.Revision,
				Message: "the server could not be initialised: " + discErr.Error()})
		}
		rep.Finished = time.Now()
		return rep, nil
	}
	sem := make(chan struct{}, opts.Jobs)
	var gate httpGate
	var wg sync.WaitGroup
	var downMu sync.Mutex
	down := "" // the check after which an HTTP server stopped answering
	for _, i := range startOrder(checks, rep.Transport) {
		c := checks[i]
		if ctx.Err() != nil {
			finish(i, &Result{Check: c, Status: Errored, Revision: rep.Revision, Message: "the run was interrupted before this check"})
			continue
		}
		sem <- struct{}{}
		// The gate is entered here, in report order, so a check that must
		// run alone starts after every earlier check ended and before any
		// later one starts.
		leave := gate.enter(c, rep.Transport)
		wg.Add(1)
		go func() {
			defer func() { leave(); <-sem; wg.Done() }()
			started(c)
			downMu.Lock()
			after := down
			downMu.Unlock()
			var r *Result
			if after != "" {
				r = &Result{Check: c, Status: Errored, Revision: rep.Revision,
					Message: "the server stopped answering after check " + after}
			} else {
				r = runOne(ctx, c, t, rep, &opts)
				if rep.Transport == HTTP && r.Status != NotApplicable && !alive(ctx, t, &opts) {
					r.Findings = append(r.Findings, Finding{Name: "server still answering after the check", Status: Fail, Must: true,
						Note: "the server stopped answering HTTP requests during this check"})
					r.Status, r.Message = Fail, "the server stopped answering HTTP requests during this check"
					downMu.Lock()
					down = c.ID
					downMu.Unlock()
				}
			}
			finish(i, r)
		}()
	}
	wg.Wait()
	rep.Finished = time.Now()
	return rep, nil
}

// runOne runs one check on its own sessions and judges it.
func runOne(ctx context.Context, c *Check, t Target, rep *Report, opts *Options) *Result {
	start := time.Now()
	res := &Result{Check: c, Revision: rep.Revision}
	defer func() { res.Duration = time.Since(start) }()
	if why := c.applies(rep.Revision, rep.Transport); why != "" {
		res.Status, res.Message = NotApplicable, why
		return res
	}
	if why := c.needs(declaredSet(rep.Server)); why != "" {
		res.Status, res.Message = NotApplicable, why
		return res
	}
	if c.ID == "T05" {
		defer opts.slow.finish()
	}
	role := processRoles[c.ID]
	e := &Env{Revision: rep.Revision, Transport: rep.Transport, Info: rep.Server, target: t, opts: opts, rec: newRecorder(opts.Redact),
		take: role.takes(), brief: role.takes() && !slowStarters[c.ID], fresh: role == roleFresh, prio: role.prio(c.ID)}
	cctx, cancel := context.WithTimeout(ctx, opts.CheckTimeout)
	err := runGuarded(cctx, c, e)
	cancel()
	e.handOn = role.handsOn(err == nil && !hasFailure(e.findings), e.leftUnchanged())
	crash, stderr := e.closeAll()
	res.Frames = e.rec.list()
	res.Stderr = stderr
	res.Findings = e.findings
	if crash != "" {
		res.Findings = append(res.Findings, Finding{Name: "server still running after the check", Status: Fail, Must: true,
			Expected: "the server keeps running", Actual: crash,
			Note: "the server process exited while this check ran"})
	}
	if why, ok := asNotApplicable(err); ok && len(res.Findings) == 0 {
		res.Status, res.Message = NotApplicable, why
		return res
	}
	if err != nil && !isNA(err) && !hasFailure(res.Findings) {
		res.Status, res.Message = Errored, err.Error()
		if crash != "" {
			res.Status, res.Message = Fail, "the server exited during the check ("+crash+")"
		}
		return res
	}
	res.Status, res.Message = judge(c, res.Findings)
	if err != nil && !isNA(err) && res.Message == "" {
		res.Message = err.Error()
	}
	return res
}

func isNA(err error) bool { _, ok := asNotApplicable(err); return ok }

// runGuarded runs the check, turning a panic in check code into an error
// so one broken check cannot end the run.
func runGuarded(ctx context.Context, c *Check, e *Env) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("check %s panicked: %v", c.ID, p)
		}
	}()
	return c.run(ctx, e)
}

func hasFailure(fs []Finding) bool {
	for _, f := range fs {
		if f.Status == Fail || f.Status == Warn {
			return true
		}
	}
	return false
}

// judge turns findings into a status: any failure fails (a warning for a
// SHOULD check); otherwise any warning warns; otherwise it passes. Not
// applicable findings count for nothing, unless they are all there is.
func judge(c *Check, fs []Finding) (Status, string) {
	var firstFail, firstWarn, firstHard, firstNA *Finding
	judged := 0
	for i := range fs {
		if fs[i].Status == NotApplicable {
			if firstNA == nil {
				firstNA = &fs[i]
			}
			continue
		}
		judged++
		switch fs[i].Status {
		case Fail:
			if fs[i].Must && firstHard == nil {
				firstHard = &fs[i]
			}
			if firstFail == nil {
				firstFail = &fs[i]
			}
		case Warn:
			if firstWarn == nil {
				firstWarn = &fs[i]
			}
		}
	}
	switch {
	case firstHard != nil:
		return Fail, describe(firstHard)
	case firstFail != nil && c.Severity == Must:
		return Fail, describe(firstFail)
	case firstFail != nil:
		return Warn, describe(firstFail)
	case firstWarn != nil:
		return Warn, describe(firstWarn)
	case judged == 0 && firstNA != nil:
		// Everything probed was set aside (a slow tool, say): the check
		// did not apply, and the first reason says why.
		return NotApplicable, describe(firstNA)
	case judged == 0:
		return Errored, "the check recorded no findings"
	}
	return Pass, ""
}

func describe(f *Finding) string {
	s := f.Name
	if f.Note != "" {
		s += ": " + f.Note
	}
	return s
}

func declaredSet(info *ServerInfo) map[string]bool {
	out := map[string]bool{}
	if info == nil {
		return out
	}
	for k := range info.Capabilities {
		out[k] = info.Declares(Capability(k))
	}
	return out
}

// discover learns what the server declares, on a session of its own:
// initialize on the legacy era, server/discover on the modern one.
func discover(ctx context.Context, t Target, opts *Options) (*ServerInfo, error) {
	e := &Env{Revision: opts.Revision, Transport: t.Transport(), target: t, opts: opts, rec: newRecorder(opts.Redact)}
	defer e.closeAll()
	s, err := e.open(ctx)
	if err != nil {
		return nil, err
	}
	{
		// These checks always start servers of their own: start them now.
		opts.pool.reserve(ctx, t, opts, freshStarts(opts))
	}
	var r *Reply
	if probe.IsModern(opts.Revision) {
		r, err = s.Call(ctx, "server/discover", nil)
	} else {
		r, err = s.Initialize(ctx, opts.Revision, false)
	}
	if err != nil {
		if st := s.stderr(); st != "" {
			err = fmt.Errorf("%w; server stderr:\n%s", err, tail(st, 20))
		}
		return nil, err
	}
	if r.Msg.Error != nil {
		return nil, fmt.Errorf("the server answered with an error: %s", r.Msg.Raw)
	}
	if !probe.IsModern(opts.Revision) {
		opts.hellos.put(opts.Revision, &greeting{reply: r, frames: e.rec.list()})
	}
	var res struct {
		ProtocolVersion   string                     `json:"protocolVersion"`
		SupportedVersions []string                   `json:"supportedVersions"`
		Capabilities      map[string]json.RawMessage `json:"capabilities"`
		ServerInfo        struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(r.Msg.Result, &res); err != nil {
		return nil, fmt.Errorf("the server's answer is not a result object: %w", err)
	}
	info := &ServerInfo{ProtocolVersion: res.ProtocolVersion, Name: res.ServerInfo.Name, Version: res.ServerInfo.Version,
		Capabilities: res.Capabilities, Result: r.Msg.Result}
	if probe.IsModern(opts.Revision) {
		info.ProtocolVersion = opts.Revision
		// A missing list is S01's to report; a list without the revision
		// means the run cannot speak it at all.
		if len(res.SupportedVersions) > 0 && !slices.Contains(res.SupportedVersions, opts.Revision) {
			return info, fmt.Errorf("the server does not list %s among its supported versions %v", opts.Revision, res.SupportedVersions)
		}
	}
	if info.ProtocolVersion == "" {
		info.ProtocolVersion = opts.Revision
	}
	if !probe.IsModern(opts.Revision) && info.ProtocolVersion == s.Revision() {
		// A complete legacy handshake: the first check that may reuse a
		// server takes this one over rather than start another, unless
		// C02 runs, which watches a server from its handshake on: it
		// gets this one as it is.
		s.mu.Lock()
		s.initialized = true
		s.mu.Unlock()
		if slices.Contains(opts.selected, "C02") && opts.pool.keepPristine(s) {
			e.forget(s)
		} else {
			e.handOn = true
		}
	}
	return info, nil
}

// alive reports whether an HTTP server still answers a fresh initialize
// with any HTTP response at all.
func alive(ctx context.Context, t Target, opts *Options) bool {
	e := &Env{Revision: opts.Revision, Transport: HTTP, target: t, opts: opts, rec: newRecorder(opts.Redact)}
	params := probe.InitializeParams(probe.LatestLegacy, nil, opts.ClientVersion)
	body, h := probe.Request(1, "initialize", params), probe.PostHeaders("", "", "initialize", nil)
	if probe.IsModern(opts.Revision) {
		body = probe.Request(1, "server/discover", map[string]any{"_meta": probe.ModernMeta(opts.Revision, nil, opts.ClientVersion)})
		h = probe.PostHeaders(opts.Revision, "", "server/discover", nil)
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	hr, err := e.httpClient().Do(ctx, probe.HTTPRequest{Header: h, Body: body,
		Until: func(*probe.Event) bool { return true }})
	if err != nil {
		return false
	}
	if id := hr.Header.Get(probe.HeaderSessionID); id != "" {
		s := &Session{env: e, http: e.httpClient(), sessionID: id, rec: e.rec}
		s.close()
	}
	return true
}

func tail(s string, lines int) string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(parts) > lines {
		parts = parts[len(parts)-lines:]
	}
	return strings.Join(parts, "\n")
}
