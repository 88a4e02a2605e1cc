/**
 * What a reader sees of a text, for counting names in it: web addresses are not read as words. A results page's
 * text carries each result's URL (`1. Title — https://example.com/brooks-vs-hoka/1 — snippet`), and answers paste
 * links; a brand inside an address (a path, a query, a host) is no mention of it, while the same brand in the
 * title or snippet beside it is. Bare domains written as words (`nike.com`) stay: a reader reads them as the name.
 */

/**
 * An address with a scheme or starting `www.`, up to the next space or markup delimiter. Each alternative begins
 * with a fixed prefix and then takes one character class, so it runs in linear time on any input.
 */
const ADDRESS = /\bhttps?:\/\/[^\s<>"]+|\bwww\.[^\s<>"]+/giu;

/**
 * The text with every web address blanked: each UTF-16 code unit of it becomes a space, so the result has the same
 * length and every offset found in it is an offset in the original.
 */
export function withoutAddresses(text: string): string {
  return text.replace(ADDRESS, (m) => ' '.repeat(m.length));
}
