// The node's live events (GET /v1/events, server-sent events) with a status a person can see: "live" while the
// stream is open, "reconnecting" while it is down. EventSource reconnects by itself after a dropped stream, but
// gives up for good when its first request fails outright (a page opened from the phone's own copy while no node
// answered): then this opens a new stream after 1 s and then every 1.5 s (the node asks for 1 s with `retry:` on
// a dropped stream), and at once when the browser says it is back online or the page is shown again. A try costs
// one refused connection while no node answers; what the phone kept is sent within 2 s of the node answering.

export function connect({ onEvent, onStatus }) {
  const types = ['score', 'conflict', 'conflict-resolved', 'card', 'standings', 'peer-connected', 'peer-lost',
    'device-request'];
  let source = null;
  let retry = null;
  let delay = 1000;

  function open() {
    window.clearTimeout(retry);
    retry = null;
    source = new EventSource('/v1/events');
    for (const type of types) {
      source.addEventListener(type, (message) => {
        let data = {};
        try { data = JSON.parse(message.data); } catch { data = {}; }
        onEvent(type, data);
      });
    }
    source.addEventListener('open', () => { delay = 1000; onStatus('live'); });
    source.addEventListener('error', () => {
      if (source.readyState !== EventSource.CLOSED) return onStatus('reconnecting');
      onStatus('reconnecting');
      retry ??= window.setTimeout(open, delay);
      delay = 1500;
    });
  }

  // A stream the browser closed is opened again at once when there is reason to think the node is back.
  const again = () => { if (source?.readyState === EventSource.CLOSED) { delay = 1000; open(); } };
  window.addEventListener('online', again);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') again(); });
  open();
}
