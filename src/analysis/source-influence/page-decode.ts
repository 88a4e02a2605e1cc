import iconv from 'iconv-lite';

/**
 * Charset and wall detection for cited pages (§2.4): Content-Type charset → BOM → `<meta charset>`
 * / `http-equiv` in the first 4 KB → UTF-8, with an EUC-KR (CP949) retry for `.kr` hosts when UTF-8
 * decoding produces more than 1 % replacement characters.
 */
export function decodePage(body: Buffer, contentType: string | null, host: string): string {
  const cs = charsetOf(body, contentType);
  const decoded = iconv.decode(body, cs === 'euc-kr' || cs === 'ks_c_5601-1987' || cs === 'windows-949' ? 'cp949' : cs);
  if (cs === 'utf-8' && host.endsWith('.kr') && replacementRatio(decoded) > 0.01) return iconv.decode(body, 'cp949');
  return decoded.replace(/^\uFEFF/, '');
}

function charsetOf(body: Buffer, contentType: string | null): string {
  const header = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (header && iconv.encodingExists(header)) return header;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const head = body.subarray(0, 4096).toString('latin1');
  const meta =
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+http-equiv\s*=\s*["']?content-type["']?[^>]*content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head)?.[1];
  const m = meta?.toLowerCase();
  if (m && iconv.encodingExists(m)) return m;
  return 'utf-8';
}

function replacementRatio(s: string): number {
  if (s.length === 0) return 0;
  let bad = 0;
  for (const c of s) if (c === '\uFFFD') bad++;
  return bad / s.length;
}

/**
 * Block/captcha/challenge pages (docs/engines.md#failure-order, #google-walls-and-blocks, #naver-blocks,
 * #block-signatures), with evidence beyond a script tag.
 */
export function isWallPage(status: number, headers: Record<string, string>, text: string, finalUrl: string): boolean {
  if ((headers['cf-mitigated'] ?? '').includes('challenge')) return true;
  if ((headers['x-amzn-waf-action'] ?? '').includes('captcha')) return true;
  if (headers['x-datadome'] !== undefined && (status === 403 || status === 429)) return true;
  const challengeStatus = status === 403 || status === 429 || status === 503;
  const small = text.length < 15_000;
  const lower = text.toLowerCase();
  const provider = [
    '/cdn-cgi/challenge-platform/',
    'captcha-delivery.com',
    '_incapsula_resource',
    'incapsula incident id',
    'px-captcha',
  ];
  if (provider.some((p) => lower.includes(p)) && (challengeStatus || small)) return true;
  if (challengeStatus && /<title>\s*just a moment/i.test(text)) return true;
  if (challengeStatus && lower.includes('access denied') && lower.includes('reference #')) return true;
  const captchaWords = [
    'unusual traffic',
    'not a robot',
    '/sorry/index',
    '비정상적인 검색',
    '자동입력 방지',
    '자동 입력 방지',
    'verify you are human',
  ];
  if (small && captchaWords.some((w) => lower.includes(w))) return true;
  try {
    const u = new URL(finalUrl);
    if (
      /(^|\/)(login|signin|sign-in|nidlogin)(\.|\/|$)|\/accounts\/login/i.test(u.pathname) ||
      u.hostname === 'nid.naver.com'
    )
      return true;
  } catch {
    // not a URL
  }
  return false;
}
