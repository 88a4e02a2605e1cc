/**
 * A 1 MB page for the parse-isolation scenario, made the same way every run, shaped like a page of
 * a modern news or documentation site: navigation and footer around an article of about 100 KB of
 * markup (headings, paragraphs with links and emphasis, lists, tables, figures with srcset), and
 * the rest inline state and code (a JSON `__NEXT_DATA__`-style script, analytics, CSS), which is
 * where most of such a page's bytes are. (A megabyte of article markup alone takes jsdom,
 * Readability and Turndown about 12 s here: a different, pathological case.)
 */
const WORDS = (
  'trail shoe grip lug depth cushioning stack height drop rock plate upper mesh heel counter toe box ' +
  'midsole outsole rubber compound traction mud scree wet granite durability miles weight fit width ' +
  'stability pronation runner race ultra distance climb descent comfort breathability lacing gaiter'
).split(' ');

function words(seed: number, n: number): string {
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

function section(i: number): string {
  const p = (k: number) =>
    `<p>${words(i * 31 + k, 40)} <a href="/guides/${i}-${k}">${words(k, 3)}</a> ` +
    `<em>${words(i + k, 4)}</em> ${words(i * 7 + k, 30)}.</p>`;
  const item = (k: number) => `<li><strong>${words(i + k, 2)}</strong>: ${words(i * 3 + k, 12)}</li>`;
  const row = (k: number) =>
    `<tr><td>${words(k + i, 2)}</td><td>${k + 4} mm</td><td>${250 + k * 10} g</td><td>${words(i * k + 1, 8)}</td></tr>`;
  return [
    `<h2 id="s${i}">${words(i, 5)}</h2>`,
    p(1),
    p(2),
    `<figure><img src="/img/${i}.jpg" srcset="/img/${i}-640.jpg 640w, /img/${i}-1280.jpg 1280w" ` +
      `alt="${words(i, 4)}" width="1280" height="720"><figcaption>${words(i + 3, 8)}</figcaption></figure>`,
    p(3),
    `<ul>${Array.from({ length: 6 }, (_, k) => item(k)).join('')}</ul>`,
    `<table><thead><tr><th>model</th><th>drop</th><th>weight</th><th>notes</th></tr></thead>` +
      `<tbody>${Array.from({ length: 5 }, (_, k) => row(k)).join('')}</tbody></table>`,
    p(4),
    p(5),
  ].join('\n');
}

export function articlePage(targetBytes = 1024 * 1024, articleBytes = 100 * 1024): string {
  const head =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Choosing a trail running shoe</title>
<meta property="og:title" content="Choosing a trail running shoe"><link rel="canonical" href="https://outdoors.example.com/guides/trail-shoes">
<style>${'.c{margin:0;padding:0}'.repeat(400)}</style>` +
    `<script>${'window.dataLayer=window.dataLayer||[];'.repeat(400)}</script></head><body>
<header><nav>${Array.from({ length: 40 }, (_, k) => `<a href="/n/${k}">${words(k, 2)}</a>`).join(' ')}</nav></header>
<main><article><h1>Choosing a trail running shoe</h1><p class="byline">By A. Writer</p>`;
  const tail =
    `</article></main><aside>${words(9, 200)}</aside>` +
    `<footer>${Array.from({ length: 60 }, (_, k) => `<a href="/f/${k}">${words(k + 100, 2)}</a>`).join(' ')}</footer>`;
  const parts: string[] = [head];
  let size = head.length + tail.length;
  for (let i = 0; size < articleBytes; i++) {
    const s = section(i);
    parts.push(s);
    size += s.length;
  }
  parts.push(tail);
  // The page's state as a JSON script, up to the target size.
  const items: unknown[] = [];
  for (let i = 0; size + JSON.stringify(items).length < targetBytes - 200; i++)
    items.push({
      id: i,
      slug: words(i, 3).replace(/ /g, '-'),
      summary: words(i * 13, 20),
      tags: words(i, 4).split(' '),
    });
  const nextData = JSON.stringify({ props: { pageProps: { related: items } } });
  parts.push(`<script id="__NEXT_DATA__" type="application/json">${nextData}</script></body></html>`);
  return parts.join('\n');
}
