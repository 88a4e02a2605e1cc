/**
 * The real answers the precision of §6.8 is measured on: the recorded upstream answers of test/fixtures/real/chat
 * (see PROVENANCE.md there), read by the service's own parsers into the text a monitor run sees.
 */
import fs from 'node:fs';
import { buildGeminiResult, parseGemini } from '../../src/engines/chat/gemini-parser.js';
import { parseResponsesPayload } from '../../src/engines/chat/openai-responses-parser.js';
import { parseSonar } from '../../src/engines/chat/sonar-parser.js';

export interface CorpusAnswer {
  id: string;
  prompt: string;
  text: string;
  sources: Array<{ url: string }>;
}

interface ChatCase {
  id: string;
  engine: 'CHATBOT_A' | 'ANSWER_ENGINE_A' | 'ASSISTANT_A';
  file: string;
  contentType: string;
  payload: { prompt: string };
  expect: { text?: string; sources?: Array<{ url: string }> };
}

const CHAT = new URL('../fixtures/real/chat/', import.meta.url);

function chatText(c: ChatCase): string {
  const body = fs.readFileSync(new URL(c.file, CHAT));
  if (c.engine === 'CHATBOT_A') return parseResponsesPayload(c.contentType, body).text;
  const json: unknown = JSON.parse(body.toString('utf8'));
  if (c.engine === 'ANSWER_ENGINE_A') return parseSonar(json).text;
  return buildGeminiResult(parseGemini(json), new Map()).text;
}

/**
 * Sample A: every recorded chat answer with a text, in the order of cases.json. Fixed before the labels were
 * written (README.md beside the labels).
 */
export function chatAnswers(): CorpusAnswer[] {
  const { cases } = JSON.parse(fs.readFileSync(new URL('cases.json', CHAT), 'utf8')) as { cases: ChatCase[] };
  return cases
    .filter((c) => typeof c.expect.text === 'string')
    .map((c) => ({
      id: c.id,
      prompt: c.payload.prompt,
      text: chatText(c),
      sources: (c.expect.sources ?? []).map((s) => ({ url: s.url })),
    }));
}
