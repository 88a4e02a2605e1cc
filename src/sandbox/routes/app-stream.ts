import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';

/**
 * Sends server-sent event frames one by one, `gapMs` apart, as an app's conversation endpoint streams its answer: the
 * page renders as the frames arrive. A client that goes away stops the stream.
 */
export function sendSse(reply: FastifyReply, frames: readonly string[], gapMs: number): FastifyReply {
  const out = new PassThrough();
  let i = 0;
  const next = () => {
    if (out.destroyed) return;
    if (i >= frames.length) {
      out.end();
      return;
    }
    out.write(frames[i++]);
    setTimeout(next, gapMs).unref();
  };
  next();
  return reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send(out);
}

/** One server-sent event (`event:` only when named). */
export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

export interface SimProduct {
  title: string;
  url: string;
  price: string;
  currency: string;
  merchant: string;
  rating: number;
}

const MERCHANTS = ['Example Outfitters', 'Shop Example', 'Example Market'];

/** Two product cards for a shopping prompt, the same for the same topic. */
export function fakeProducts(sim: SimContext, topic: string): SimProduct[] {
  const slug = encodeURIComponent(topic.toLowerCase().replace(/\s+/g, '-').slice(0, 40)) || 'product';
  return [0, 1].map((i) => {
    const h = sim.hash(topic, `product${i}`);
    return {
      title: `${topic.slice(0, 50)} — model ${String.fromCharCode(65 + i)}`,
      url: `https://shop.example.com/${slug}-${i + 1}`,
      price: `$${79 + (h % 120)}.99`,
      currency: 'USD',
      merchant: MERCHANTS[h % MERCHANTS.length] as string,
      rating: 3.5 + (h % 15) / 10,
    };
  });
}
