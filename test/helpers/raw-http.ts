/** HTTP/1.1 over a raw socket, as a client that pipelines sends it: bytes in, answers split by Content-Length. */

/** A raw connection: send bytes, wait until `count` answers in all have come back (or the server closed it). */
export async function rawConnection(port: number) {
  let raw = Buffer.alloc(0);
  let closed = false;
  let wake = () => {};
  const answers = () => parseAnswers(raw.toString("latin1"));
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_socket, chunk) {
        raw = Buffer.concat([raw, chunk]);
        wake();
      },
      close() {
        closed = true;
        wake();
      },
    },
  });
  return {
    send: (payload: string) => socket.write(payload),
    async until(count: number): Promise<{ status: number; body: string }[]> {
      const deadline = Date.now() + 20_000;
      while (answers().length < count && !closed && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return answers();
    },
    closed: () => closed,
    end: () => socket.end(),
  };
}

/** Split a byte stream of HTTP/1.1 answers (Content-Length framed) into status and body. */
export function parseAnswers(text: string): { status: number; body: string }[] {
  const out: { status: number; body: string }[] = [];
  let at = 0;
  for (;;) {
    const headEnd = text.indexOf("\r\n\r\n", at);
    if (headEnd === -1) return out;
    const head = text.slice(at, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (text.length < headEnd + 4 + length) return out;
    out.push({ status: Number(head.slice(9, 12)), body: text.slice(headEnd + 4, headEnd + 4 + length) });
    at = headEnd + 4 + length;
  }
}

/**
 * `count` PUT/GET pairs on `Maize` as one string: each PUT sets the price `first + i`, its GET reads it back.
 * @example socket.send(pipelinedPairs(host, key, 200, 100))
 */
export function pipelinedPairs(host: string, key: string, first: number, count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ price: first + i });
    out +=
      `PUT /v1/prices/Maize HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
      `GET /v1/ingredients/Maize HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${key}\r\n\r\n`;
  }
  return out;
}

/** The price each answer's body carries. */
export const pricesOf = (answers: { body: string }[]) => answers.map((a) => (JSON.parse(a.body) as { data: { price: number } }).data.price);
