import type { AttemptContext, EngineAdapter, EngineResult } from '../adapter.js';
import { promptOf } from '../common/upstream-status.js';
import { foldCopilotEvents } from './copilot-events.js';
import { createConversation, fetchCopilotUser, type CopilotCall } from './copilot-http.js';
import { collectChatEvents, socketUrl } from './copilot-socket.js';
import { acceptLanguage, regionLocale, USER_AGENTS } from '../../transport/identity.js';

/**
 * Wait after `done` for late citations (~3 s observed: docs/engines.md#copilot-chat); `options.doneGraceMs`
 * overrides.
 */
const DEFAULT_DONE_GRACE_MS = 3000;
const CHAT_MODES = new Set(['chat', 'reasoning', 'smart']);

/**
 * SEARCH_C_ASSISTANT: Copilot's chat protocol (docs/engines.md#copilot-chat) —
 * GET /c/api/user, POST /c/api/conversations, then one `send` frame on the chat WebSocket and the
 * server's events until `done`.
 */
export const searchCAssistant: EngineAdapter = {
  taskType: 'SEARCH_C_ASSISTANT',
  needsAccount: false,
  async run(ctx: AttemptContext): Promise<EngineResult> {
    const { upstream } = ctx.config;
    const origin = new URL(upstream.baseUrl).origin;
    const token = ctx.account?.secret ?? null;
    const headers: Record<string, string> = {
      'user-agent': USER_AGENTS.desktopEdge,
      // Copilot has no region parameter; the browser language is the only region signal it reads.
      'accept-language': acceptLanguage(regionLocale(ctx.country).locale),
      origin,
      referer: `${origin}/`,
      ...upstream.headers,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    const call: CopilotCall = { http: ctx.http, baseUrl: upstream.baseUrl, headers, signal: ctx.signal };

    const user = await fetchCopilotUser(call);
    const conversationId = await createConversation(call);
    const mode = String(upstream.options.mode ?? 'chat');
    const frame = {
      event: 'send',
      conversationId,
      mode: CHAT_MODES.has(mode) ? mode : 'chat',
      content: [{ type: 'text', text: promptOf(ctx.payload) }],
    };
    const query: Record<string, string> = { 'api-version': '2' };
    if (token) query.accessToken = token;
    const graceOption = Number(upstream.options.doneGraceMs);
    const transcript = await collectChatEvents({
      url: socketUrl(upstream.baseUrl, '/c/api/chat', query),
      headers,
      firstFrame: JSON.stringify(frame),
      signal: ctx.signal,
      // Through the attempt's exit address, like the HTTP calls.
      http: ctx.http,
      graceMs: Number.isFinite(graceOption) && graceOption >= 0 ? graceOption : DEFAULT_DONE_GRACE_MS,
    });
    const result = foldCopilotEvents(transcript.events);
    return {
      ...result,
      raw: {
        ...(result.raw as Record<string, unknown>),
        conversationId,
        signedIn: user.signedIn,
        userStatus: user.status,
        endedBy: transcript.endedBy,
        closeCode: transcript.closeCode,
      },
    };
  },
};
