/**
 * Approximate user location for hosted web-search tools (OpenAI `web_search`, docs/engines.md#openai-responses):
 * the country alone biases results; a capital city and its IANA time zone make the answer read as a
 * local user's would (local currency, "today" in the right zone). Unknown countries send the code only.
 */
export interface ApproximateLocation {
  type: 'approximate';
  country: string;
  city?: string;
  region?: string;
  timezone?: string;
}

const PLACES: Readonly<Record<string, readonly [city: string, region: string, timezone: string]>> = Object.freeze({
  US: ['New York', 'New York', 'America/New_York'],
  CA: ['Toronto', 'Ontario', 'America/Toronto'],
  MX: ['Mexico City', 'Mexico City', 'America/Mexico_City'],
  BR: ['São Paulo', 'São Paulo', 'America/Sao_Paulo'],
  AR: ['Buenos Aires', 'Buenos Aires', 'America/Argentina/Buenos_Aires'],
  GB: ['London', 'England', 'Europe/London'],
  IE: ['Dublin', 'Leinster', 'Europe/Dublin'],
  FR: ['Paris', 'Île-de-France', 'Europe/Paris'],
  DE: ['Berlin', 'Berlin', 'Europe/Berlin'],
  ES: ['Madrid', 'Madrid', 'Europe/Madrid'],
  IT: ['Rome', 'Lazio', 'Europe/Rome'],
  NL: ['Amsterdam', 'North Holland', 'Europe/Amsterdam'],
  SE: ['Stockholm', 'Stockholm', 'Europe/Stockholm'],
  PL: ['Warsaw', 'Masovia', 'Europe/Warsaw'],
  KR: ['Seoul', 'Seoul', 'Asia/Seoul'],
  JP: ['Tokyo', 'Tokyo', 'Asia/Tokyo'],
  TW: ['Taipei', 'Taipei', 'Asia/Taipei'],
  SG: ['Singapore', 'Singapore', 'Asia/Singapore'],
  IN: ['Mumbai', 'Maharashtra', 'Asia/Kolkata'],
  ID: ['Jakarta', 'Jakarta', 'Asia/Jakarta'],
  VN: ['Hanoi', 'Hanoi', 'Asia/Ho_Chi_Minh'],
  TH: ['Bangkok', 'Bangkok', 'Asia/Bangkok'],
  AU: ['Sydney', 'New South Wales', 'Australia/Sydney'],
  NZ: ['Auckland', 'Auckland', 'Pacific/Auckland'],
  AE: ['Dubai', 'Dubai', 'Asia/Dubai'],
  ZA: ['Johannesburg', 'Gauteng', 'Africa/Johannesburg'],
});

export function approximateLocation(country: string): ApproximateLocation {
  const code = country.toUpperCase();
  const place = PLACES[code];
  if (!place) return { type: 'approximate', country: code };
  const [city, region, timezone] = place;
  return { type: 'approximate', country: code, city, region, timezone };
}
