import type { SourceInfluenceInput } from '../../src/analysis/source-influence/types.js';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible `/v1/chat/completions` server, as llama.cpp, vLLM or Ollama would run one, answering
 * model_check calls from test/fixtures/analysis/model-judge/judgements.json: the first rule whose `claimIncludes` is
 * in the claim and whose `passageIncludes` (if any) is in the passage gives the label, no rule `unsupported`. Every
 * answer reports 100 prompt and 20 completion tokens. `behave(n)` decides the n-th request (1-based): answer it,
 * fail it with HTTP 500, hang (read the request, never answer), or answer text that is not JSON, with the same usage,
 * as a server that does not apply the response schema does (llama.cpp's server ignored
 * `response_format.json_schema` for a while in 2025, and still does with some chat templates).
 */
interface Rule {
  claimIncludes: string;
  passageIncludes?: string;
  label: string;
}
const RULES = (
  JSON.parse(readFileSync(new URL('../fixtures/analysis/model-judge/judgements.json', import.meta.url), 'utf8')) as {
    rules: Rule[];
  }
).rules;

/** `partial`: valid JSON that judges only the first pair of each call, as a weak local model may answer. */
export type Behaviour = 'answer' | 'fail' | 'hang' | 'garbage' | 'partial';

export interface SeenCall {
  model: string;
  authorization: string | null;
  pairs: Array<{ id: string; claim: string; passage: string }>;
}

export interface JudgeServer {
  base: string;
  /** Requests received, answered or not. */
  requests(): number;
  /** The calls answered, in order. */
  seen: SeenCall[];
  behave: (n: number) => Behaviour;
  close(): Promise<void>;
}

export function labelFor(claim: string, passage: string): string {
  const rule = RULES.find(
    (r) => claim.includes(r.claimIncludes) && (!r.passageIncludes || passage.includes(r.passageIncludes)),
  );
  return rule?.label ?? 'unsupported';
}

export async function startJudgeServer(): Promise<JudgeServer> {
  let count = 0;
  const judge: JudgeServer = {
    base: '',
    requests: () => count,
    seen: [],
    behave: () => 'answer',
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections(); // hanging requests end here
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      const behaviour = judge.behave(++count);
      if (behaviour === 'hang') return;
      if (req.url !== '/v1/chat/completions' || behaviour === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
        return;
      }
      const request = JSON.parse(body) as { model: string; messages: Array<{ role: string; content: string }> };
      const user = request.messages.find((m) => m.role === 'user')?.content ?? '{}';
      const input = JSON.parse(user) as { pairs: SeenCall['pairs'] };
      judge.seen.push({ model: request.model, authorization: req.headers.authorization ?? null, pairs: input.pairs });
      const judged = behaviour === 'partial' ? input.pairs.slice(0, 1) : input.pairs;
      const judgements = judged.map((p) => ({ id: p.id, label: labelFor(p.claim, p.passage) }));
      const content = behaviour === 'garbage' ? '"'.repeat(20) : JSON.stringify({ judgements });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-fixture',
          object: 'chat.completion',
          created: 0,
          model: request.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  judge.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return judge;
}

/** Two pages and an answer citing them: the pairs both model-judge tests send to the server. */
export const JUDGE_PAGES = [
  'In 1997 the direction of the company was transferred to a board of trustees. The founder kept an honorary title.',
  'The museum opened in 1994 on the old harbour. The museum is open to visitors every day except Monday.',
];
export const JUDGE_INPUT: SourceInfluenceInput = {
  answer:
    'The founder gave up control of the company in 1997 [1]. The harbour museum opened in 1994 [2]. ' +
    'The harbour museum is closed to visitors on most days [2].',
  prompt: null,
  citations: [{ url: 'https://a.example/company' }, { url: 'https://b.example/museum' }],
  analysis: null,
};
