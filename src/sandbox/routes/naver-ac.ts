import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import { sandboxSuggestions, suggestLanguage } from './suggest.js';

/**
 * Naver autocomplete `GET /nx/ac` (docs/analysis.md#s3-1, docs/engines.md#naver-autocomplete):
 * `{"query": [q], "items": [[["suggestion", "0"], …]]}`, completions generated like the Google
 * simulator's (Latin-only ones included, which Korean users type for product names).
 * `sandbox:captcha` answers Naver's abnormal-search block page, `sandbox:empty` an empty list.
 */
const error5xx = (reply: FastifyReply) =>
  reply.code(500).type('text/html; charset=UTF-8').send('<html><body><h1>500 Internal Server Error</h1></body></html>');

const BLOCK_PAGE = `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>네이버</title></head><body>
<div class="error_content"><h2>비정상적인 검색 요청이 감지되었습니다.</h2>
<p>자동입력 방지 문자를 입력해 주세요.</p></div></body></html>`;

export function registerNaverAc(app: FastifyInstance, sim: SimContext): void {
  app.get('/nx/ac', async (req, reply) => {
    const params = req.query as Record<string, string | undefined>;
    const q = params.q ?? '';
    const d = await sim.gate('naver-ac', q, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) return reply.code(403).type('text/html; charset=UTF-8').send(BLOCK_PAGE);
    const list = d.empty ? [] : sandboxSuggestions(sim, sim.clean(q), suggestLanguage('ko', q), 'naver');
    return reply
      .type('application/json; charset=UTF-8')
      .send(JSON.stringify({ query: [q], answer: [], intend: [], items: [list.map((s) => [s, '0'])] }));
  });
}
