package pluginrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mcptest/mcptest/sdk/contract"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
	"github.com/mcptest/mcptest/sdk/report"
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
	go warmReportTypes()
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
