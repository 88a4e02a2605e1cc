/** One Server-Sent Event: its `event:` name (default `message`) and its joined `data:` lines. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental Server-Sent Events decoder (WHATWG event-stream rules): input may be split anywhere,
 * even inside a line or a multi-byte character; lines starting with `:` are comments; an event is
 * dispatched at a blank line. An event not terminated by a blank line when the stream ends is
 * dropped, as the spec says — a cut stream must not yield a half-received event.
 */
export class SseDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  private buffer = '';
  private eventName = '';
  private dataLines: string[] = [];
  private lastId: string | undefined;
  private sawCr = false;

  /** Feeds raw bytes; returns the events completed by them. */
  pushBytes(chunk: Uint8Array): SseEvent[] {
    return this.push(this.utf8.decode(chunk, { stream: true }));
  }

  /** Feeds decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    let t = text;
    // A CRLF split across two pushes: the LF belongs to the CR already taken as a line end.
    if (this.sawCr && t.startsWith('\n')) t = t.slice(1);
    this.sawCr = false;
    this.buffer += t;
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) break;
      // A lone CR at the very end may be the first half of CRLF; remember it.
      if (m[0] === '\r' && m.index === this.buffer.length - 1) this.sawCr = true;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    return out;
  }

  /**
   * Ends the stream; returns events completed by the decoder's last bytes (an unterminated trailing event is
   * discarded).
   */
  end(): SseEvent[] {
    const rest = this.utf8.decode();
    const out = rest ? this.push(rest) : [];
    this.buffer = '';
    this.dataLines = [];
    this.eventName = '';
    return out;
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      if (this.dataLines.length === 0) {
        this.eventName = '';
        return null;
      }
      const ev: SseEvent = { event: this.eventName || 'message', data: this.dataLines.join('\n') };
      if (this.lastId !== undefined) ev.id = this.lastId;
      this.eventName = '';
      this.dataLines = [];
      return ev;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') this.dataLines.push(value);
    else if (field === 'id' && !value.includes('\u0000')) this.lastId = value;
    return null;
  }
}

/** Decodes a whole buffered body (or a list of chunks) into events. */
export function decodeSse(chunks: Iterable<Uint8Array | string>): SseEvent[] {
  const d = new SseDecoder();
  const out: SseEvent[] = [];
  for (const c of chunks) out.push(...(typeof c === 'string' ? d.push(c) : d.pushBytes(c)));
  out.push(...d.end());
  return out;
}
