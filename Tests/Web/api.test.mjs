// The app's calls to the node (api.js) against a stand-in `fetch`: a node with no room for another connection from
// this phone's address (503 `no_room`) counts as no node answering, and says so, until the node answers again.

import { test } from 'node:test';
import assert from 'node:assert/strict';

const answers = [];
globalThis.fetch = async () => {
  const next = answers.shift();
  if (next instanceof Error) throw next;
  return new Response(JSON.stringify(next.body), { status: next.status, headers: { 'Content-Type': 'application/json' } });
};

const api = await import('../../Sources/CaddieAPI/Web/api.js');

test('503 no_room is no node answering, with the reason kept until the node answers', async () => {
  answers.push({ status: 503, body: { code: 'no_room', message: 'the node has no room for another connection' } });
  await assert.rejects(api.post('/v1/x', {}), (error) => error.status === 0 && error.code === 'no_room'
    && /no room/.test(error.message));
  assert.equal(api.offline.noRoom, true);
  answers.push({ status: 200, body: { ok: true } });
  assert.deepEqual(await api.post('/v1/x', {}), { ok: true });
  assert.equal(api.offline.noRoom, false);
});

test('another 503 is the node\'s own error, not a lack of room', async () => {
  answers.push({ status: 503, body: { code: 'store', message: 'the store is busy' } });
  await assert.rejects(api.post('/v1/x', {}), (error) => error.status === 503 && error.code === 'store');
  assert.equal(api.offline.noRoom, false);
});

test('a refused connection is no node answering, without the no-room reason', async () => {
  answers.push(new TypeError('Failed to fetch'));
  await assert.rejects(api.post('/v1/x', {}), (error) => error.status === 0 && error.code === 'offline');
  assert.equal(api.offline.noRoom, false);
});
