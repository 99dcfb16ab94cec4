package pluginrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
	"github.com/mcptest/mcptest/sdk/report"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Sink names where the host sends bytes a reporter wrote.
type Sink int

// The sinks.
const (
	SinkPrimary     Sink = Sink(pluginv1.Sink_SINK_PRIMARY)
	SinkProgress    Sink = Sink(pluginv1.Sink_SINK_PROGRESS)
	SinkStepSummary Sink = Sink(pluginv1.Sink_SINK_STEP_SUMMARY)
)

// chunkBytes bounds one output message, far below the message limit.
const chunkBytes = 1 << 20

// reporterServer serves a plugin's reporters.
type reporterServer struct {
	pluginv1.UnimplementedReporterServer
	srv *pluginServer
}

func (s *reporterServer) Render(stream pluginv1.Reporter_RenderServer) (err error) {
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	start := first.GetStart()
	if start == nil {
		return status.Error(codes.InvalidArgument, "first render message must be start")
	}
	rep, ok := s.srv.plugin.Reporters[start.GetKey()]
	if !ok {
		return status.Errorf(codes.NotFound, "plugin %q has no reporter %q", s.srv.plugin.Name, start.GetKey())
	}
	out := &streamOutput{stream: stream}
	var decodeErr error
	next := func() (report.Event, bool) {
		if err := out.flush(); err != nil {
			decodeErr = err
			return report.Event{}, false
		}
		msg, err := stream.Recv()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				decodeErr = err
			}
			return report.Event{}, false
		}
		var ev report.Event
		if err := json.Unmarshal(msg.GetEventJson(), &ev); err != nil {
			decodeErr = fmt.Errorf("decode event: %w", err)
			return report.Event{}, false
		}
		return ev, true
	}
	sess := contract.NewRenderSession(start.GetKey(), next, out.writer(SinkPrimary), out.writer(SinkProgress), out.writer(SinkStepSummary))
	if opts := start.GetOptionsJson(); len(opts) > 0 {
		sess.Options = opts
	}
	sess.Terminal = terminalFromProto(start.GetTerminal())
	sess.ProgressTerminal = terminalFromProto(start.GetProgressTerminal())
	// The stream's own failure explains a reporter that then saw no
	// run_finished, so it goes first.
	renderErr := errors.Join(decodeErr, s.render(stream.Context(), rep, sess))
	if err := out.flush(); err != nil {
		return err
	}
	done := &pluginv1.RenderOutput{Done: true}
	if renderErr != nil {
		done.Error = renderErr.Error()
	}
	return stream.Send(done)
}

func (s *reporterServer) render(ctx context.Context, rep contract.Reporter, sess *contract.RenderSession) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.srv.logger.Error("reporter panicked", "key", sess.Key, "panic", fmt.Sprint(r))
			err = fmt.Errorf("reporter %q panicked: %v", sess.Key, r)
		}
	}()
	return rep.Render(ctx, sess)
}

// streamOutput buffers what a reporter writes and sends it in chunks,
// keeping the order of writes across sinks (a progress line cleared before
// a result line must reach the terminal in that order). It is flushed
// before each event is read and at the end.
type streamOutput struct {
	mu      sync.Mutex
	stream  pluginv1.Reporter_RenderServer
	pending []chunk
	size    int
}

type chunk struct {
	sink Sink
	data []byte
}

type sinkWriter struct {
	o    *streamOutput
	sink Sink
}

func (o *streamOutput) writer(s Sink) io.Writer { return &sinkWriter{o: o, sink: s} }

func (w *sinkWriter) Write(p []byte) (int, error) {
	w.o.mu.Lock()
	defer w.o.mu.Unlock()
	if n := len(w.o.pending); n > 0 && w.o.pending[n-1].sink == w.sink {
		w.o.pending[n-1].data = append(w.o.pending[n-1].data, p...)
	} else {
		w.o.pending = append(w.o.pending, chunk{sink: w.sink, data: append([]byte(nil), p...)})
	}
	w.o.size += len(p)
	if w.o.size >= chunkBytes {
		if err := w.o.flushLocked(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (o *streamOutput) flush() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.flushLocked()
}

func (o *streamOutput) flushLocked() error {
	for _, c := range o.pending {
		buf := c.data
		for len(buf) > 0 {
			n := min(len(buf), chunkBytes)
			if err := o.stream.Send(&pluginv1.RenderOutput{Sink: pluginv1.Sink(c.sink), Data: buf[:n]}); err != nil {
				return err
			}
			buf = buf[n:]
		}
	}
	o.pending, o.size = o.pending[:0], 0
	return nil
}

// RenderStart opens a render stream.
type RenderStart struct {
	Key              string
	Options          json.RawMessage
	Terminal         contract.Terminal
	ProgressTerminal contract.Terminal
}

// ReporterClient is the host-side client of a plugin's reporters.
type ReporterClient struct {
	clientBase
	c pluginv1.ReporterClient
}

// RenderStream is an open render: the host sends events and receives output
// through the callback given to Render.
type RenderStream struct {
	base   clientBase
	stream pluginv1.Reporter_RenderClient
	done   chan struct{}
	err    error
}

// Render opens a render stream. onOutput is called, from one goroutine and
// in order, with every chunk the reporter writes.
func (c *ReporterClient) Render(ctx context.Context, start RenderStart, onOutput func(Sink, []byte)) (*RenderStream, error) {
	stream, err := c.c.Render(ctx)
	if err != nil {
		return nil, c.wrap("render", err)
	}
	first := &pluginv1.RenderInput{Msg: &pluginv1.RenderInput_Start{Start: renderStartToProto(start)}}
	if err := stream.Send(first); err != nil {
		return nil, c.wrap("render start", err)
	}
	rs := &RenderStream{base: c.clientBase, stream: stream, done: make(chan struct{})}
	go rs.receive(onOutput)
	return rs, nil
}

func (r *RenderStream) receive(onOutput func(Sink, []byte)) {
	defer close(r.done)
	for {
		msg, err := r.stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				r.err = errors.New("reporter ended without finishing")
			} else {
				r.err = r.base.wrap("render", err)
			}
			return
		}
		if len(msg.GetData()) > 0 {
			onOutput(Sink(msg.GetSink()), msg.GetData())
		}
		if msg.GetDone() {
			if msg.GetError() != "" {
				r.err = errors.New(msg.GetError())
			}
			return
		}
	}
}

// Send streams one encoded event (a report.Event as JSON).
func (r *RenderStream) Send(eventJSON []byte) error {
	select {
	case <-r.done:
		if r.err != nil {
			return r.err
		}
		return errors.New("reporter already finished")
	default:
	}
	err := r.stream.Send(&pluginv1.RenderInput{Msg: &pluginv1.RenderInput_EventJson{EventJson: eventJSON}})
	if err != nil {
		// The real cause arrives on the receive side.
		<-r.done
		if r.err != nil {
			return r.err
		}
		return r.base.wrap("render send", err)
	}
	return nil
}

// Close ends the event stream and waits for the reporter to finish; it
// returns the reporter's error, if any.
func (r *RenderStream) Close() error {
	if err := r.stream.CloseSend(); err != nil {
		return r.base.wrap("render close", err)
	}
	<-r.done
	return r.err
}
