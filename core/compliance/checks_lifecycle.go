package compliance

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/mcptest/mcptest/core/probe"
)

// l04Window is how long L04 holds back notifications/initialized.
const l04Window = time.Second

// registerLifecycle adds the checks of this file to the registry (loadRegistry).
func registerLifecycle() {
	register(
		&Check{ID: "L01", Title: "The initialize result has protocolVersion, capabilities and serverInfo{name, version}", Severity: Must,
			Section: "basic/lifecycle.mdx#initialization", Eras: []Era{Legacy}, run: checkL01},
		&Check{ID: "L02", Title: "A supported protocol version is echoed back; a counter-offer is one the server then accepts", Severity: Must,
			Section: "basic/lifecycle.mdx#version-negotiation", Eras: []Era{Legacy}, run: checkL02},
		&Check{ID: "L03", Title: "An unknown protocol version is answered with a version the server supports", Severity: Must,
			Section: "basic/lifecycle.mdx#version-negotiation", Eras: []Era{Legacy}, run: checkL03},
		&Check{ID: "L04", Title: "No requests other than ping and logging before notifications/initialized", Severity: Should,
			Section: "basic/lifecycle.mdx#initialization", Eras: []Era{Legacy}, run: checkL04},
		&Check{ID: "L05", Title: "ping is answered promptly with an empty result", Severity: Must,
			Section: "basic/utilities/ping.mdx", Eras: []Era{Legacy}, run: checkL05},
	)
}

// revisionPattern is the shape of a protocol revision.
var revisionPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`) })

// checkL01 validates the shape of the initialize result.
func checkL01(ctx context.Context, e *Env) error {
	var err error
	r := e.opts.hellos.recall(e, e.Revision)
	if r == nil {
		s, oerr := e.open(ctx)
		if oerr != nil {
			return oerr
		}
		r, err = s.Initialize(ctx, e.Revision, false)
	}
	if err != nil {
		e.fail("initialize", "a result", actual(r, err), "")
		return nil
	}
	if r.Msg.Error != nil {
		e.fail("initialize", "a result", json.RawMessage(r.Msg.Raw), "")
		return nil
	}
	res, ok := object(r.Msg.Result)
	if !ok {
		e.fail("initialize result", "an object", json.RawMessage(r.Msg.Raw), "")
		return nil
	}
	if v, ok := str(res, "protocolVersion"); !ok || v == "" {
		e.fail("protocolVersion", "a non-empty string", rawOr(res["protocolVersion"]), "")
	} else {
		e.pass("protocolVersion", "")
	}
	if _, ok := object(res["capabilities"]); !ok {
		e.fail("capabilities", "an object", rawOr(res["capabilities"]), "")
	} else {
		e.pass("capabilities", "")
	}
	info, ok := object(res["serverInfo"])
	if !ok {
		e.fail("serverInfo", "an object with name and version", rawOr(res["serverInfo"]), "")
		return nil
	}
	if v, ok := str(info, "name"); !ok || v == "" {
		e.fail("serverInfo.name", "a non-empty string", rawOr(info["name"]), "")
	} else {
		e.pass("serverInfo.name", "")
	}
	// The schema's Implementation asks only that version be a string
	// ("version: string"); an empty one is allowed.
	if _, ok := str(info, "version"); !ok {
		e.fail("serverInfo.version", "a string", rawOr(info["version"]), `the schema's Implementation has "version: string"`)
	} else {
		e.pass("serverInfo.version", "")
	}
	if raw, present := res["instructions"]; present {
		if _, ok := str(res, "instructions"); !ok {
			e.fail("instructions", "a string when present", json.RawMessage(raw), "")
		}
	}
	return nil
}

// rawOr shows a member, or says it is absent.
func rawOr(raw json.RawMessage) any {
	if raw == nil {
		return "(absent)"
	}
	return raw
}

// initializeAs initializes a fresh session asking for rev and returns the
// revision the server chose ("" with a finding recorded when it failed).
func initializeAs(ctx context.Context, e *Env, rev string) (chosen string, reply *Reply, err error) {
	if r := e.opts.hellos.recall(e, rev); r != nil {
		res, _ := object(r.Msg.Result)
		v, _ := str(res, "protocolVersion")
		return v, r, nil
	}
	s, err := e.open(ctx)
	if err != nil {
		return "", nil, err
	}
	// The session stays open until the check ends, so one that speaks
	// the run's revision can go on to serve another check.
	r, err := s.Initialize(ctx, rev, false)
	if err != nil {
		return "", r, err
	}
	if r.Msg.Error != nil {
		return "", r, nil
	}
	res, _ := object(r.Msg.Result)
	v, _ := str(res, "protocolVersion")
	return v, r, nil
}

// checkL02 initializes once per legacy revision. Whatever the server
// answers must be a revision it accepts when asked for it directly: a
// server that supports the requested revision echoes it, and a
// counter-offer must be one it supports.
func checkL02(ctx context.Context, e *Env) error {
	answers := map[string]string{}
	asked := slices.Clone(probe.LegacyRevisions)
	if !slices.Contains(asked, e.Revision) {
		asked = append(asked, e.Revision)
	}
	// The first round asks for every revision at once, each on a server
	// of its own: they are independent, and starting them one after the
	// other made L02 the longest check. Counter-offers follow one by one.
	type answer struct {
		chosen string
		r      *Reply
		err    error
	}
	first := make([]answer, min(len(asked), 8))
	var wg sync.WaitGroup
	for i := range first {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, r, err := initializeAs(ctx, e, asked[i])
			first[i] = answer{c, r, err}
		}()
	}
	wg.Wait()
	for i := 0; i < len(asked) && i < 8; i++ {
		rev := asked[i]
		name := "initialize asking for " + rev
		var chosen string
		var r *Reply
		var err error
		if i < len(first) {
			chosen, r, err = first[i].chosen, first[i].r, first[i].err
		} else {
			chosen, r, err = initializeAs(ctx, e, rev)
		}
		switch {
		case err != nil:
			e.fail(name, "a result", actual(r, err), "")
			continue
		case chosen == "":
			e.fail(name, "a result with a protocolVersion", actual(r, nil),
				"a server that does not support the requested version must answer with one it does, not an error")
			continue
		case !revisionPattern().MatchString(chosen):
			e.fail(name, "a revision such as "+probe.LatestLegacy, chosen, "")
			continue
		}
		answers[rev] = chosen
		if chosen == rev {
			e.pass(name, "echoed")
			continue
		}
		// Ask for the counter-offer too, once, to see it is really supported.
		if _, done := answers[chosen]; !done && !slices.Contains(asked, chosen) {
			asked = append(asked, chosen)
		}
	}
	for _, rev := range asked {
		chosen, ok := answers[rev]
		if !ok || chosen == rev {
			continue
		}
		back, ok := answers[chosen]
		switch {
		case !ok:
			// The counter-offer could not be checked; the failure was
			// recorded when it was asked for.
		case back != chosen:
			e.fail("counter-offer for "+rev, fmt.Sprintf("%s, echoed when asked for", chosen), fmt.Sprintf("asking for %s gives %s", chosen, back),
				"the server offered a version it does not accept itself")
		default:
			e.pass("counter-offer for "+rev, "the server offers "+chosen+", which it accepts")
		}
	}
	return nil
}

// checkL03 asks for a revision that does not exist.
func checkL03(ctx context.Context, e *Env) error {
	const bogus = "1900-01-01"
	chosen, r, err := initializeAs(ctx, e, bogus)
	const name = "initialize asking for " + bogus
	switch {
	case err != nil:
		e.fail(name, "a result", actual(r, err), "")
		return nil
	case chosen == "" && r.Msg.Error != nil:
		code, _ := r.Msg.ErrorCode()
		var data struct {
			Supported []string `json:"supported"`
		}
		_ = json.Unmarshal(r.Msg.Error.Data, &data)
		if code == -32602 && len(data.Supported) > 0 {
			e.warn(name, "a result offering a supported version", json.RawMessage(r.Msg.Raw),
				"an error listing the supported versions lets a client recover, but the server should counter-offer instead")
			return nil
		}
		e.fail(name, "a result offering a supported version", json.RawMessage(r.Msg.Raw), "")
		return nil
	case chosen == bogus:
		e.fail(name, "a version the server supports", chosen, "the server echoed a version that does not exist")
		return nil
	case !revisionPattern().MatchString(chosen):
		e.fail(name, "a revision such as "+probe.LatestLegacy, chosen, "")
		return nil
	}
	e.pass(name, "the server offers "+chosen)
	// SHOULD offer the latest it supports: compare with what it accepts
	// for the run's own revision.
	own, _, err := initializeAs(ctx, e, e.Revision)
	if err == nil && own == e.Revision && chosen < own {
		e.warn("counter-offer is the latest supported", own, chosen, "the server supports "+own+" but offered an older version")
	}
	return nil
}

// checkL04 initializes, holds back notifications/initialized, and
// watches for requests the server should not send yet.
func checkL04(ctx context.Context, e *Env) error {
	s, err := e.open(ctx)
	if err != nil {
		return err
	}
	r, err := s.Initialize(ctx, e.Revision, true)
	if err != nil || r.Msg.Error != nil {
		return fmt.Errorf("initialize: %v", actual(r, err))
	}
	s.Quiet(ctx, l04Window)
	early := 0
	for _, m := range s.ServerRequests() {
		if m.Method != "ping" && m.Method != "logging/setLevel" {
			early++
			e.fail("request before initialized", "only ping before notifications/initialized", json.RawMessage(m.Raw), "")
		}
	}
	if early == 0 {
		e.pass("no early requests", "")
	}
	// Completing the handshake, once judged, lets another check use the
	// server; a failure to send it is not this check's business.
	_ = s.finishHandshake(ctx)
	return nil
}

// checkL05 pings and times the answer.
func checkL05(ctx context.Context, e *Env) error {
	s, err := e.connect(ctx)
	if err != nil {
		return err
	}
	start := time.Now()
	r, err := s.Call(ctx, "ping", nil)
	took := time.Since(start)
	if err != nil || r.Msg.Result == nil {
		e.fail("ping", "an empty result", actual(r, err), "")
		return nil
	}
	res, ok := object(r.Msg.Result)
	delete(res, "_meta")
	if !ok || len(res) != 0 {
		e.fail("ping result", "{}", json.RawMessage(r.Msg.Result), "the result of ping is an empty object")
	} else {
		e.pass("ping result", fmt.Sprintf("answered in %s", took.Round(time.Millisecond)))
	}
	return nil
}
