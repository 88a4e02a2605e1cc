/**
 * The brands the simulated engines recommend, by market. A prompt belongs to the first market one of whose phrases
 * it contains (lower-cased); a prompt of no market gets no recommendations, and its answer reads as before. Names are
 * real brands, as an analyst would track them; Korean answers use the Korean name where Korean text does (a monitor
 * lists it as an alias).
 */
export interface MarketBrand {
  name: string;
  /** The name in Korean text, when it differs. */
  ko?: string;
  /** The brand's own site: an answer that recommends it may cite it. */
  domain: string;
}

export interface Market {
  id: string;
  /** Lower-case phrases; a prompt containing one is of this market. */
  phrases: readonly string[];
  brands: readonly MarketBrand[];
}

const MARKETS: readonly Market[] = [
  {
    id: 'running-shoes',
    phrases: ['running shoe', 'trail running', 'marathon shoe', 'running sneaker', '러닝화', '마라톤화', '런닝화'],
    brands: [
      { name: 'Nike', ko: '나이키', domain: 'nike.com' },
      { name: 'Adidas', ko: '아디다스', domain: 'adidas.com' },
      { name: 'Hoka', ko: '호카', domain: 'hoka.com' },
      { name: 'Brooks', ko: '브룩스', domain: 'brooksrunning.com' },
      { name: 'Asics', ko: '아식스', domain: 'asics.com' },
      { name: 'New Balance', ko: '뉴발란스', domain: 'newbalance.com' },
      { name: 'Saucony', ko: '써코니', domain: 'saucony.com' },
    ],
  },
  {
    id: 'crm',
    phrases: ['crm', 'customer relationship', 'sales pipeline software'],
    brands: [
      { name: 'Salesforce', ko: '세일즈포스', domain: 'salesforce.com' },
      { name: 'HubSpot', ko: '허브스팟', domain: 'hubspot.com' },
      { name: 'Zoho CRM', domain: 'zoho.com' },
      { name: 'Pipedrive', domain: 'pipedrive.com' },
      { name: 'Freshsales', domain: 'freshworks.com' },
    ],
  },
  {
    id: 'vpn',
    phrases: ['vpn'],
    brands: [
      { name: 'NordVPN', domain: 'nordvpn.com' },
      { name: 'ExpressVPN', domain: 'expressvpn.com' },
      { name: 'Surfshark', domain: 'surfshark.com' },
      { name: 'Proton VPN', domain: 'protonvpn.com' },
      { name: 'Mullvad', domain: 'mullvad.net' },
    ],
  },
  {
    id: 'laptops',
    phrases: ['laptop', 'notebook computer', '노트북'],
    brands: [
      { name: 'Apple', ko: '애플', domain: 'apple.com' },
      { name: 'Lenovo', ko: '레노버', domain: 'lenovo.com' },
      { name: 'Dell', ko: '델', domain: 'dell.com' },
      { name: 'ASUS', ko: '에이수스', domain: 'asus.com' },
      { name: 'Samsung', ko: '삼성', domain: 'samsung.com' },
      { name: 'HP', domain: 'hp.com' },
    ],
  },
  {
    id: 'dog-food',
    phrases: ['dog food', 'puppy food', '강아지 사료', '강아지사료', '애견 사료'],
    brands: [
      { name: 'Royal Canin', ko: '로얄캐닌', domain: 'royalcanin.com' },
      { name: "Hill's", ko: '힐스', domain: 'hillspet.com' },
      { name: 'Purina', ko: '퓨리나', domain: 'purina.com' },
      { name: 'Orijen', ko: '오리젠', domain: 'orijenpetfoods.com' },
      { name: 'Acana', ko: '아카나', domain: 'acana.com' },
    ],
  },
  {
    id: 'project-management',
    phrases: ['project management', 'task management', 'kanban'],
    brands: [
      { name: 'Asana', domain: 'asana.com' },
      { name: 'Trello', domain: 'trello.com' },
      { name: 'Jira', domain: 'atlassian.com' },
      { name: 'Notion', domain: 'notion.so' },
      { name: 'Monday.com', domain: 'monday.com' },
    ],
  },
  {
    id: 'headphones',
    phrases: ['headphone', 'earbud', '이어폰', '헤드폰'],
    brands: [
      { name: 'Sony', ko: '소니', domain: 'sony.com' },
      { name: 'Bose', ko: '보스', domain: 'bose.com' },
      { name: 'Apple', ko: '애플', domain: 'apple.com' },
      { name: 'Samsung', ko: '삼성', domain: 'samsung.com' },
      { name: 'Sennheiser', ko: '젠하이저', domain: 'sennheiser.com' },
    ],
  },
];

/** The market of a prompt, or null. */
export function marketOf(topic: string): Market | null {
  const t = topic.toLowerCase();
  return MARKETS.find((m) => m.phrases.some((p) => t.includes(p))) ?? null;
}

/** A brand's key in directives: lower case, spaces and punctuation as `-` (`New Balance` → `new-balance`). */
export function brandKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
}
