import { hostnameOf, normalizeCitationUrl, registrableDomain } from '../common/urls.js';

/** One distinct source of an answer, grouped by registrable domain (§6.2). */
interface CitedSource {
  /** The normalised URL (redirector unwrapped, `utm_*` and text fragments dropped): the key for duplicates. */
  url: string;
  host: string;
  /** eTLD+1 (`shop.nike.co.kr` → `nike.co.kr`), the unit of the top-domains table. */
  domain: string;
  /** Index in `owners` of the first tracked brand whose domains hold this host, or null. */
  ownerIndex: number | null;
}

export interface Citations {
  sources: CitedSource[];
  /** Sources whose URL has no host (not counted as citations). */
  invalid: number;
}

/** A tracked brand's own domains, as configured. */
export interface DomainOwner {
  domains?: readonly string[] | undefined;
}

/**
 * A configured domain as a bare host: `https://www.Nike.com/kr` → `nike.com`. `www.` is dropped because a brand
 * listing its web host means the whole site; Unicode names become the punycode form that URL hosts use.
 */
export function ownDomainHost(configured: string): string {
  const t = configured.trim();
  const host = hostnameOf(/^[a-z][a-z\d+.-]*:\/\//i.test(t) ? t : `https://${t}`);
  return host.replace(/\.$/, '').replace(/^www\./, '');
}

/** The host is the domain or one of its subdomains (`news.nike.com` is nike.com's; `nikeshoes.com` is not). */
export function hostWithin(host: string, domain: string): boolean {
  return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
}

/**
 * The distinct cited sources of one answer with their domains and owners. A URL listed twice (after normalisation)
 * is one citation: engines repeat a source under several markers, which says nothing more about the brand.
 */
export function citedSources(sources: ReadonlyArray<{ url: string }>, owners: readonly DomainOwner[]): Citations {
  const hosts = owners.map((o) => (o.domains ?? []).map(ownDomainHost).filter((d) => d !== ''));
  const seen = new Set<string>();
  const out: CitedSource[] = [];
  let invalid = 0;
  for (const s of sources) {
    const url = normalizeCitationUrl(s.url);
    const host = hostnameOf(url).replace(/\.$/, '');
    if (host === '') {
      invalid++;
      continue;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    // The brand is listed first, so a host configured for both the brand and a competitor counts as the brand's.
    const k = hosts.findIndex((domains) => domains.some((d) => hostWithin(host, d)));
    out.push({ url, host, domain: registrableDomain(host), ownerIndex: k < 0 ? null : k });
  }
  return { sources: out, invalid };
}
