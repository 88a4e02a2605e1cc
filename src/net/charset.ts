import iconv from 'iconv-lite';

/** Charset from Content-Type, then BOM, then an HTML meta tag; UTF-8 by default (docs/engines.md#page-fetch). */
export function detectCharset(contentType: string | undefined, body: Buffer): string {
  const fromHeader = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (fromHeader && iconv.encodingExists(fromHeader)) return fromHeader.toLowerCase();
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const head = body.subarray(0, 2048).toString('latin1');
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  if (meta && iconv.encodingExists(meta)) return meta.toLowerCase();
  return 'utf-8';
}

export function decodeBody(contentType: string | undefined, body: Buffer): string {
  const cs = detectCharset(contentType, body);
  // CP949 is a superset of EUC-KR; Korean sites labelled euc-kr often use its extra syllables.
  const effective = cs === 'euc-kr' || cs === 'ks_c_5601-1987' ? 'cp949' : cs;
  return iconv.decode(body, effective);
}
