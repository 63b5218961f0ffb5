// The node's live events (GET /v1/events, server-sent events) with a status a person can see: "live" while the
// stream is open, "reconnecting" while it is down. EventSource reconnects by itself; this only reports it.

export function connect({ onEvent, onStatus }) {
  const source = new EventSource('/v1/events');
  const types = ['score', 'conflict', 'conflict-resolved', 'card', 'standings', 'peer-connected', 'peer-lost'];
  for (const type of types) {
    source.addEventListener(type, (message) => {
      let data = {};
      try { data = JSON.parse(message.data); } catch { data = {}; }
      onEvent(type, data);
    });
  }
  source.addEventListener('open', () => onStatus('live'));
  source.addEventListener('error', () => onStatus(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting'));
  return source;
}
