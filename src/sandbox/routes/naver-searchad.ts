import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../sim-context.js';

/**
 * Naver Search Ad keyword tool `GET /keywordstool?hintKeywords=a,b&showDetail=1` (docs/analysis.md#s3-1).
 * The request must carry `X-API-KEY`, `X-Customer`, `X-Timestamp` and `X-Signature =
 * base64(HMAC-SHA256(secret, "{timestamp}.GET./keywordstool"))` for the sandbox license (the
 * sandbox credentials of `SANDBOX_API_KEYS`); a wrong signature is 403, an unknown license 401,
 * more than 5 hint keywords or one with a space 400. Volumes are derived from the keyword text (the
 * same keyword always has the same volume; long tails get little, and `"< 10"` below ten). Each hint
 * is answered with its row, space-free and upper-cased, plus two related keywords. These volumes
 * are a formula, not searches: prompt research names this upstream `sandbox_searchad` (never
 * `naver_searchad`) and marks its result `simulated: true`.
 */
const LICENSES: Readonly<Record<string, string>> = { 'sandbox-access-license': 'sandbox-searchad-secret' };

const error = (status: number, title: string, detail: string) => ({ title, detail, status });

function signatureOk(secret: string, timestamp: string, signature: string): boolean {
  const expected = createHmac('sha256', secret).update(`${timestamp}.GET./keywordstool`).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function row(sim: SimContext, keyword: string): Record<string, unknown> {
  const h = sim.hash(keyword, 'searchad');
  // Head terms are searched most: volume falls with keyword length, times a ±40 % spread.
  const total = Math.round(10 ** (5.4 - 0.22 * [...keyword].length) * (0.6 + (h % 1000) / 1250));
  const low = total < 10;
  const pc = low ? '< 10' : Math.round(total * 0.25);
  const mobile = low ? '< 10' : total - Math.round(total * 0.25);
  return {
    relKeyword: keyword,
    monthlyPcQcCnt: pc,
    monthlyMobileQcCnt: mobile,
    monthlyAvePcClkCnt: low ? 0 : Math.round(total * 0.004 * 10) / 10,
    monthlyAveMobileClkCnt: low ? 0 : Math.round(total * 0.01 * 10) / 10,
    monthlyAvePcCtr: 0.47,
    monthlyAveMobileCtr: 1.12,
    plAvgDepth: 15,
    compIdx: ['낮음', '중간', '높음'][h % 3],
  };
}

export function registerNaverSearchad(app: FastifyInstance, sim: SimContext): void {
  app.get('/keywordstool', async (req, reply) => {
    const license = String(req.headers['x-api-key'] ?? '');
    const secret = LICENSES[license];
    if (!secret || !req.headers['x-customer'])
      return reply.code(401).send(error(401, 'Unauthorized', 'Invalid API key or customer.'));
    if (!signatureOk(secret, String(req.headers['x-timestamp'] ?? ''), String(req.headers['x-signature'] ?? ''))) {
      return reply.code(403).send(error(403, 'Forbidden', 'Invalid signature.'));
    }
    const hints = String((req.query as Record<string, unknown>).hintKeywords ?? '')
      .split(',')
      .filter((k) => k !== '');
    if (hints.length === 0 || hints.length > 5 || hints.some((k) => /\s/.test(k))) {
      return reply.code(400).send(error(400, 'Bad Request', 'hintKeywords must be 1 to 5 keywords without spaces.'));
    }
    const seen = new Set<string>();
    const keywordList: Array<Record<string, unknown>> = [];
    for (const k of hints.flatMap((h) => [h, `${h}가격`, `${h}후기`])) {
      const key = k.toUpperCase();
      if (seen.has(key)) continue;
      seen.add(key);
      keywordList.push(row(sim, key));
    }
    return reply.type('application/json;charset=UTF-8').send({ keywordList });
  });
}
