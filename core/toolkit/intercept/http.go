package intercept

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// maxBody bounds a request or JSON response body the proxy reads.
const maxBody = 64 << 20

// hopHeaders are not forwarded (RFC 9110 §7.6.1).
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Upgrade", "Te", "Trailer"}

// HTTPProxy forwards Streamable HTTP requests to Upstream and records
// every JSON-RPC message: request bodies, JSON responses, and each event
// of an event-stream response as it passes.
type HTTPProxy struct {
	Upstream string
	Rec      *Recorder
	Client   *http.Client
}

// ServeHTTP forwards one request.
func (p *HTTPProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, "intercept: request body unreadable or too large", http.StatusRequestEntityTooLarge)
		return
	}
	if r.Method == http.MethodPost {
		p.Rec.Record(ToServer, body)
	}
	target := strings.TrimRight(p.Upstream, "/")
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	out, err := http.NewRequestWithContext(r.Context(), r.Method, target, bytes.NewReader(body))
	if err != nil {
		http.Error(w, "intercept: "+err.Error(), http.StatusBadGateway)
		return
	}
	out.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	resp, err := p.Client.Do(out)
	if err != nil {
		http.Error(w, "intercept: upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	for _, h := range hopHeaders {
		w.Header().Del(h)
	}
	w.WriteHeader(resp.StatusCode)
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/event-stream"):
		p.stream(w, resp.Body)
	default:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		if strings.HasPrefix(ct, "application/json") {
			p.Rec.Record(ToClient, b)
		}
		_, _ = w.Write(b)
	}
}

// stream passes an event stream through line by line, flushing each, and
// records the data of every event.
func (p *HTTPProxy) stream(w http.ResponseWriter, body io.Reader) {
	fl, _ := w.(http.Flusher)
	br := bufio.NewReaderSize(body, 64<<10)
	var data bytes.Buffer
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if _, werr := w.Write(line); werr != nil {
				return
			}
			t := bytes.TrimRight(line, "\r\n")
			switch {
			case len(t) == 0:
				if fl != nil {
					fl.Flush()
				}
				if data.Len() > 0 {
					p.Rec.Record(ToClient, data.Bytes())
					data.Reset()
				}
			case bytes.HasPrefix(t, []byte("data:")):
				if data.Len() > 0 {
					data.WriteByte('\n')
				}
				if data.Len() < maxBody {
					data.Write(bytes.TrimPrefix(bytes.TrimPrefix(t, []byte("data:")), []byte(" ")))
				}
			}
		}
		if err != nil {
			if data.Len() > 0 {
				p.Rec.Record(ToClient, data.Bytes())
			}
			return
		}
	}
}

// ServeProxy serves the proxy on ln until ctx ends.
func ServeProxy(ctx context.Context, ln net.Listener, p *HTTPProxy) error {
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("intercept: serve: %w", err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutdown)
	return nil
}
