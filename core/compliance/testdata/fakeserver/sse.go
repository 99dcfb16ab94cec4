package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// With the "sse" switch the fake answers every request of a session on an
// SSE stream that a client can resume: a priming event (an id, a retry
// and empty data) first, then the answer, each event with an id unique in
// the session; a GET with Last-Event-ID replays what followed that event
// on its own stream. Misbehaviours:
//
//	h07-no-priming    no priming event and no retry
//	h08-dup-ids       event ids restart at 0 on every stream
//	h08-cross-replay  a resume replays every later event of the session,
//	                  other streams' included

// sseEvent is one event the fake sent, kept for replay.
type sseEvent struct {
	stream int
	id     string
	data   string
}

// sseLog is the events of one session.
type sseLog struct {
	streams int
	events  []sseEvent
}

// sseReply answers one request of session sid on a new SSE stream.
func (h *httpServer) sseReply(w http.ResponseWriter, sid string, replies []any, status int) {
	h.mu.Lock()
	log := h.logs[sid]
	if log == nil {
		log = &sseLog{}
		h.logs[sid] = log
	}
	log.streams++
	stream := log.streams
	var out strings.Builder
	n := 0
	add := func(data, extra string) {
		id := fmt.Sprintf("%d-%d", stream, n)
		if on("h08-dup-ids") {
			id = strconv.Itoa(n)
		}
		n++
		log.events = append(log.events, sseEvent{stream: stream, id: id, data: data})
		fmt.Fprintf(&out, "id: %s\n%sdata: %s\n\n", id, extra, data)
	}
	if !on("h07-no-priming") {
		add("", "retry: 500\n")
	}
	for _, rep := range replies {
		b, _ := json.Marshal(rep)
		add(string(b), "")
	}
	h.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(out.String()))
}

// resume answers a GET with Last-Event-ID: the events after that one on
// its stream (every later event, with h08-cross-replay), then the end of
// the stream.
func (h *httpServer) resume(w http.ResponseWriter, sid, last string) {
	h.mu.Lock()
	var out strings.Builder
	if log := h.logs[sid]; log != nil {
		stream, after := -1, -1
		for i, ev := range log.events {
			if ev.id == last {
				stream, after = ev.stream, i
				break
			}
		}
		if after >= 0 {
			for _, ev := range log.events[after+1:] {
				if ev.stream == stream || on("h08-cross-replay") {
					fmt.Fprintf(&out, "id: %s\ndata: %s\n\n", ev.id, ev.data)
				}
			}
		}
	}
	h.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(out.String()))
}
