package hostrpc

import (
	"context"
	"errors"
	"io"

	"github.com/mcptest/mcptest/sdk/pluginrpc"
	pluginv1 "github.com/mcptest/mcptest/sdk/proto/mcptest/plugin/v1"
)

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
func (c *ReporterClient) Render(ctx context.Context, start pluginrpc.RenderStart, onOutput func(pluginrpc.Sink, []byte)) (*RenderStream, error) {
	stream, err := c.c.Render(ctx)
	if err != nil {
		return nil, c.wrap("render", err)
	}
	first := &pluginv1.RenderInput{Msg: &pluginv1.RenderInput_Start{Start: pluginrpc.RenderStartToProto(start)}}
	if err := stream.Send(first); err != nil {
		return nil, c.wrap("render start", err)
	}
	rs := &RenderStream{base: c.clientBase, stream: stream, done: make(chan struct{})}
	go rs.receive(onOutput)
	return rs, nil
}

func (r *RenderStream) receive(onOutput func(pluginrpc.Sink, []byte)) {
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
			onOutput(pluginrpc.Sink(msg.GetSink()), msg.GetData())
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
