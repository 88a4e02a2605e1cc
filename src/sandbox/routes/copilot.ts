import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseDirectives } from '../directives.js';
import type { SimContext } from '../sim-context.js';
import { fakeCitations, fakeSentences } from '../text-gen.js';

/** Conversations kept for `send` frames to refer to; the oldest are forgotten past this many. */
const MAX_CONVERSATIONS = 10_000;

/**
 * Copilot (docs/engines.md#copilot-chat): GET /c/api/user, POST /c/api/conversations and the chat WebSocket
 * /c/api/chat. Fastify has no WebSocket support installed, so a `ws` server takes the HTTP upgrade
 * for the chat path under this family's prefix.
 *
 * The prompt travels only in the socket's `send` frame (the conversation POST has no body), so the
 * directives act there: error/flaky answer a server-error `error` frame, captcha a challenge-type
 * `error` frame, empty a `done` without text, timeout never sends `done`.
 */
export function registerCopilot(app: FastifyInstance, sim: SimContext): void {
  const conversations = new Set<string>();
  const flakySeen = new Map<string, number>();
  let nextId = 1;

  app.get('/c/api/user', async (req, reply) => {
    if (!/^Bearer \S+/.test(String(req.headers.authorization ?? ''))) {
      return reply.code(401).send({ error: { code: 'unauthorized', message: 'No valid access token' } });
    }
    return reply.send({ id: 'sim-user-1', firstName: 'Sandbox', lastName: 'User', locale: 'en-US' });
  });

  app.post('/c/api/conversations', async (_req, reply) => {
    const id = `sim-conv-${(nextId++).toString(36)}`;
    conversations.add(id);
    if (conversations.size > MAX_CONVERSATIONS) conversations.delete(conversations.values().next().value as string);
    return reply.send({ id, title: null, createdAt: new Date(1767225600000).toISOString(), results: [] });
  });

  const wss = new WebSocketServer({ noServer: true });
  const chatPath = `${app.prefix}/c/api/chat`;
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === chatPath) {
      wss.handleUpgrade(req, socket, head, (ws) => handleChat(ws, { sim, conversations, flakySeen }));
    } else if (path.startsWith(`${app.prefix}/`)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  };
  app.server.on('upgrade', onUpgrade);
  // Open sockets would keep the HTTP server from closing (a `sandbox:timeout` chat never ends).
  app.addHook('preClose', (done) => {
    app.server.off('upgrade', onUpgrade);
    for (const ws of wss.clients) ws.terminate();
    wss.close(() => done());
  });
}

interface ChatState {
  sim: SimContext;
  conversations: Set<string>;
  flakySeen: Map<string, number>;
}

function handleChat(ws: WebSocket, st: ChatState): void {
  let closed = false;
  ws.on('close', () => {
    closed = true;
  });
  const send = (event: Record<string, unknown>) => {
    if (!closed && ws.readyState === ws.OPEN) ws.send(JSON.stringify(event));
  };
  send({ event: 'connected', requestId: 'sim-req' });
  ws.on('message', (data) => {
    let frame: { event?: unknown; conversationId?: unknown; content?: unknown };
    try {
      frame = JSON.parse(data.toString()) as typeof frame;
    } catch {
      send({ event: 'error', errorCode: 'bad-request', message: 'Malformed frame' });
      return;
    }
    if (frame.event !== 'send') return;
    if (typeof frame.conversationId !== 'string' || !st.conversations.has(frame.conversationId)) {
      send({ event: 'error', errorCode: 'conversation-not-found', message: 'Unknown conversation' });
      return;
    }
    const prompt = Array.isArray(frame.content)
      ? frame.content
          .map((c: unknown) =>
            c && typeof c === 'object' && (c as { type?: unknown }).type === 'text'
              ? String((c as { text?: unknown }).text ?? '')
              : '',
          )
          .join('\n')
      : '';
    void answer(frame.conversationId, prompt, send, () => closed, ws, st);
  });
}

async function answer(
  conversationId: string,
  prompt: string,
  send: (e: Record<string, unknown>) => void,
  isClosed: () => boolean,
  ws: WebSocket,
  st: ChatState,
): Promise<void> {
  const d = parseDirectives(prompt);
  if (d.delayMs > 0) await new Promise((r) => setTimeout(r, d.delayMs));
  if (isClosed()) return;
  const messageId = `sim-msg-${st.sim.hash(prompt, conversationId).toString(36)}`;
  send({ event: 'received', conversationId, messageId: `${messageId}-u` });
  let failing = d.error;
  if (!failing && d.flaky > 0) {
    const n = (st.flakySeen.get(prompt) ?? 0) + 1;
    st.flakySeen.set(prompt, n);
    failing = n <= d.flaky;
  }
  if (failing) {
    send({ event: 'error', errorCode: 'server-error', message: 'Service temporarily unavailable' });
    ws.close(1011, 'server error');
    return;
  }
  if (d.captcha) {
    send({ event: 'error', errorCode: 'challenge', message: 'CaptchaChallenge: verify you are human to continue' });
    ws.close(1008, 'challenge');
    return;
  }
  send({ event: 'startMessage', conversationId, messageId });
  // `sandbox:timeout`: the answer never completes; the client gives up and closes the socket.
  if (d.timeout) return;
  if (d.empty) {
    send({ event: 'done', messageId });
    ws.close(1000);
    return;
  }
  const topic = st.sim.clean(prompt);
  const [s0, s1, s2] = fakeSentences(st.sim, topic, 3);
  const cites = fakeCitations(st.sim, topic, 3);
  // Markers refer to citation events by arrival: [4] repeats citation 1 (with tracking parameters).
  const text = `**${topic}**\n\n${s0} [2]\n\n${s1} [1][3]\n\n${s2} [4]`;
  const partId = '0';
  const chunks = text.match(/\S+\s*/g) ?? [];
  const cite = (i: number, url?: string) => {
    const c = cites[i] as { url: string; title: string };
    send({ event: 'citation', messageId, partId, url: url ?? c.url, title: c.title });
  };
  chunks.forEach((chunk, i) => {
    send({ event: 'appendText', messageId, partId, text: chunk });
    if (i === 2) cite(0);
    if (i === 5) cite(1);
  });
  send({ event: 'replaceText', messageId, partId, text });
  send({ event: 'partCompleted', messageId, partId });
  send({ event: 'done', messageId });
  // Late frames, as the real service sends them after `done`.
  cite(2);
  cite(0, `${cites[0]?.url ?? ''}?utm_source=copilot&utm_medium=chat`);
  send({ event: 'suggestedFollowups', messageId, suggestions: [`More about ${topic}`] });
  send({ event: 'titleUpdate', conversationId, title: topic.slice(0, 40) });
  ws.close(1000);
}
